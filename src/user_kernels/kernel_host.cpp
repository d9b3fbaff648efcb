#include "user_kernels/kernel_host.hpp"

#include <convlab/kernel.h>
#include <dlfcn.h>
#include <omp.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>

#include "core/stopwatch.hpp"
#include "impl/cuda/device_calls.hpp"
#include "impl/family.hpp"
#include "user_kernels/kernel_contract.hpp"
#include "user_kernels/kernel_host_channel.hpp"
#include "user_kernels/kernel_host_keeper.hpp"
#include "user_kernels/verified_artifact.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;
using Entry = int (*)(const convlab_problem*);

const char* const kDeclaredNames[] = {"convlab_contract",          "convlab_supported_borders",
                                      "convlab_supported_outputs", "convlab_supported_channels",
                                      "convlab_needs_separable",   "convlab_needs_scratch",
                                      "convlab_max_ksize"};

// Only the describe step loads a library by its path: it runs while the entry is being made,
// before its manifest records a hash.
void* load_library_at(const std::string& path) {
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw std::runtime_error(path + ": cannot be loaded: " + ::dlerror());
  return handle;
}

int describe(const std::string& path) {
  json answer;
  try {
    void* library = load_library_at(path);
    json ints = json::array();
    for (const char* name : kDeclaredNames)
      if (const void* symbol = ::dlsym(library, name))
        ints.push_back({name, *static_cast<const int*>(symbol)});
    json entries = json::array();
    if (::dlsym(library, "convlab_convolve")) entries.push_back("convlab_convolve");
    answer = {{"ints", ints}, {"entries", entries}};
  } catch (const std::exception& error) {
    answer = {{"error", error.what()}};
  }
  std::fflush(stdout);
  std::cout << "\n" << answer.dump() << "\n" << std::flush;
  return 0;
}

// The image every point of the current problem reads.
struct SharedImage {
  std::string key;
  int width = 0, height = 0, channels = 0;
  SharedBuffer pixels;
};

struct Weights {
  std::vector<float> weights, column, row;
  bool separable = false;
  int ksize = 0;
};

Weights weights_of(const json& request) {
  Weights w;
  w.ksize = request.at("ksize").get<int>();
  w.weights = request.at("weights").get<std::vector<float>>();
  w.separable = request.at("separable").get<bool>();
  if (w.separable) {
    w.column = request.at("column").get<std::vector<float>>();
    w.row = request.at("row").get<std::vector<float>>();
  }
  return w;
}

class HostedPoint {
 public:
  virtual ~HostedPoint() = default;
  virtual json execute() = 0;
  virtual json fetch_output() { return json::object(); }
};

class CpuPoint final : public HostedPoint {
 public:
  CpuPoint(const json& request, std::shared_ptr<SharedImage> image, SharedBuffer output)
      : image_(std::move(image)), output_(std::move(output)), weights_(weights_of(request)) {
    void* library = load_verified_library(request.at("artifact").get<std::string>(),
                                          request.at("artifact_sha256").get<std::string>());
    entry_ = reinterpret_cast<Entry>(::dlsym(library, "convlab_convolve"));
    if (entry_ == nullptr) throw std::runtime_error("convlab_convolve is not defined");
    threads_ = request.at("threads").get<int>();
    const KernelContract contract = contract_from_json(request.at("contract"));
    const std::size_t values =
        static_cast<std::size_t>(image_->width) * image_->height * image_->channels;
    if (contract.needs_scratch) scratch_.assign(values, 0.0f);
    problem_ = problem_of(request, values);
  }

  json execute() override {
    omp_set_num_threads(threads_);
    Stopwatch call;
    const int status = entry_(&problem_);
    const double ms = call.elapsed_ms();
    if (status != 0) throw std::runtime_error("the kernel returned " + std::to_string(status));
    return {{"host_ms", ms}};
  }

 private:
  convlab_problem problem_of(const json& request, std::size_t) {
    convlab_problem p{};
    p.width = image_->width;
    p.height = image_->height;
    p.channels = image_->channels;
    p.output = request.at("output").get<int>();
    p.in_pitch = static_cast<long long>(image_->width) * image_->channels;
    p.out_pitch = p.in_pitch * (p.output == CONVLAB_OUTPUT_U8 ? 1 : 4);
    p.in = static_cast<const unsigned char*>(image_->pixels.data());
    p.out = output_.data();
    p.border = request.at("border").get<int>();
    p.ksize = weights_.ksize;
    p.weights = weights_.weights.data();
    p.separable = weights_.separable ? 1 : 0;
    p.column = weights_.separable ? weights_.column.data() : nullptr;
    p.row = weights_.separable ? weights_.row.data() : nullptr;
    p.scratch = scratch_.empty() ? nullptr : scratch_.data();
    p.scratch_pitch = scratch_.empty() ? 0 : p.in_pitch * 4;
    p.threads = threads_;
    return p;
  }

  std::shared_ptr<SharedImage> image_;
  SharedBuffer output_;
  Weights weights_;
  std::vector<float> scratch_;
  Entry entry_ = nullptr;
  int threads_ = 1;
  convlab_problem problem_{};
};

cuda::UserKernelModule module_of(const json& request) {
  cuda::UserKernelModule module = launch_of(contract_from_json(request.at("contract")));
  // The bytes hashed are the bytes handed to the module load.
  module.image = read_verified_artifact(request.at("artifact").get<std::string>(),
                                        request.at("artifact_sha256").get<std::string>());
  return module;
}

class CudaPoint final : public HostedPoint {
 public:
  CudaPoint(const json& request, std::shared_ptr<SharedImage> image, SharedBuffer output)
      : image_(std::move(image)), output_(std::move(output)), weights_(weights_of(request)) {
    cuda::ProblemDesc desc;
    desc.pixels = static_cast<const std::uint8_t*>(image_->pixels.data());
    desc.width = image_->width;
    desc.height = image_->height;
    desc.channels = image_->channels;
    desc.image_key = image_->key;
    desc.ksize = weights_.ksize;
    desc.weights = weights_.weights.data();
    desc.separable = weights_.separable;
    desc.column = weights_.separable ? weights_.column.data() : nullptr;
    desc.row = weights_.separable ? weights_.row.data() : nullptr;
    desc.border = static_cast<Border>(request.at("border").get<int>());
    desc.output = request.at("output").get<int>() == 0 ? OutputType::u8 : OutputType::f32;
    run_ = cuda::prepare_user_kernel(module_of(request), desc, request.at("device").get<int>(),
                                     request.at("l2_flush").get<bool>());
  }

  json execute() override {
    const PhaseTimes times = run_->execute();
    return {{"h2d_ms", times.h2d_ms}, {"kernel_ms", times.kernel_ms}, {"d2h_ms", times.d2h_ms}};
  }

  json fetch_output() override {
    std::memcpy(output_.data(), run_->output(), output_.size());
    return json::object();
  }

 private:
  std::shared_ptr<SharedImage> image_;
  SharedBuffer output_;
  Weights weights_;
  std::unique_ptr<cuda::DeviceRun> run_;
};

class Server {
 public:
  explicit Server(int channel) : channel_(channel) {}

  int serve() {
    send_message(channel_, {{"server", ::getpid()}});
    for (;;) {
      ChannelMessage message;
      try {
        message = receive_message(channel_);
      } catch (const ChannelClosed&) {
        return 0;  // convlab closed the channel: done
      }
      json answer;
      try {
        answer = handle(message);
      } catch (const std::exception& error) {
        answer = {{"error", error.what()}};
      }
      for (int fd : message.fds) ::close(fd);
      send_message(channel_, answer);
    }
  }

 private:
  json handle(ChannelMessage& message) {
    const json& request = message.body;
    const std::string op = request.at("op").get<std::string>();
    if (op == "image") return take_image(message);
    const int id = request.at("id").get<int>();
    if (op == "prepare") return prepare(message, id);
    if (op == "release") {
      points_.erase(id);
      return json::object();
    }
    auto found = points_.find(id);
    if (found == points_.end()) throw std::runtime_error("no prepared point " + std::to_string(id));
    if (op == "execute") return found->second->execute();
    if (op == "output") return found->second->fetch_output();
    throw std::runtime_error("unknown request " + op);
  }

  json take_image(ChannelMessage& message) {
    const json& request = message.body;
    if (message.fds.size() != 1) throw std::runtime_error("an image comes with its memory");
    if (!sealed_against_writes(message.fds[0]))
      throw std::runtime_error("an image comes sealed against writes");
    auto image = std::make_shared<SharedImage>();
    image->key = request.at("key").get<std::string>();
    image->width = request.at("width").get<int>();
    image->height = request.at("height").get<int>();
    image->channels = request.at("channels").get<int>();
    const std::size_t bytes =
        static_cast<std::size_t>(image->width) * image->height * image->channels;
    image->pixels = SharedBuffer::adopt(message.fds[0], bytes, false);
    message.fds.clear();
    image_ = std::move(image);
    return json::object();
  }

  json prepare(ChannelMessage& message, int id) {
    const json& request = message.body;
    if (!image_) throw std::runtime_error("no image was sent");
    if (message.fds.size() != 1) throw std::runtime_error("a point comes with its output memory");
    SharedBuffer output =
        SharedBuffer::adopt(message.fds[0], request.at("output_bytes").get<std::size_t>(), true);
    message.fds.clear();
    if (family_named(request.at("family").get<std::string>()) == Family::cuda)
      points_[id] = std::make_unique<CudaPoint>(request, image_, std::move(output));
    else
      points_[id] = std::make_unique<CpuPoint>(request, image_, std::move(output));
    return json::object();
  }

  int channel_;
  std::shared_ptr<SharedImage> image_;
  std::map<int, std::unique_ptr<HostedPoint>> points_;
};

}  // namespace

int run_kernel_host(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "--channel") {
    const int channel = std::stoi(args[1]);
    keep_channel_host(channel, [channel] {
      make_forked_children_die_with_their_parent();
      return Server(channel).serve();
    });
  }
  if (args.size() == 4 && args[0] == "--describe" && args[2] == "--parent") {
    const std::string path = args[1];
    return keep_describing(static_cast<pid_t>(std::stol(args[3])),
                           [path] { return describe(path); });
  }
  std::cerr << "convlab kernel-host: runs users' kernels for convlab itself; not for direct use\n";
  return 2;
}

}  // namespace convlab

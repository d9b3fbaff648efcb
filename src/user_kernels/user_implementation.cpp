#include "user_kernels/user_implementation.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

#include "core/sha256.hpp"
#include "impl/cuda/device_calls.hpp"
#include "user_kernels/kernel_contract.hpp"
#include "user_kernels/kernel_host_channel.hpp"
#include "user_kernels/kernel_host_client.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

bool is_cuda(const UserKernelSource& source) {
  return source.language == KernelLanguage::cuda;
}

// The host an implementation's points share: one per implementation and source text, so that a
// process that runs an edited source again (watch) never loads it beside the old one.
std::string host_key(const UserKernelSource& source) {
  return source.implementation + " " + source.config_path + " " + source.sha256;
}

// The image the points of one problem read, as a sealed copy (kernel_host_channel.hpp): made once
// per image and sent to each host whose points read it. It cannot be changed, so every host may
// map the same copy.
std::shared_ptr<const SealedBuffer> sealed_copy(const Image& image) {
  static std::mutex mutex;
  static std::string key;
  static std::shared_ptr<const SealedBuffer> copy;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!copy || key != image.sha256) {
    copy.reset();
    copy =
        std::make_shared<SealedBuffer>(image.pixels.data(), image.value_count(), "convlab-image");
    key = image.sha256;
  }
  return copy;
}

// Sends the image to `host` unless it holds it already (sent under its current generation).
void send_image(KernelHost& host, const Image& image, double seconds, double limit) {
  struct Held {
    std::string key;
    int generation = 0;
  };
  static std::map<const KernelHost*, Held> held;
  Held& current = held[&host];
  if (current.key == image.sha256 && current.generation == host.generation() && host.running())
    return;
  const auto copy = sealed_copy(image);
  host.request({{"op", "image"},
                {"key", image.sha256},
                {"width", image.width},
                {"height", image.height},
                {"channels", image.channels}},
               {copy->fd()}, seconds, limit);
  current = {image.sha256, host.generation()};
}

// A point prepared in its implementation's kernel host. Its output is shared memory this process
// reads for verification; a host that ended (another point of the implementation crashed it) is
// started again and the point prepared there again before its next call. Every request waits at
// most what is left of the point's time limit.
class RemotePoint final : public PreparedPoint {
 public:
  RemotePoint(const std::string& host, Family family, json prepare, const Image& image,
              OutputType output, double limit_seconds)
      : family_(family),
        host_(kernel_host(host, family_)),
        prepare_(std::move(prepare)),
        image_(image),
        output_type_(output),
        values_(image.value_count()),
        output_(values_ * bytes_per_value(output), "convlab-output"),
        limit_(limit_seconds),
        start_(std::chrono::steady_clock::now()) {
    static std::atomic<int> next_id{1};
    id_ = next_id++;
    prepare_["id"] = id_;
    prepare_["output_bytes"] = output_.size();
    ensure_prepared();
  }

  ~RemotePoint() override {
    if (generation_ == host_.generation() && host_.running()) {
      try {
        host_.request({{"op", "release"}, {"id", id_}}, {}, 10.0, 10.0);
      } catch (const std::exception&) {
        // The host ended meanwhile: nothing is left to release.
      }
    }
  }

  std::optional<PhaseTimes> execute() override {
    ensure_prepared();
    const json answer = host_.request({{"op", "execute"}, {"id", id_}}, {}, seconds_left(), limit_);
    output_fetched_ = false;
    if (family_ == Family::cpu) {
      self_timed_ = answer.at("host_ms").get<double>();
      return std::nullopt;
    }
    return PhaseTimes{answer.at("h2d_ms").get<double>(), answer.at("kernel_ms").get<double>(),
                      answer.at("d2h_ms").get<double>()};
  }

  std::optional<double> self_timed_ms() const override { return self_timed_; }
  bool runs_in_kernel_host() const override { return true; }

  OutputView output() const override {
    if (family_ == Family::cuda && !output_fetched_) {
      host_.request({{"op", "output"}, {"id", id_}}, {}, seconds_left(), limit_);
      output_fetched_ = true;
    }
    return {output_type_, output_.data(), values_};
  }

 private:
  void ensure_prepared() {
    if (generation_ == host_.generation() && host_.running()) return;
    host_.admit_artifact(prepare_.at("artifact_sha256").get<std::string>());
    send_image(host_, image_, seconds_left(), limit_);
    host_.request(prepare_, {output_.fd()}, seconds_left(), limit_);
    generation_ = host_.generation();
  }

  double seconds_left() const {
    const double used =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return limit_ - used > 0.05 ? limit_ - used : 0.05;
  }

  Family family_;
  KernelHost& host_;
  json prepare_;
  const Image& image_;
  OutputType output_type_;
  std::size_t values_;
  SharedBuffer output_;
  double limit_;
  std::chrono::steady_clock::time_point start_;
  int id_ = 0;
  int generation_ = -1;
  std::optional<double> self_timed_;
  mutable bool output_fetched_ = false;
};

json prepare_request(const CompiledVariant& variant, const Problem& problem, const Params& params,
                     const RunContext& context, bool cuda) {
  const Filter& filter = problem.filter;
  json request{{"op", "prepare"},
               {"family", family_name(cuda ? Family::cuda : Family::cpu)},
               {"artifact", variant.artifact},
               {"artifact_sha256", variant.artifact_sha256},
               {"contract", to_json(variant.contract)},
               {"ksize", filter.size},
               {"weights", filter.weights},
               {"separable", filter.separable},
               {"border", static_cast<int>(problem.border)},
               {"output", problem.output == OutputType::u8 ? 0 : 1},
               {"threads", params.value("threads", 1)},
               {"device", context.cuda_device},
               {"l2_flush", context.l2_flush}};
  if (filter.separable) {
    request["column"] = filter.column;
    request["row"] = filter.row;
  }
  return request;
}

cuda::ProblemDesc device_problem(const Problem& problem) {
  cuda::ProblemDesc desc;
  desc.width = problem.input.width;
  desc.height = problem.input.height;
  desc.channels = problem.input.channels;
  desc.ksize = problem.filter.size;
  desc.separable = problem.filter.separable;
  desc.border = problem.border;
  desc.output = problem.output;
  return desc;
}

std::optional<std::string> unsupported_here(const UserKernelSource& source, const Problem& problem,
                                            const Params& params, const RunContext& context) {
  if (auto missing = compiler_unavailable(source.language)) return missing;
  if (is_cuda(source))
    if (auto reason = cuda::device_unavailable(context.cuda_device)) return reason;
  // Compiled before the run (run/kernel_compilation.hpp); a variant not compiled yet (a check
  // of the plan while the config is read) is not judged here: prepare compiles it.
  const auto variant =
      cached_variant(variant_request(source, problem, params, context.cuda_device));
  if (!variant) return std::nullopt;
  if (auto need = contract_unmet_need(variant->contract, problem)) return need->reason;
  if (is_cuda(source))
    return cuda::user_kernel_unsupported(launch_of(variant->contract), device_problem(problem),
                                         context.cuda_device);
  return std::nullopt;
}

SourceFacts facts_of(const UserKernelSource& source, const CompiledVariant& variant) {
  SourceFacts facts;
  facts.path = source.config_path;
  facts.sha256 = source.sha256;
  if (!source.includes.empty()) {
    for (const IncludedFile& included : source.includes)
      facts.includes.emplace_back(included.relative, included.file.sha256);
    facts.snapshot_sha256 = source.version;
  }
  facts.header_sha256 = sha256_hex(kernel_header_text());
  facts.language = std::string(to_string(source.language));
  facts.compiler = variant.compiler.name;
  facts.compiler_version = variant.compiler.version;
  facts.flags = variant.compiler.flags;
  facts.defines = variant.defines;
  facts.contract_version = variant.contract.version;
  return facts;
}

}  // namespace

int user_kernel_cuda_arch(int cuda_device) {
  static std::map<int, int> known;
  auto found = known.find(cuda_device);
  if (found != known.end()) return found->second;
  const int arch = cuda::compute_capability(cuda_device).value_or(90);
  known[cuda_device] = arch;
  return arch;
}

VariantRequest variant_request(const UserKernelSource& source, int ksize, int channels,
                               OutputType output, const Params& params, int cuda_device) {
  VariantRequest request;
  request.source = &source;
  request.params = params;
  request.shape = {ksize, channels, output};
  request.cuda_arch = is_cuda(source) ? user_kernel_cuda_arch(cuda_device) : 0;
  return request;
}

VariantRequest variant_request(const UserKernelSource& source, const Problem& problem,
                               const Params& params, int cuda_device) {
  return variant_request(source, problem.filter.size, problem.input.channels, problem.output,
                         params, cuda_device);
}

Implementation make_user_implementation(std::shared_ptr<const UserKernelSource> source,
                                        std::vector<AxisSpec> axes) {
  Implementation impl;
  impl.name = source->implementation;
  impl.family = is_cuda(*source) ? Family::cuda : Family::cpu;
  impl.thread_pool = is_cuda(*source) ? "" : kOpenMpThreadPool;
  impl.description = "your own kernel, " + source->config_path + " (" +
                     std::string(to_string(source->language)) + ", sha256 " +
                     source->version.substr(0, 12) + ")";
  impl.axes = std::move(axes);
  impl.source_path = source->config_path;
  impl.source_sha256 = source->version;
  impl.unsupported = [source](const Problem& problem, const Params& params,
                              const RunContext& context) {
    return unsupported_here(*source, problem, params, context);
  };
  impl.unmet_need = [source](const Problem& problem,
                             const Params& params) -> std::optional<UnmetNeed> {
    if (compiler_unavailable(source->language)) return std::nullopt;
    const auto variant = cached_variant(variant_request(*source, problem, params, 0));
    if (!variant) return std::nullopt;
    return contract_unmet_need(variant->contract, problem);
  };
  impl.prepare = [source](const Problem& problem, const Params& params,
                          const RunContext& context) -> std::unique_ptr<PreparedPoint> {
    VariantRequest request = variant_request(*source, problem, params, context.cuda_device);
    request.limits = context.compile_limits;
    const CompiledVariant variant = compile_variant(request);
    const bool cuda = is_cuda(*source);
    return std::make_unique<RemotePoint>(host_key(*source), cuda ? Family::cuda : Family::cpu,
                                         prepare_request(variant, problem, params, context, cuda),
                                         problem.input, problem.output,
                                         context.isolated_point_seconds);
  };
  impl.finished = [source] { end_kernel_host(host_key(*source)); };
  impl.source_facts = [source](const Problem& problem,
                               const Params& params) -> std::optional<SourceFacts> {
    const auto variant = cached_variant(variant_request(*source, problem, params, 0));
    if (!variant) return std::nullopt;
    return facts_of(*source, *variant);
  };
  return impl;
}

}  // namespace convlab

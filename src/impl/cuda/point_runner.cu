// The part every CUDA variant shares: per-image device buffers, pinned staging, the planar layout,
// the stream overlap, L2 flushing and the event timing of upload, kernel(s) and download.
//
// Buffers. A device keeps a few sets of device and pinned host buffers, each taken by one prepared
// point at a time whatever its image and implementation, and grown (never shrunk) to what is
// asked; a set remembers which image it staged in which layout. So a run whose points are
// prepared one after the other allocates its pinned memory once per device, not once per image and
// implementation (pinning gigabytes cost 1.4-2.1 s at each new image of the committed gpu_pair
// runs), and stages an image once per layout; interleaved timing, whose points of one problem hold
// their buffers together, takes a set per point. Allocation and staging happen in prepare, outside
// timing.
//
// Layout. interleaved: the device holds HWC and one launch covers all channels. planar: the host
// converts the image to CHW while staging it (prepare, untimed); each channel is then a one-channel
// image of its own (one launch per plane) and the result is converted back to HWC when the runner
// reads it (output(), untimed).
//
// Streams (planar only). Channel c gets stream c: its upload, kernel and download are queued there,
// so the upload of plane 1 overlaps the kernel of plane 0 and so on. The phases then overlap, and
// are reported as: h2d = start to the first kernel's start (the upload nothing hides), kernel = the
// sum of the per-plane kernel times, d2h = the rest of the wall time (at least 0). Their sum is the
// wall time of the overlapped sequence, which is what end-to-end timing should show.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "impl/cuda/buffers.cuh"
#include "impl/cuda/device_calls.hpp"
#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {
namespace {

// Buffers of one prepared point at a time.
struct ImageBuffers {
  DeviceBuffer input;    // u8, width * height * channels
  DeviceBuffer output;   // u8 or f32
  DeviceBuffer scratch;  // f32 intermediate, for the variants that ask
  PinnedBuffer host_output;
  // The image staged for upload, per layout (interleaved, planar), and which image it is.
  PinnedBuffer host_input[2];
  std::string staged_image[2];
};

struct FlushBuffer {
  DeviceBuffer buffer;
  int value = 0;
};

class BufferCache {
 public:
  // A set no live point holds, preferring one that staged `image_key`; a fresh one when every kept
  // set is held (kept when fewer than kKeptSets are).
  std::shared_ptr<ImageBuffers> acquire(int device, const std::string& image_key) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::shared_ptr<ImageBuffers>>& sets = sets_[device];
    std::shared_ptr<ImageBuffers> free;
    for (const auto& set : sets) {
      if (set.use_count() > 1) continue;
      const bool staged = set->staged_image[0] == image_key || set->staged_image[1] == image_key;
      if (!free || staged) free = set;
      if (staged) break;
    }
    if (free) return free;
    auto fresh = std::make_shared<ImageBuffers>();
    if (sets.size() < kKeptSets) sets.push_back(fresh);
    return fresh;
  }

  // A buffer larger than the L2, written between repetitions to evict the previous one's data.
  FlushBuffer& flush_buffer(int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return flush_[device];
  }

 private:
  // Sets kept per device: the rungs of one problem timed together (interleaved) reuse them.
  static constexpr std::size_t kKeptSets = 8;
  std::mutex mutex_;
  std::map<int, std::vector<std::shared_ptr<ImageBuffers>>> sets_;
  std::map<int, FlushBuffer> flush_;
};

BufferCache& buffer_cache() {
  static BufferCache* cache = new BufferCache();  // never destroyed: outlives the CUDA context
  return *cache;
}

class PointRun final : public DeviceRun {
 public:
  PointRun(const ProblemDesc& problem, const LaunchParams& params, int device, bool l2_flush,
           std::unique_ptr<KernelPlan> plan)
      : problem_(problem), params_(params), device_(device), plan_(std::move(plan)) {
    CONVLAB_CUDA_CHECK(cudaSetDevice(device_));
    const size_t values = static_cast<size_t>(problem.width) * problem.height * problem.channels;
    const size_t out_bytes = values * bytes_per_value(problem.output);
    buffers_ = buffer_cache().acquire(device_, problem.image_key);
    buffers_->input.reserve(values);
    buffers_->output.reserve(out_bytes);
    buffers_->host_output.reserve(out_bytes);
    if (plan_->needs_scratch()) buffers_->scratch.reserve(values * sizeof(float));
    stage_input();
    // Poison the output (0xFF: 255 for u8, NaN for f32) so a value the kernel never writes shows.
    CONVLAB_CUDA_CHECK(cudaMemset(buffers_->output.data(), 0xFF, out_bytes));

    if (l2_flush) {
      flush_ = &buffer_cache().flush_buffer(device_);
      flush_->buffer.reserve(std::max<size_t>(2 * device_limits(device_).l2_bytes, 1 << 20));
    }

    const bool overlap = params_.streams && params_.layout == Layout::planar;
    const int stream_count = overlap ? problem.channels : 1;
    for (int i = 0; i < stream_count; ++i) streams_.emplace_back();
    const int event_count = overlap ? 2 + 3 * problem.channels : 4;
    for (int i = 0; i < event_count; ++i) events_.emplace_back();
    CONVLAB_CUDA_CHECK(cudaDeviceSynchronize());
  }

  PhaseTimes execute() override {
    CONVLAB_CUDA_CHECK(cudaSetDevice(device_));
    const cudaStream_t first = streams_.front().get();
    if (flush_ != nullptr) {
      flush_->value ^= 0x5A;
      CONVLAB_CUDA_CHECK(
          cudaMemsetAsync(flush_->buffer.data(), flush_->value, flush_->buffer.bytes(), first));
    }
    plan_->before_timing(first);
    const PhaseTimes times = streams_.size() > 1 ? execute_overlapped() : execute_serial();
    output_converted_ = false;
    return times;
  }

  const void* output() const override {
    if (params_.layout == Layout::interleaved) return buffers_->host_output.data();
    if (!output_converted_) convert_output_to_interleaved();
    return interleaved_output_.data();
  }

 private:
  size_t plane_values() const { return static_cast<size_t>(problem_.width) * problem_.height; }
  size_t value_count() const { return plane_values() * problem_.channels; }
  size_t out_value_bytes() const { return bytes_per_value(problem_.output); }

  // The launches of one repetition: one for interleaved, one per plane for planar.
  DeviceImage plane_image(int plane) const {
    DeviceImage image;
    image.width = problem_.width;
    image.height = problem_.height;
    const size_t offset = params_.layout == Layout::planar ? plane * plane_values() : 0;
    image.channels = launch_channels(problem_, params_);
    image.in = buffers_->input.as<std::uint8_t>() + offset;
    image.out = buffers_->output.as<std::uint8_t>() + offset * out_value_bytes();
    image.scratch = plan_->needs_scratch() ? buffers_->scratch.as<float>() + offset : nullptr;
    return image;
  }

  PhaseTimes execute_serial() {
    const cudaStream_t stream = streams_.front().get();
    const size_t in_bytes = value_count();
    const size_t out_bytes = value_count() * out_value_bytes();
    events_[0].record(stream);
    CONVLAB_CUDA_CHECK(cudaMemcpyAsync(buffers_->input.data(), staged().data(), in_bytes,
                                       cudaMemcpyHostToDevice, stream));
    events_[1].record(stream);
    const int launches = params_.layout == Layout::planar ? problem_.channels : 1;
    for (int plane = 0; plane < launches; ++plane) plan_->launch(plane_image(plane), stream);
    events_[2].record(stream);
    CONVLAB_CUDA_CHECK(cudaMemcpyAsync(buffers_->host_output.data(), buffers_->output.data(),
                                       out_bytes, cudaMemcpyDeviceToHost, stream));
    events_[3].record(stream);
    CONVLAB_CUDA_CHECK(cudaEventSynchronize(events_[3].get()));
    return {elapsed_ms(events_[0], events_[1]), elapsed_ms(events_[1], events_[2]),
            elapsed_ms(events_[2], events_[3])};
  }

  // Planar with one stream per channel; events: start, end, then per plane kernel begin/end, done.
  PhaseTimes execute_overlapped() {
    const int planes = problem_.channels;
    Event& start = events_[0];
    Event& end = events_[1];
    auto kernel_begin = [&](int p) -> Event& { return events_[2 + 3 * p]; };
    auto kernel_end = [&](int p) -> Event& { return events_[3 + 3 * p]; };
    auto done = [&](int p) -> Event& { return events_[4 + 3 * p]; };

    const cudaStream_t first = streams_.front().get();
    start.record(first);
    for (int p = 1; p < planes; ++p)
      CONVLAB_CUDA_CHECK(cudaStreamWaitEvent(streams_[p].get(), start.get(), 0));
    const size_t plane_bytes = plane_values();
    const size_t plane_out_bytes = plane_values() * out_value_bytes();
    for (int p = 0; p < planes; ++p) {
      const cudaStream_t stream = streams_[p].get();
      CONVLAB_CUDA_CHECK(cudaMemcpyAsync(buffers_->input.as<std::uint8_t>() + p * plane_bytes,
                                         staged().as<std::uint8_t>() + p * plane_bytes, plane_bytes,
                                         cudaMemcpyHostToDevice, stream));
      kernel_begin(p).record(stream);
      plan_->launch(plane_image(p), stream);
      kernel_end(p).record(stream);
      CONVLAB_CUDA_CHECK(
          cudaMemcpyAsync(buffers_->host_output.as<std::uint8_t>() + p * plane_out_bytes,
                          buffers_->output.as<std::uint8_t>() + p * plane_out_bytes,
                          plane_out_bytes, cudaMemcpyDeviceToHost, stream));
      done(p).record(stream);
    }
    for (int p = 1; p < planes; ++p)
      CONVLAB_CUDA_CHECK(cudaStreamWaitEvent(first, done(p).get(), 0));
    end.record(first);
    CONVLAB_CUDA_CHECK(cudaEventSynchronize(end.get()));

    PhaseTimes times;
    double first_kernel_start = elapsed_ms(start, kernel_begin(0));
    for (int p = 0; p < planes; ++p) {
      first_kernel_start = std::min(first_kernel_start, elapsed_ms(start, kernel_begin(p)));
      times.kernel_ms += elapsed_ms(kernel_begin(p), kernel_end(p));
    }
    const double wall = elapsed_ms(start, end);
    times.h2d_ms = first_kernel_start;
    times.d2h_ms = std::max(0.0, wall - times.h2d_ms - times.kernel_ms);
    return times;
  }

  // The pinned copy of the image in the layout the device uses.
  int layout_slot() const { return params_.layout == Layout::interleaved ? 0 : 1; }
  PinnedBuffer& staged() const { return buffers_->host_input[layout_slot()]; }

  // Copies the image into pinned memory in the layout the device uses (untimed), unless the set
  // holds it already.
  void stage_input() {
    ImageBuffers& b = *buffers_;
    std::string& staged_image = b.staged_image[layout_slot()];
    if (staged_image == problem_.image_key) return;
    staged_image.clear();  // until it is copied: a failed allocation leaves nothing staged
    PinnedBuffer& host_input = staged();
    host_input.reserve(value_count());
    std::uint8_t* dst = host_input.as<std::uint8_t>();
    if (params_.layout == Layout::interleaved || problem_.channels == 1) {
      std::memcpy(dst, problem_.pixels, value_count());
    } else {
      const size_t n = plane_values();
      const int c_count = problem_.channels;
      for (size_t i = 0; i < n; ++i)
        for (int c = 0; c < c_count; ++c) dst[c * n + i] = problem_.pixels[i * c_count + c];
    }
    staged_image = problem_.image_key;
  }

  void convert_output_to_interleaved() const {
    const size_t n = plane_values();
    const int c_count = problem_.channels;
    const size_t value_bytes = out_value_bytes();
    interleaved_output_.resize(value_count() * value_bytes);
    const std::uint8_t* src = buffers_->host_output.as<std::uint8_t>();
    std::uint8_t* dst = interleaved_output_.data();
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < c_count; ++c)
        std::memcpy(dst + (i * c_count + c) * value_bytes, src + (c * n + i) * value_bytes,
                    value_bytes);
    output_converted_ = true;
  }

  ProblemDesc problem_;
  LaunchParams params_;
  int device_;
  std::unique_ptr<KernelPlan> plan_;
  std::shared_ptr<ImageBuffers> buffers_;
  FlushBuffer* flush_ = nullptr;
  std::vector<Stream> streams_;
  std::vector<Event> events_;
  mutable std::vector<std::uint8_t> interleaved_output_;
  mutable bool output_converted_ = false;
};

}  // namespace

bool built() {
  return true;
}

std::optional<std::string> block_unsupported(const BlockLaunch& launch, int device) {
  const long long threads = static_cast<long long>(launch.block_x) * launch.block_y;
  const int limit = device_limits(device).max_threads_per_block;
  if (threads > limit)
    return "block " + std::to_string(launch.block_x) + "x" + std::to_string(launch.block_y) +
           " = " + std::to_string(threads) + " threads exceeds the device's " +
           std::to_string(limit) + " threads per block";
  return std::nullopt;
}

std::string tile_description(int tile, int ksize, int channels) {
  return "tile " + std::to_string(tile) + " with K=" + std::to_string(ksize) + " and " +
         std::to_string(channels) + " channel(s) per launch";
}

std::optional<std::string> constant_weights_unsupported(int ksize, int capacity) {
  const long long needed = static_cast<long long>(ksize) * ksize;
  if (needed <= capacity) return std::nullopt;
  return "kernel " + std::to_string(ksize) + "x" + std::to_string(ksize) + " needs " +
         std::to_string(needed * 4) + " bytes of coefficients, more than the " +
         std::to_string(capacity * 4) + " bytes of __constant__ memory reserved for them";
}

std::optional<std::string> shared_bytes_unsupported(size_t bytes, int device,
                                                    const std::string& what) {
  const size_t limit = device_limits(device).shared_per_block_optin;
  if (bytes <= limit) return std::nullopt;
  return what + " needs " + std::to_string(bytes) +
         " bytes of shared memory, more than the device's " + std::to_string(limit) + " per block";
}

std::optional<std::string> threads_unsupported(long long threads, int max_threads,
                                               const std::string& per_plane, int channels) {
  if (threads <= max_threads) return std::nullopt;
  return per_plane + " x " + std::to_string(channels) + " channel(s) = " + std::to_string(threads) +
         " threads exceeds the device's " + std::to_string(max_threads) + " threads per block";
}

std::optional<std::string> mma_unsupported(int device) {
  int major = 0;
  CONVLAB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major >= 8) return std::nullopt;
  return "the FP16 mma.sync m16n8k16 instruction needs compute capability 8.0 or newer, the "
         "device has " +
         std::to_string(major) + ".x";
}

std::optional<std::string> segments_unsupported(int height, int rows) {
  const long long segments = (height + rows - 1) / rows;
  if (segments <= 65535) return std::nullopt;
  return "the image's " + std::to_string(height) + " rows in segments of " + std::to_string(rows) +
         " need " + std::to_string(segments) + " blocks in y, more than CUDA's 65535";
}

namespace {

// The device side of each row of rungs.hpp, in Variant order.
struct DeviceRung {
  std::optional<std::string> (*unsupported)(const ProblemDesc&, const LaunchParams&, int device);
  std::unique_ptr<KernelPlan> (*make_plan)(const ProblemDesc&, const LaunchParams&, int device);
};

#define CONVLAB_CUDA_DEVICE_RUNG(stem, ...) {stem##_unsupported, make_##stem##_plan},
const DeviceRung kDeviceRungs[] = {CONVLAB_CUDA_RUNGS(CONVLAB_CUDA_DEVICE_RUNG)};
#undef CONVLAB_CUDA_DEVICE_RUNG

const DeviceRung& device_rung(Variant variant) {
  return kDeviceRungs[static_cast<int>(variant)];
}

}  // namespace

std::optional<std::string> variant_unsupported(Variant variant, const ProblemDesc& problem,
                                               const LaunchParams& params, int device) {
  return device_rung(variant).unsupported(problem, params, device);
}

std::unique_ptr<DeviceRun> prepare(Variant variant, const ProblemDesc& problem,
                                   const LaunchParams& params, int device, bool l2_flush) {
  CONVLAB_CUDA_CHECK(cudaSetDevice(device));
  std::unique_ptr<KernelPlan> plan = device_rung(variant).make_plan(problem, params, device);
  return std::make_unique<PointRun>(problem, params, device, l2_flush, std::move(plan));
}

std::unique_ptr<DeviceRun> prepare_with_plan(std::unique_ptr<KernelPlan> plan,
                                             const ProblemDesc& problem, int device,
                                             bool l2_flush) {
  return std::make_unique<PointRun>(problem, LaunchParams{}, device, l2_flush, std::move(plan));
}

}  // namespace convlab::cuda

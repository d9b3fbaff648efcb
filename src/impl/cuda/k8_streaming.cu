// Rung 8, cuda_streaming: each warp walks down a vertical strip of the image on its own, with the
// filter window in registers (the kernel: streaming_kernel.cuh).
//
// What changes relative to the previous rungs, and why it is faster. Rungs 5-7 (register-blocked,
// fused separable, tensor cores) stage every footprint in shared memory as planar float or half:
// one shared byte load and one store per value, a run-time border switch in every row loop, and
// __syncthreads between the phases. At small K that staging, not DRAM, sets the pace (Nsight
// Compute: 11-12 % of DRAM throughput, 68-74 % of the issue slots busy at K = 3), and FRND + F2I
// per output value alone cost about half of the memory floor. Here:
// - A lane fetches 16 interleaved bytes of a row with one 16-byte copy (cp.async into its own
//   slot of a per-warp ring in shared memory, 7 rows ahead) and converts each byte once (a byte
//   permute and an add, or one byte permute for integers); the horizontal halo comes from the
//   neighbouring lanes by shuffles. Only the lane that copied a slot reads it: no __syncthreads.
// - The vertical window is a set of rolling accumulators in registers: each input row is added
//   into the K output rows it belongs to and the finished row leaves as 16-byte stores, so each
//   input byte is read from DRAM once and each output value written once.
// - Borders: warps whose strip lies inside the rows never map a column; the vertical mapping is
//   one scalar test per row and warp. Edge warps take a separate, warp-uniform path.
// - Rounding to u8 is one round-down add and two integer min/max on the bits (no FRND/F2I).
//   Dyadic kernels (every weight an integer over a power of two: OpenCV's default Gaussians,
//   Sobel, Prewitt, Laplacian) give u8 results bit-identical to the correctly rounded reference:
//   summed in pairs of 16-bit integers where the factors are non-negative and the sums fit (the
//   Gaussians K = 3 and 5: fewer instructions than FP32), in 32-bit integers for the signed 3x3
//   kernels, and in FP32 otherwise, where their partial sums are exact as well.
// - Rank-1 kernels: row pass in registers from the shuffled window, column pass into the rolling
//   accumulators: 2K multiply-adds per value with no intermediate in memory.
//
// Measured (H200, RGB 8192x8192 Gaussian, docs/cuda.md): 0.150 ms at K = 3, where rungs 1-7 take
// 0.50-0.56 ms and NPP 0.347 ms.
//
// Limits (each a skip with its reason): rank-1 kernels up to K = 11, others up to K = 7 (the K
// rolling accumulators per value must stay in registers). Axes: `rows` (output rows one warp walks
// down: fewer rows mean more warps and a larger share of the 2r-row prologue), `warps` (warps per
// block, each its own strip), layout, streams.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <vector>

#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/streaming_kernel.cuh"

namespace convlab::cuda {

// Instantiated in k8_streaming_k*.cu, one translation unit per group of kernel sizes.
namespace streaming {
#define CONVLAB_STREAMING_SIZE(K) \
  extern template void launch_streaming<K>(const StreamLaunch&, cudaStream_t);
CONVLAB_STREAMING_SIZE(1)
CONVLAB_STREAMING_SIZE(3)
CONVLAB_STREAMING_SIZE(5)
CONVLAB_STREAMING_SIZE(7)
CONVLAB_STREAMING_SIZE(9)
CONVLAB_STREAMING_SIZE(11)
#undef CONVLAB_STREAMING_SIZE
}  // namespace streaming

namespace {

using streaming::kMaxDirectK;
using streaming::kMaxSeparableK;
using streaming::kMaxTaps;

// Integer weights of a dyadic kernel: every weight w = n / 2^shift exactly.
constexpr int kMaxShift = 24;

// The smallest shift with every value * 2^shift an integer (exactly, in double), or nullopt.
std::optional<int> dyadic_shift(const std::vector<double>& values) {
  for (int shift = 0; shift <= kMaxShift; ++shift) {
    bool integral = true;
    for (double v : values) {
      const double scaled = std::ldexp(v, shift);
      if (scaled != std::floor(scaled) || std::fabs(scaled) > 1e9) {
        integral = false;
        break;
      }
    }
    if (integral) return shift;
  }
  return std::nullopt;
}

std::vector<int> scaled_integers(const std::vector<double>& values, int shift) {
  std::vector<int> out;
  for (double v : values) out.push_back(static_cast<int>(std::ldexp(v, shift)));
  return out;
}

double abs_sum(const std::vector<int>& values) {
  double sum = 0.0;
  for (int v : values) sum += std::fabs(static_cast<double>(v));
  return sum;
}

// The sums of u8 values (at most 255) with these integer weights, plus the rounding bias, fit a
// signed 32-bit integer.
bool fits_int32(double weight_abs_sum, int shift) {
  return 255.0 * weight_abs_sum + std::ldexp(1.0, shift) < 2147483647.0;
}

// How a point is computed: separable or direct, which arithmetic, and the weights in the layout of
// streaming::Taps.
struct Arithmetic {
  bool separable = false;
  streaming::StreamArithmetic kind = streaming::StreamArithmetic::fp32;
  int shift = 0;
  std::vector<float> float_taps = std::vector<float>(kMaxTaps, 0.0f);
  std::vector<int> int_taps = std::vector<int>(kMaxTaps, 0);
};

bool rank1(const ProblemDesc& p) {
  return p.ksize == 1 || (p.separable && p.row != nullptr && p.column != nullptr);
}

// Integer factors of a dyadic rank-1 kernel: weights[i][j] = column[i] * row[j] / 2^shift.
struct IntFactors {
  std::vector<int> row, column;
  int shift;
};

// The weights scaled to integers by their common shift factor into integer vectors: the pivot's
// column divided by the greatest common divisor of its entries, and the pivot's row divided by
// that column's entry there; they must multiply back to the matrix exactly. (Dividing by the pivot
// itself, as a factorisation over the reals does, leaves thirds and sixths wherever the centre
// weight is no power of two: OpenCV's 5x5 Gaussian, whose centre is 36/256, then missed the
// 16-bit path its sums fit.)
std::optional<IntFactors> dyadic_factors(const ProblemDesc& p) {
  const int k = p.ksize;
  const std::vector<double> weights(p.weights, p.weights + k * k);
  const auto shift = dyadic_shift(weights);
  if (!shift) return std::nullopt;
  const std::vector<int> m = scaled_integers(weights, *shift);
  int pivot = 0;
  for (int i = 0; i < k * k; ++i)
    if (std::abs(m[i]) > std::abs(m[pivot])) pivot = i;
  if (m[pivot] == 0) return std::nullopt;
  const int pivot_row = pivot / k, pivot_column = pivot % k;
  int divisor = 0;
  for (int i = 0; i < k; ++i) divisor = std::gcd(divisor, std::abs(m[i * k + pivot_column]));
  IntFactors f{{}, {}, *shift};
  for (int i = 0; i < k; ++i) f.column.push_back(m[i * k + pivot_column] / divisor);
  const int at_pivot = f.column[pivot_row];
  for (int j = 0; j < k; ++j) {
    if (m[pivot_row * k + j] % at_pivot != 0) return std::nullopt;
    f.row.push_back(m[pivot_row * k + j] / at_pivot);
  }
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (static_cast<long long>(f.column[i]) * f.row[j] != m[i * k + j]) return std::nullopt;
  return f;
}

bool non_negative(const std::vector<int>& values) {
  for (int v : values)
    if (v < 0) return false;
  return true;
}

// 16-bit pairs: non-negative factors, total shift at most 8 (the row factor is scaled up to
// exactly 8), column sums and the scaled full sums plus the rounding bias below 2^16.
std::optional<Arithmetic> paired_arithmetic(const IntFactors& f, int k) {
  if (k > streaming::kMaxPairsK || f.shift > 8 || !non_negative(f.row) || !non_negative(f.column))
    return std::nullopt;
  const double column_sum = abs_sum(f.column);
  const double row_sum = abs_sum(f.row) * std::ldexp(1.0, 8 - f.shift);
  if (255.0 * column_sum >= 65536.0 || 255.0 * column_sum * row_sum + 128.0 >= 65536.0)
    return std::nullopt;
  Arithmetic a;
  a.separable = true;
  a.kind = streaming::StreamArithmetic::int16_pairs;
  a.shift = 8;
  for (int j = 0; j < k; ++j) a.int_taps[j] = f.row[j] << (8 - f.shift);
  for (int i = 0; i < k; ++i) a.int_taps[k + i] = f.column[i];
  return a;
}

// 32-bit integers, for the small kernels with signed weights (Sobel, Prewitt, Laplacian): rank 1
// as two passes, otherwise direct.
std::optional<Arithmetic> int32_arithmetic(const ProblemDesc& p,
                                           const std::optional<IntFactors>& f) {
  const int k = p.ksize;
  if (k > streaming::kMaxInt32K) return std::nullopt;
  Arithmetic a;
  a.kind = streaming::StreamArithmetic::int32;
  if (f && rank1(p)) {
    if (!fits_int32(abs_sum(f->row), 0) ||
        !fits_int32(abs_sum(f->row) * abs_sum(f->column), f->shift))
      return std::nullopt;
    a.separable = true;
    a.shift = f->shift;
    for (int j = 0; j < k; ++j) a.int_taps[j] = f->row[j];
    for (int i = 0; i < k; ++i) a.int_taps[k + i] = f->column[i];
    return a;
  }
  const std::vector<double> weights(p.weights, p.weights + k * k);
  const auto shift = dyadic_shift(weights);
  if (!shift) return std::nullopt;
  const std::vector<int> ints = scaled_integers(weights, *shift);
  if (!fits_int32(abs_sum(ints), *shift)) return std::nullopt;
  a.shift = *shift;
  for (int i = 0; i < k * k; ++i) a.int_taps[i] = ints[i];
  return a;
}

// u8 results of dyadic kernels are summed in integers where that is the faster path (16-bit pairs)
// or the kernel is small (32-bit); every other point in FP32, which is exact too for the dyadic
// kernels whose scaled sums stay below 2^24 (the larger OpenCV Gaussians, Sobel of size 5 to 11).
Arithmetic choose_arithmetic(const ProblemDesc& p) {
  if (p.output == OutputType::u8) {
    const auto factors = rank1(p) ? dyadic_factors(p) : std::nullopt;
    if (factors)
      if (auto a = paired_arithmetic(*factors, p.ksize)) return *a;
    if (auto a = int32_arithmetic(p, factors)) return *a;
  }
  Arithmetic a;
  if (rank1(p)) {
    a.separable = true;
    for (int j = 0; j < p.ksize; ++j) {
      a.float_taps[j] = p.ksize == 1 ? p.weights[0] : p.row[j];
      a.float_taps[p.ksize + j] = p.ksize == 1 ? 1.0f : p.column[j];
    }
    return a;
  }
  for (int i = 0; i < p.ksize * p.ksize && i < kMaxTaps; ++i) a.float_taps[i] = p.weights[i];
  return a;
}

// The rung's axes: output rows one warp walks down, warps per block.
struct StreamingLaunch {
  explicit StreamingLaunch(const LaunchParams& params)
      : rows(params.integer("rows")), warps(params.integer("warps")) {}
  int rows, warps;
};

class StreamingPlan final : public KernelPlan {
 public:
  StreamingPlan(const ProblemDesc& problem, const LaunchParams& params)
      : problem_(problem), params_(params), arithmetic_(choose_arithmetic(problem)) {}

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    streaming::StreamLaunch l;
    l.in = image.in;
    l.out = image.out;
    l.width = image.width;
    l.height = image.height;
    l.channels = image.channels;
    l.rows = params_.rows;
    l.warps = params_.warps;
    l.border = problem_.border;
    l.separable = arithmetic_.separable;
    l.arithmetic = arithmetic_.kind;
    l.f32_out = problem_.output == OutputType::f32;
    l.shift = arithmetic_.shift;
    l.float_taps = arithmetic_.float_taps.data();
    l.int_taps = arithmetic_.int_taps.data();
    switch (problem_.ksize) {
      case 1:
        streaming::launch_streaming<1>(l, stream);
        break;
      case 3:
        streaming::launch_streaming<3>(l, stream);
        break;
      case 5:
        streaming::launch_streaming<5>(l, stream);
        break;
      case 7:
        streaming::launch_streaming<7>(l, stream);
        break;
      case 9:
        streaming::launch_streaming<9>(l, stream);
        break;
      case 11:
        streaming::launch_streaming<11>(l, stream);
        break;
      default:
        throw std::runtime_error("cuda_streaming: K = " + std::to_string(problem_.ksize) +
                                 " is not compiled");
    }
  }

 private:
  ProblemDesc problem_;
  StreamingLaunch params_;
  Arithmetic arithmetic_;
};

}  // namespace

std::optional<std::string> streaming_unsupported(const ProblemDesc& problem,
                                                 const LaunchParams& params, int) {
  const StreamingLaunch launch(params);
  const int k = problem.ksize;
  if (rank1(problem)) {
    if (k > kMaxSeparableK)
      return "rank-1 kernel of size " + std::to_string(k) +
             ": cuda_streaming keeps K rolling "
             "accumulators per value in registers and is compiled up to K = " +
             std::to_string(kMaxSeparableK) + " (cuda_tensor_separable takes larger ones)";
  } else if (k > kMaxDirectK) {
    return "kernel " + std::to_string(k) + "x" + std::to_string(k) +
           " is not separable: cuda_streaming's direct path keeps K x 16 "
           "rolling accumulators per lane in registers and is compiled up to K = " +
           std::to_string(kMaxDirectK);
  }
  if (launch.warps < 1 || launch.warps > streaming::kMaxWarps)
    return "warps " + std::to_string(launch.warps) + " must be 1 to " +
           std::to_string(streaming::kMaxWarps);
  if (launch.rows < 1) return std::string("rows must be positive");
  return segments_unsupported(problem.height, launch.rows);
}

std::unique_ptr<KernelPlan> make_streaming_plan(const ProblemDesc& problem,
                                                const LaunchParams& params, int) {
  return std::make_unique<StreamingPlan>(problem, params);
}

}  // namespace convlab::cuda

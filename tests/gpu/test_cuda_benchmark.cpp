// Benchmark driver, not a unit test: runs only with CONVLAB_GPU_BENCH=1 and asserts nothing about
// speed. RGB 8192x8192 noise, Gaussian K = 3, 5, 7, 9, 11, 15, 21 (kernel library; another type
// with CONVLAB_GPU_BENCH_TYPE), replicate
// border, u8 output; prints the median of 20 event-timed kernel times (after 3 warm-ups) per
// implementation and parameter set, with the median upload and download, and checks every output
// against cuda_global
// (|diff| <= 1). CONVLAB_GPU_BENCH_FLUSH=1 flushes the L2 between repetitions.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "filters/filter_library.hpp"
#include "gpu_test_support.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value == nullptr ? fallback : std::string(value);
}

std::vector<int> sizes_from(const std::string& list) {
  std::vector<int> sizes;
  size_t start = 0;
  while (start < list.size()) {
    const size_t comma = list.find(',', start);
    sizes.push_back(std::stoi(list.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

TEST(CudaBenchmark, Gaussian8192) {
  const char* env = std::getenv("CONVLAB_GPU_BENCH");
  if (env == nullptr || std::string(env) != "1") GTEST_SKIP() << "set CONVLAB_GPU_BENCH=1 to run";
  CONVLAB_SKIP_WITHOUT_GPU();
  const char* flush_env = std::getenv("CONVLAB_GPU_BENCH_FLUSH");
  RunContext context;
  context.l2_flush = flush_env != nullptr && std::string(flush_env) == "1";

  std::mt19937 rng(42);
  const Image image = gpu_test::random_image(8192, 8192, 3, rng);
  const auto implementations = make_cuda_implementations();
  using nlohmann::json;
  std::vector<std::pair<std::string, json>> runs = {
      {"cuda_global", {{"block", {32, 8}}}},
      {"cuda_constant", {{"block", {32, 8}}}},
      {"cuda_shared", {{"tile", 32}, {"block", {32, 8}}}},
      {"cuda_separable", {{"tile", 32}, {"block", {32, 8}}}},
      {"cuda_separable",
       {{"tile", 32}, {"block", {32, 8}}, {"layout", "planar"}, {"streams", true}}},
      {"cuda_regblock", {{"per_thread", {8, 2}}, {"block", {16, 8}}}},
      {"cuda_regblock", {{"per_thread", {8, 4}}, {"block", {16, 8}}}},
      {"cuda_regblock", {{"per_thread", {8, 2}}, {"block", {32, 8}}}},
      {"cuda_regblock", {{"per_thread", {8, 4}}, {"block", {8, 8}}}},
      {"cuda_regblock", {{"per_thread", {4, 4}}, {"block", {32, 4}}}},
      {"cuda_fused",
       {{"strip", {64, 256}}, {"chunk", 32}, {"rows_per_thread", 8}, {"threads", 256}}},
      {"cuda_fused",
       {{"strip", {128, 256}}, {"chunk", 16}, {"rows_per_thread", 8}, {"threads", 256}}},
      {"cuda_fused",
       {{"strip", {128, 512}}, {"chunk", 32}, {"rows_per_thread", 8}, {"threads", 384}}},
      {"cuda_fused",
       {{"strip", {64, 128}}, {"chunk", 16}, {"rows_per_thread", 4}, {"threads", 128}}},
      {"cuda_tensor", {{"n_tiles", 8}, {"warp_rows", 2}, {"weights", "fp16"}}},
      {"cuda_tensor", {{"n_tiles", 8}, {"warp_rows", 4}, {"weights", "fp16"}}},
      {"cuda_tensor", {{"n_tiles", 8}, {"warp_rows", 1}, {"weights", "fp16"}}},
      {"cuda_tensor", {{"n_tiles", 8}, {"warp_rows", 4}, {"weights", "fp16x2"}}},
      {"cuda_streaming", {{"rows", 16}, {"warps", 4}}},
      {"cuda_streaming", {{"rows", 32}, {"warps", 4}}},
      {"cuda_streaming", {{"rows", 64}, {"warps", 4}}},
      {"cuda_streaming", {{"rows", 16}, {"warps", 8}}},
      {"cuda_streaming", {{"rows", 32}, {"warps", 8}}},
      {"cuda_tensor_separable", {{"n_tiles", 4}, {"rows", 256}}},
      {"cuda_tensor_separable", {{"n_tiles", 4}, {"rows", 512}}},
      {"cuda_tensor_separable", {{"n_tiles", 2}, {"rows", 512}}},
      {"npp", json::object()},
  };

  std::printf("\n%-21s %-58s %3s %10s %9s %9s %9s\n", "implementation", "params", "K", "kernel_ms",
              "h2d_ms", "d2h_ms", "max_diff");
  // CONVLAB_GPU_BENCH_IMPLS (comma-separated names) and CONVLAB_GPU_BENCH_KS (comma-separated
  // sizes) narrow the runs, e.g. for a profiler; CONVLAB_GPU_BENCH_PARAMS (a JSON object) replaces
  // the parameter sets of each named implementation by that one.
  const std::string only = env_or("CONVLAB_GPU_BENCH_IMPLS", "");
  const std::string only_params = env_or("CONVLAB_GPU_BENCH_PARAMS", "");
  if (!only.empty() && !only_params.empty()) {
    runs.clear();
    size_t start = 0;
    while (start <= only.size()) {
      const size_t comma = std::min(only.find(',', start), only.size());
      runs.push_back({only.substr(start, comma - start), json::parse(only_params)});
      start = comma + 1;
    }
  }
  const std::vector<int> ks = sizes_from(env_or("CONVLAB_GPU_BENCH_KS", "3,5,7,9,11,15,21"));
  // CONVLAB_GPU_BENCH_TYPE: the kernel library's type (gaussian unless set, e.g. log).
  const std::string type = env_or("CONVLAB_GPU_BENCH_TYPE", "gaussian");
  for (int k : ks) {
    FilterRequest request;
    request.type = type;
    request.size = k;
    const Filter filter = make_filter(request);
    const Problem problem{image, filter, Border::replicate, OutputType::u8};
    std::vector<std::uint8_t> baseline;
    for (const auto& [name, params] : runs) {
      if (!only.empty() && ("," + only + ",").find("," + name + ",") == std::string::npos) continue;
      const Implementation& impl = gpu_test::cuda_implementation(implementations, name);
      if (auto reason = impl.unsupported(problem, params, context)) {
        std::printf("%-21s %-58s %3d skipped: %s\n", name.c_str(), params.dump().c_str(), k,
                    reason->c_str());
        continue;
      }
      auto point = impl.prepare(problem, params, context);
      std::vector<double> kernel, h2d, d2h;
      for (int rep = 0; rep < 23; ++rep) {
        const auto phases = point->execute();
        if (rep < 3) continue;
        kernel.push_back(phases->kernel_ms);
        h2d.push_back(phases->h2d_ms);
        d2h.push_back(phases->d2h_ms);
      }
      const OutputView out = point->output();
      int max_diff = 0;
      if (baseline.empty()) {
        baseline.assign(out.u8(), out.u8() + out.count);
      } else {
        for (size_t i = 0; i < out.count; ++i)
          max_diff = std::max(max_diff, std::abs(int{out.u8()[i]} - int{baseline[i]}));
      }
      EXPECT_LE(max_diff, 2) << name << " " << params.dump() << " K=" << k;
      std::printf("%-21s %-58s %3d %10.3f %9.3f %9.3f %9d\n", name.c_str(), params.dump().c_str(),
                  k, median(kernel), median(h2d), median(d2h), max_diff);
      std::fflush(stdout);
    }
  }
}

}  // namespace
}  // namespace convlab

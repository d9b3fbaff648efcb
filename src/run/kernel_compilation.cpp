#include "run/kernel_compilation.hpp"

#include <thread>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "plan/kernel_variants.hpp"

namespace convlab {

void compile_users_kernels(const Config& config, const std::vector<Point>& plan, int cuda_device,
                           std::ostream* log) {
  const std::vector<VariantRequest> variants = kernel_variants(config, plan, cuda_device);
  if (variants.empty()) return;
  const CompileSummary summary =
      compile_variants(variants, std::max(1u, std::thread::hardware_concurrency()));
  if (!summary.errors.empty()) {
    std::string message = std::to_string(summary.errors.size()) + " of " +
                          count_words(variants.size(), "variant") +
                          " of your kernels did not compile; nothing was run:";
    throw KernelsDoNotCompile(message + "\n" + compile_errors_text(summary.errors));
  }
  if (log == nullptr) return;
  if (summary.compiled + summary.cached > 0) *log << "convlab: your kernels: ";
  if (summary.compiled == 0 && summary.cached == 0) {
    // Nothing could be compiled here (no NVRTC): only the note below.
  } else if (summary.compiled == 0)
    *log << (summary.cached == 1 ? "its 1 variant"
                                 : "all " + count_words(summary.cached, "variant"))
         << " found in the kernel cache, nothing compiled\n";
  else
    *log << count_words(summary.compiled, "variant") << " compiled in "
         << format_number(summary.seconds) << " s"
         << (summary.cached ? ", " + std::to_string(summary.cached) + " from the kernel cache" : "")
         << "\n";
  if (!summary.unavailable.empty())
    *log << "convlab: " << count_words(summary.unavailable.size(), "variant")
         << " of your kernels not compiled, their points will be skipped: "
         << summary.unavailable.front() << "\n";
}

}  // namespace convlab

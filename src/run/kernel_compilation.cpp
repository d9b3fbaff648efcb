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

CompilesAhead::CompilesAhead(unsigned parallel) {
  for (unsigned w = 0; w < std::max(1u, parallel); ++w) workers_.emplace_back([this] { work(); });
}

CompilesAhead::~CompilesAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    queue_.clear();  // not started: never waited for
  }
  changed_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void CompilesAhead::start(const std::string& key, VariantRequest request) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (outcomes_.count(key)) return;  // started already
    outcomes_[key] = std::nullopt;
    queue_.emplace_back(key, std::move(request));
    ++started_;
  }
  changed_.notify_all();
}

CompileOutcome CompilesAhead::wait(const std::string& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !outcomes_.count(key) || outcomes_[key].has_value(); });
  const auto found = outcomes_.find(key);
  if (found == outcomes_.end()) return {};
  const CompileOutcome outcome = *found->second;
  outcomes_.erase(found);
  return outcome;
}

void CompilesAhead::work() {
  while (true) {
    std::pair<std::string, VariantRequest> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    CompileOutcome outcome;
    if (!compiler_unavailable(job.second.source->language)) {
      try {
        const CompiledVariant variant = compile_variant(job.second);
        outcome.compiled = !variant.cached;
        outcome.seconds = variant.seconds;
      } catch (const KernelCompileError& error) {
        outcome.error = error.what();
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      outcomes_[job.first] = outcome;
    }
    changed_.notify_all();
  }
}

}  // namespace convlab

#include "run/kernel_compilation.hpp"

#include <set>
#include <thread>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "plan/kernel_variants.hpp"

namespace convlab {

namespace {

KernelsDoNotCompile not_compiling(const CompileSummary& summary, std::size_t variants) {
  const std::string message = std::to_string(summary.errors.size()) + " of " +
                              count_words(variants, "variant") +
                              " of your kernels did not compile; nothing was run:";
  return KernelsDoNotCompile(message + "\n" + compile_errors_text(summary.errors));
}

}  // namespace

void say_compiled(const CompileSummary& summary, std::ostream* log, const std::string& waited) {
  if (log == nullptr) return;
  if (summary.compiled + summary.cached > 0) *log << "convlab: your kernels: ";
  if (summary.compiled == 0 && summary.cached == 0) {
    // Nothing could be compiled here (no NVRTC): only the note below.
  } else if (summary.compiled == 0)
    *log << (summary.cached == 1 ? "its 1 variant"
                                 : "all " + count_words(summary.cached, "variant"))
         << " found in the kernel cache, nothing compiled" << waited << "\n";
  else
    *log << count_words(summary.compiled, "variant") << " compiled in "
         << format_number(summary.seconds) << " s"
         << (summary.cached ? ", " + std::to_string(summary.cached) + " from the kernel cache" : "")
         << waited << "\n";
  if (!summary.unavailable.empty())
    *log << "convlab: " << count_words(summary.unavailable.size(), "variant")
         << " of your kernels not compiled, their points will be skipped: "
         << summary.unavailable.front() << "\n";
}

void compile_users_kernels(const Config& config, const std::vector<Point>& plan, int cuda_device,
                           std::ostream* log) {
  const std::vector<VariantRequest> variants = kernel_variants(config, plan, cuda_device);
  if (variants.empty()) return;
  const CompileSummary summary =
      compile_variants(variants, std::max(1u, std::thread::hardware_concurrency()));
  if (!summary.errors.empty()) throw not_compiling(summary, variants.size());
  say_compiled(summary, log);
}

CompileSummary compile_first_variants(const Config& config, const std::vector<Point>& plan,
                                      int cuda_device) {
  std::vector<Point> firsts;
  std::set<const Implementation*> seen;
  for (const Point& point : plan)
    if (kernel_variant(config, point, cuda_device) && seen.insert(point.implementation).second)
      firsts.push_back(point);
  const std::vector<VariantRequest> variants = kernel_variants(config, firsts, cuda_device);
  if (variants.empty()) return {};
  const CompileSummary summary =
      compile_variants(variants, std::max(1u, std::thread::hardware_concurrency()));
  if (summary.errors.empty()) return summary;
  // A source that does not compile: every variant's errors, as validate shows them.
  const std::vector<VariantRequest> all = kernel_variants(config, plan, cuda_device);
  const CompileSummary everything =
      compile_variants(all, std::max(1u, std::thread::hardware_concurrency()));
  if (!everything.errors.empty()) throw not_compiling(everything, all.size());
  throw not_compiling(summary, variants.size());
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
      } catch (const std::exception& error) {  // the compiler's lines, or a cache refused
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

#include "run/plan_compiles.hpp"

#include <algorithm>
#include <thread>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "plan/kernel_variants.hpp"

namespace convlab {
namespace {

double seconds_between(std::chrono::steady_clock::time_point from,
                       std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

PlanCompiles::PlanCompiles(const Config& config, const std::vector<Point>& plan, int cuda_device,
                           CompileSummary first)
    : config_(config), plan_(plan), cuda_device_(cuda_device), summary_(std::move(first)) {
  // The first variant of each kernel, compiled before the run (compile_first_variants): found,
  // never started again.
  std::set<const Implementation*> seen;
  for (const Point& point : plan_) {
    const auto request = kernel_variant(config_, point, cuda_device_);
    if (!request) continue;
    any_ = true;
    if (seen.insert(point.implementation).second) done_.insert(variant_identity(point, *request));
  }
  if (!any_) return;
  // Every core but the one measuring.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  compiles_ = std::make_unique<CompilesAhead>(std::max(1u, cores - 1));
}

std::string PlanCompiles::key_of(std::size_t index) const {
  const auto found = key_.find(index);
  return found == key_.end() ? std::string() : found->second;
}

void PlanCompiles::start(const std::vector<std::size_t>& points) {
  if (!compiles_) return;
  for (std::size_t index : points) {
    if (key_.count(index)) continue;
    auto request = kernel_variant(config_, plan_[index], cuda_device_);
    if (!request || compiler_unavailable(request->source->language)) continue;
    const std::string identity = variant_identity(plan_[index], *request);
    if (done_.count(identity)) continue;
    if (!started_any_) begun_ = std::chrono::steady_clock::now();
    started_any_ = true;
    key_[index] = identity;
    compiles_->start(identity, std::move(*request));
  }
}

double PlanCompiles::wait(std::size_t index) {
  const std::string identity = key_of(index);
  if (identity.empty() || !compiles_) return 0.0;
  key_.erase(index);
  if (done_.count(identity)) return 0.0;  // another point of the same variant waited for it
  const auto waiting = std::chrono::steady_clock::now();
  const CompileOutcome outcome = compiles_->wait(identity);
  ended_ = std::chrono::steady_clock::now();
  const double seconds = seconds_between(waiting, ended_);
  waited_ += seconds;
  done_.insert(identity);
  if (outcome.error) {
    if (failed_++ == 0) first_failure_ = outcome.error->substr(0, outcome.error->find('\n'));
  } else if (outcome.compiled) {
    ++summary_.compiled;
  } else {
    ++summary_.cached;
  }
  return seconds;
}

void PlanCompiles::say(std::ostream* log) const {
  if (log == nullptr || !any_) return;
  CompileSummary shown = summary_;
  std::string waited;
  if (started_any_) {
    shown.seconds += seconds_between(begun_, std::max(begun_, ended_));
    waited = ", alongside the measurements, which waited " + format_number(waited_) + " s for them";
  }
  say_compiled(shown, log, waited);
  if (failed_ > 0)
    *log << "convlab: " << count_words(failed_, "variant")
         << " of your kernels did not compile, their points failed with the compiler's lines: "
         << first_failure_ << "\n";
}

}  // namespace convlab

#include "plan/skips.hpp"

#include <algorithm>

#include "core/count_words.hpp"

namespace convlab {
namespace {

// The image a point will read, with its shape and no pixels: what the checks look at.
Image shape_of(const ImageSpec& spec) {
  Image image;
  image.name = spec.name;
  image.width = spec.width;
  image.height = spec.height;
  image.channels = spec.channels;
  return image;
}

std::string group_words(const SkipGroup& group) {
  return std::to_string(group.points) +
         (group.cause == SkipCause::machine ? " skipped on this machine: " : " skipped: ") +
         group.summary;
}

}  // namespace

std::vector<std::optional<PlannedSkip>> planned_skips(const Config& config,
                                                      const std::vector<Point>& plan,
                                                      const RunContext& context) {
  std::vector<Image> images;
  for (const auto& spec : config.images) images.push_back(shape_of(spec));
  std::vector<std::optional<PlannedSkip>> skips;
  skips.reserve(plan.size());
  for (const Point& point : plan) {
    const Implementation& impl = *point.implementation;
    const Problem problem{images[point.image], config.filters[point.filter], point.border,
                          point.output};
    std::optional<PlannedSkip> skip;
    if (impl.unmet_need)
      if (auto need = impl.unmet_need(problem, point.params))
        skip = PlannedSkip{SkipCause::config, impl.name + " needs " + need->needs, need->reason};
    if (!skip)
      if (auto reason = impl.unsupported(problem, point.params, context))
        skip = PlannedSkip{SkipCause::machine, *reason, *reason};
    skips.push_back(std::move(skip));
  }
  return skips;
}

PlanCounts count_plan(const std::vector<std::optional<PlannedSkip>>& skips) {
  PlanCounts counts;
  counts.points = skips.size();
  for (const auto& skip : skips) {
    if (!skip) {
      ++counts.to_run;
      continue;
    }
    auto group = std::find_if(
        counts.skipped.begin(), counts.skipped.end(),
        [&](const SkipGroup& g) { return g.cause == skip->cause && g.summary == skip->summary; });
    if (group == counts.skipped.end())
      counts.skipped.push_back({skip->cause, skip->summary, 1});
    else
      ++group->points;
  }
  std::stable_sort(counts.skipped.begin(), counts.skipped.end(),
                   [](const SkipGroup& a, const SkipGroup& b) {
                     if (a.cause != b.cause) return a.cause == SkipCause::config;
                     return a.points > b.points;
                   });
  return counts;
}

std::string plan_counts_text(const PlanCounts& counts, size_t shown) {
  std::string text = count_words(counts.points, "point");
  if (counts.skipped.empty()) return text + (counts.points == 1 ? " to run" : ", all to run");
  text += ": " + std::to_string(counts.to_run) + " to run, ";
  if (counts.skipped.size() == 1) return text + group_words(counts.skipped.front());
  size_t by_config = 0, by_machine = 0;
  for (const auto& group : counts.skipped)
    (group.cause == SkipCause::config ? by_config : by_machine) += group.points;
  if (by_config > 0) text += std::to_string(by_config) + " skipped";
  if (by_config > 0 && by_machine > 0) text += ", ";
  if (by_machine > 0) text += std::to_string(by_machine) + " skipped on this machine";
  for (size_t i = 0; i < std::min(shown, counts.skipped.size()); ++i)
    text += "\n  " + group_words(counts.skipped[i]);
  if (counts.skipped.size() > shown)
    text += "\n  ... and " + count_words(counts.skipped.size() - shown, "more reason");
  return text;
}

}  // namespace convlab

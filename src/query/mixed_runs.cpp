#include "query/mixed_runs.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "measure/stats.hpp"

namespace convlab {
namespace {

RunConditionsSeen conditions_of(const RunBlock& run) {
  RunConditionsSeen seen;
  seen.id = run.id;
  if (run.conditions && run.conditions->load_average && !run.conditions->load_average->empty())
    seen.load = run.conditions->load_average->front();
  if (run.git) {
    seen.commit = run.git->commit;
    seen.dirty = run.git->dirty;
  }
  seen.build_id = run.build_id();
  seen.calibration = run.cpu_calibration;
  return seen;
}

// The largest difference of each figure between two known calibrations of `runs`.
std::optional<CalibrationGap> largest_calibration_gap(const std::vector<RunConditionsSeen>& runs) {
  std::optional<CalibrationGap> largest;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      if (!runs[i].calibration || !runs[j].calibration) continue;
      const auto gap = calibration_gap(*runs[i].calibration, *runs[j].calibration);
      if (!gap) continue;
      if (!largest) largest = CalibrationGap{};
      largest->copy = std::max(largest->copy, gap->copy);
      largest->fma = std::max(largest->fma, gap->fma);
    }
  return largest;
}

std::string percent_words(double fraction) {
  return format_number(fraction * 100, 2) + " %";
}

// Whether the known values of `value` among `runs` are not all equal.
template <typename Read>
bool known_values_differ(const std::vector<RunConditionsSeen>& runs, Read value) {
  std::set<std::string> seen;
  for (const auto& run : runs)
    if (const auto known = value(run)) seen.insert(*known);
  return seen.size() > 1;
}

bool loads_differ(const std::vector<RunConditionsSeen>& runs) {
  std::vector<double> loads;
  for (const auto& run : runs)
    if (run.load) loads.push_back(*run.load);
  if (loads.empty()) return false;
  const auto [low, high] = std::minmax_element(loads.begin(), loads.end());
  return *high - *low > kLoadDifferenceLimit;
}

// A text field of the host block; null (a host without a machine id) or missing is empty.
std::string host_text(const RunBlock& run, const char* key) {
  if (!run.host.is_object()) return "";
  const auto found = run.host.find(key);
  return found != run.host.end() && found->is_string() ? found->get<std::string>() : "";
}

// The host a run measured on: its CPU model, hostname and host id.
std::string host_of(const RunBlock& run) {
  return host_text(run, "cpu_model") + "\x1f" + host_text(run, "hostname") + "\x1f" +
         host_text(run, "host_id");
}

}  // namespace

MixedRuns mixed_runs(const std::vector<const Record*>& records, const std::vector<RunBlock>& runs) {
  std::map<std::string, std::size_t> counts;
  for (const Record* record : records) ++counts[record->run_id];
  MixedRuns mixed;
  std::map<std::string, std::vector<RunConditionsSeen>> by_host;
  for (const RunBlock& run : runs) {
    const auto found = counts.find(run.id);
    if (found == counts.end() || found->second == 0) continue;
    mixed.runs.push_back(conditions_of(run));
    mixed.runs.back().records = found->second;
    found->second = 0;  // a run block listed twice counts once
    by_host[host_of(run)].push_back(mixed.runs.back());
  }
  // Tables keep machines apart, so only runs of one host are compared with each other.
  for (const auto& [host, host_runs] : by_host) {
    mixed.load_differs = mixed.load_differs || loads_differ(host_runs);
    if (const auto gap = largest_calibration_gap(host_runs)) {
      if (!mixed.calibration_gap) mixed.calibration_gap = CalibrationGap{};
      mixed.calibration_gap->copy = std::max(mixed.calibration_gap->copy, gap->copy);
      mixed.calibration_gap->fma = std::max(mixed.calibration_gap->fma, gap->fma);
    }
    mixed.commit_differs =
        mixed.commit_differs ||
        known_values_differ(host_runs, [](const RunConditionsSeen& run) { return run.commit; });
    mixed.build_differs =
        mixed.build_differs ||
        known_values_differ(host_runs,
                            [](const RunConditionsSeen& run) -> std::optional<std::string> {
                              if (run.build_id.empty()) return std::nullopt;
                              return run.build_id;
                            });
  }
  return mixed;
}

namespace {

// A file of many shards would make the note longer than the table.
constexpr std::size_t kRunsNamed = 6;

std::string run_words(const RunConditionsSeen& run) {
  std::string words;
  const auto add = [&](const std::string& part) { words += (words.empty() ? "" : ", ") + part; };
  add(run.load ? "load " + format_fixed(*run.load, 2) : "load not recorded");
  if (run.calibration) add(calibration_words(*run.calibration));
  if (run.commit)
    add("commit " + run.commit->substr(0, 7) + (run.dirty.value_or(false) ? "-dirty" : ""));
  if (!run.build_id.empty()) add("build " + run.build_id.substr(0, 8));
  add(count_words(run.records, "record"));
  return run.id + " (" + words + ")";
}

}  // namespace

std::string mixed_runs_note(const MixedRuns& mixed) {
  if (!mixed.mixed()) return "";
  std::string why;
  const auto add = [&](const char* part) { why += (why.empty() ? "" : "; ") + std::string(part); };
  if (mixed.load_differs) add("load average at the start differs by more than one core");
  const std::string calibration =
      mixed.calibration_differs() ? calibration_finding(*mixed.calibration_gap) : "";
  if (!calibration.empty()) add(calibration.c_str());
  if (mixed.commit_differs) add("other commits");
  if (mixed.build_differs) add("other builds");
  std::string runs;
  const std::size_t shown = std::min(mixed.runs.size(), kRunsNamed);
  for (std::size_t i = 0; i < shown; ++i)
    runs += (runs.empty() ? "" : "; ") + run_words(mixed.runs[i]);
  if (mixed.runs.size() > shown)
    runs += "; and " + count_words(mixed.runs.size() - shown, "more run");
  return "Runs under different conditions (" + why + "): " + runs + ".";
}

}  // namespace convlab

namespace convlab {

std::string calibration_finding(const CalibrationGap& gap) {
  return std::string(gap.apart() ? "another machine" : "the same machine") + " (calibration " +
         percent_words(gap.headline()) + " apart: " + gap_words(gap) + ")";
}

namespace {

// The median figures of a side's calibrated runs; nullopt when none recorded one.
std::optional<CpuCalibration> side_calibration(const MixedRuns& side) {
  std::vector<double> copy, fma;
  int threads = 0;
  for (const auto& run : side.runs)
    if (run.calibration) {
      copy.push_back(run.calibration->copy_bytes_per_s);
      fma.push_back(run.calibration->fma_per_s);
      threads = run.calibration->threads;
    }
  if (copy.empty()) return std::nullopt;
  CpuCalibration calibration;
  calibration.threads = threads;
  calibration.copy_bytes_per_s = summarize(copy).median;
  calibration.fma_per_s = summarize(fma).median;
  return calibration;
}

// The distinct known values of a side, short, joined: "1a2b3c4d, 5e6f7a8b".
template <typename Read>
std::set<std::string> side_values(const MixedRuns& side, Read value) {
  std::set<std::string> values;
  for (const auto& run : side.runs)
    if (const auto known = value(run)) values.insert(*known);
  return values;
}

std::string joined_words(const std::set<std::string>& values) {
  std::string text;
  for (const auto& value : values) text += (text.empty() ? "" : ", ") + value;
  return text;
}

std::optional<std::string> short_build(const RunConditionsSeen& run) {
  if (run.build_id.empty()) return std::nullopt;
  return run.build_id.substr(0, 8);
}

std::optional<std::string> short_commit(const RunConditionsSeen& run) {
  if (!run.commit) return std::nullopt;
  return run.commit->substr(0, 7) + (run.dirty.value_or(false) ? "-dirty" : "");
}

}  // namespace

std::vector<std::string> differences_between(const MixedRuns& a, const MixedRuns& b) {
  std::vector<std::string> found;
  const auto compare_values = [&](const char* what, auto read) {
    const auto in_a = side_values(a, read), in_b = side_values(b, read);
    if (!in_a.empty() && !in_b.empty() && in_a != in_b)
      found.push_back(std::string("another ") + what + " (A: " + joined_words(in_a) +
                      "; B: " + joined_words(in_b) + ")");
  };
  compare_values("build", short_build);
  compare_values("commit", short_commit);
  const auto a_calibration = side_calibration(a), b_calibration = side_calibration(b);
  if (a_calibration && b_calibration) {
    if (const auto gap = calibration_gap(*a_calibration, *b_calibration))
      found.push_back(calibration_finding(*gap) + ": A " + calibration_words(*a_calibration) +
                      "; B " + calibration_words(*b_calibration));
  } else if (a_calibration || b_calibration) {
    found.push_back(std::string("the CPU calibration is not recorded by ") +
                    (a_calibration ? "B" : "A") +
                    "'s runs (made by a convlab that did not measure it): another machine "
                    "cannot be told from another build");
  }
  std::vector<RunConditionsSeen> both = a.runs;
  both.insert(both.end(), b.runs.begin(), b.runs.end());
  if (loads_differ(both)) found.push_back("load at the start differs by more than one core");
  return found;
}

}  // namespace convlab

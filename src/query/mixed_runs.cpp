#include "query/mixed_runs.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/count_words.hpp"
#include "core/number_text.hpp"

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
  return seen;
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

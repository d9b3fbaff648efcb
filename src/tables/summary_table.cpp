#include "tables/summary_table.hpp"

#include <algorithm>
#include <map>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "core/point_filter.hpp"
#include "query/point_flags.hpp"
#include "query/speedup_gap.hpp"
#include "store/source_versions.hpp"

namespace convlab {
namespace {

std::string params_text(const nlohmann::json& params) {
  std::string text;
  for (const auto& [key, value] : params.items())
    text += (text.empty() ? "" : " ") + key + "=" + field_text(value);
  return text.empty() ? "-" : text;
}

std::string verdict(const Record& record) {
  if (record.status == Status::ok) return "ok";
  return std::string(to_string(record.status)) + ": " + record.reason;
}

// "sequential threads=2 | image | kernel | border | output"
std::string point_words(const Record& r, const std::string& separator) {
  return r.implementation + separator + params_text(r.params) + " | " + r.image.name + " | " +
         r.kernel.name + " | " + r.border + " | " + r.output;
}

// The speedup, or why there is none: the baseline of the run's config, looked up in `context`.
struct SpeedupContext {
  const std::vector<Record>& records;
  nlohmann::json baseline;
  bool filtered = false;
};

std::string speedup_cell(const Record& r, const SpeedupContext& context) {
  if (r.derived.speedup) return format_number(*r.derived.speedup, 3) + "x";
  return missing_speedup_reason(r, context.records, context.baseline, context.filtered);
}

// The derived columns (derive:) the rows have, in the config's order.
std::vector<std::string> derived_columns(const std::vector<const Record*>& rows) {
  std::vector<std::string> names;
  for (const Record* row : rows)
    for (const auto& [name, value] : row->computed)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

void print_rows(const std::vector<const Record*>& rows, const SpeedupContext& context,
                std::ostream& out) {
  const std::vector<std::string> derived = derived_columns(rows);
  const bool versions = versions_meet(rows);
  out << "| implementation | params | " << (versions ? "source | " : "")
      << "image | kernel | border | output | median ms | CV % | speedup | verdict |";
  for (const auto& name : derived) out << " derive." << name << " |";
  out << "\n|---|---|" << (versions ? "---|" : "") << "---|---|---|---|---:|---:|---:|---|";
  for (size_t i = 0; i < derived.size(); ++i) out << "---:|";
  out << "\n";
  for (const Record* row : rows) {
    const Record& r = *row;
    const std::string median = r.timing ? format_number(r.timing->compute.stats.median, 4) : "";
    const std::string cv = r.timing ? format_number(r.timing->compute.stats.cv * 100, 2) : "";
    const std::string speedup = speedup_cell(r, context);
    out << "| " << r.implementation << " | " << params_text(r.params) << " | ";
    if (versions) out << (r.source ? short_version(r.source_version()) : "-") << " | ";
    out << r.image.name << " | " << r.kernel.name << " | " << r.border << " | " << r.output << " | "
        << median << " | " << cv << " | " << speedup << " | " << verdict(r) << " |";
    for (const auto& name : derived) {
      const auto value = r.computed_value(name);
      out << " " << (value ? format_number(*value, 4) : "") << " |";
    }
    out << "\n";
  }
}

void print_skipped(const std::vector<const Record*>& skipped, std::ostream& out) {
  std::vector<std::pair<std::string, size_t>> reasons;
  for (const Record* record : skipped) {
    const std::string& reason = record->reason;
    auto found = std::find_if(reasons.begin(), reasons.end(),
                              [&](const auto& entry) { return entry.first == reason; });
    if (found == reasons.end())
      reasons.emplace_back(reason, 1);
    else
      ++found->second;
  }
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [reason, count] : reasons)
    out << count << (count == 1 ? " point" : " points") << " skipped: " << reason << "\n";
}

// Without a device the CUDA points are skipped, and their line says why.
void print_calibration(const RunBlock& run, std::ostream& out) {
  const nlohmann::json cuda = run.cuda.is_object() ? run.cuda : nlohmann::json::object();
  if (cuda.value("available", false) && cuda.contains("calibration")) {
    const auto& c = cuda["calibration"];
    out << "\nGPU " << cuda.value("name", "?") << ": measured copy bandwidth "
        << format_number(c.value("copy_bytes_per_s", 0.0) / 1e12, 3)
        << " TB/s (read + write), FP32 FMA rate "
        << format_number(c.value("fma_per_s", 0.0) / 1e12, 3) << " TFMA/s\n";
  }
}

}  // namespace

void print_summary_table(const std::vector<Record>& records, const RunBlock& run, std::ostream& out,
                         const std::vector<Record>* context) {
  std::vector<const Record*> measured, skipped;
  for (const auto& record : records)
    (record.status == Status::skipped ? skipped : measured).push_back(&record);
  const bool filtered =
      run.argv && std::find(run.argv->begin(), run.argv->end(), "--filter") != run.argv->end();
  const SpeedupContext speedups{
      context ? *context : records,
      run.resolved_config.is_object()
          ? run.resolved_config.value("baseline", nlohmann::json::object())
          : nlohmann::json::object(),
      filtered};
  if (!measured.empty()) print_rows(measured, speedups, out);
  if (!measured.empty() && !skipped.empty()) out << "\n";
  print_skipped(skipped, out);
  print_calibration(run, out);
}

void print_unranked_points(const std::vector<Record>& records, const RunBlock& run,
                           std::ostream& out) {
  std::vector<const Record*> failed, skipped;
  for (const auto& record : records) {
    if (record.status == Status::failed) failed.push_back(&record);
    if (record.status == Status::skipped) skipped.push_back(&record);
  }
  if (!failed.empty() || !skipped.empty()) out << "\n";
  for (const Record* record : failed)
    out << "failed: " << point_words(*record, " ") << ": " << record->reason << "\n";
  print_skipped(skipped, out);
  print_calibration(run, out);
}

void print_efficiency_flags(const std::vector<Record>& records, std::ostream& out, size_t shown) {
  std::vector<const Record*> flagged;
  for (const auto& record : records) {
    const std::vector<PointFlag> flags = point_flags(record);
    if (std::find(flags.begin(), flags.end(), PointFlag::efficiency_above_one) != flags.end())
      flagged.push_back(&record);
  }
  if (flagged.empty()) return;
  out << "\n"
      << flag_mark(PointFlag::efficiency_above_one) << " " << count_words(flagged.size(), "point")
      << " with a " << flag_legend(PointFlag::efficiency_above_one)
      << (flagged.size() > shown ? "; the first:" : ":") << "\n";
  for (size_t i = 0; i < std::min(shown, flagged.size()); ++i)
    out << "  efficiency " << format_number(*flagged[i]->derived.efficiency, kEfficiencyDigits)
        << "  " << point_words(*flagged[i], " ") << "\n";
}

void print_noisy_points(const std::vector<Record>& records, std::ostream& out, double cv_limit,
                        size_t shown) {
  std::vector<std::pair<double, const Record*>> noisy;
  size_t measured = 0;
  for (const auto& record : records) {
    if (!record.timing) continue;
    ++measured;
    const double cv = record.timing->compute.stats.cv;
    if (cv > cv_limit) noisy.emplace_back(cv, &record);
  }
  if (noisy.empty()) return;
  std::stable_sort(noisy.begin(), noisy.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  out << "\n"
      << noisy.size() << " of " << measured << " measured points are noisy (CV > "
      << format_number(cv_limit * 100, 2) << " %)" << (noisy.size() > shown ? "; the worst:" : ":")
      << "\n";
  size_t very_noisy = 0;
  for (const auto& [cv, record] : noisy) very_noisy += cv > kVeryNoisyCv;
  for (size_t i = 0; i < std::min(shown, noisy.size()); ++i) {
    const bool flagged = noisy[i].first > kVeryNoisyCv;
    out << (flagged ? std::string(flag_mark(PointFlag::very_noisy)) + " " : "  ") << "CV "
        << format_number(noisy[i].first * 100, 2) << " %  " << point_words(*noisy[i].second, " ")
        << "\n";
  }
  if (very_noisy > 0)
    out << flag_mark(PointFlag::very_noisy) << " " << very_noisy
        << " of them: " << flag_legend(PointFlag::very_noisy) << "\n";
}

std::string run_counts_line(const RunCounts& counts) {
  std::string line = "kept " + std::to_string(counts.kept) + " \u00b7 ran " +
                     std::to_string(counts.ran) + " \u00b7 skipped " +
                     std::to_string(counts.skipped) + " \u00b7 failed " +
                     std::to_string(counts.failed);
  if (counts.not_run > 0) line += " \u00b7 not run " + std::to_string(counts.not_run);
  return line;
}

std::string status_counts_line(const std::vector<Record>& records) {
  size_t ok = 0, skipped = 0, failed = 0;
  for (const auto& record : records) {
    ok += record.status == Status::ok;
    skipped += record.status == Status::skipped;
    failed += record.status == Status::failed;
  }
  return "ok " + std::to_string(ok) + " \u00b7 skipped " + std::to_string(skipped) +
         " \u00b7 failed " + std::to_string(failed);
}

}  // namespace convlab

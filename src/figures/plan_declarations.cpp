#include "figures/plan_declarations.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "core/closest_name.hpp"
#include "figures/declarations.hpp"
#include "figures/figure_data.hpp"
#include "plan/plan.hpp"
#include "plan/skips.hpp"

namespace convlab {
namespace {

// Every statistic 1 ms: the values do not matter, only which fields a record has.
SampleBlock one_millisecond() {
  SampleBlock block;
  block.samples_ms = {1.0};
  SampleStats& stats = block.stats;
  stats.min = stats.q1 = stats.median = stats.mean = stats.q3 = stats.max = 1.0;
  return block;
}

// The record the run would write for `point`, with the fields it would have: timing (with the
// copies for CUDA points), throughput, speedup, parallel efficiency where there are threads, the
// floor of CUDA points, verification.
Record planned_record(const Config& config, const Point& point) {
  const ImageSpec& image = config.images[point.image];
  const Filter& filter = config.filters[point.filter];
  const Implementation& impl = *point.implementation;
  Record record;
  record.implementation = impl.name;
  record.family = family_name(impl.family);
  record.factored = impl.factored;
  record.params = point.params;
  const std::string source =
      image.kind == ImageSpec::Kind::file
          ? image.path
          : "generated:" + image.pattern + " seed=" + std::to_string(image.seed);
  record.image = {image.name, source, "", image.width, image.height, image.channels};
  record.kernel = {filter.name, filter.type, filter.size, filter.separable, filter.parameters};
  record.border = to_string(point.border);
  record.output = to_string(point.output);
  record.status = Status::ok;
  RecordTiming timing;
  timing.repetitions = 1;
  timing.compute = one_millisecond();
  if (record.is_cuda()) timing.h2d = timing.d2h = timing.end_to_end = one_millisecond();
  record.timing = timing;
  DerivedMetrics& derived = record.derived;
  for (std::optional<double> DerivedMetrics::*metric :
       {&DerivedMetrics::pixels, &DerivedMetrics::macs, &DerivedMetrics::bytes,
        &DerivedMetrics::mpix_per_s, &DerivedMetrics::gmac_per_s, &DerivedMetrics::gb_per_s,
        &DerivedMetrics::ns_per_mac, &DerivedMetrics::speedup})
    derived.*metric = 1.0;
  if (point.params.contains("threads")) derived.speedup_vs_threads1 = derived.efficiency = 1.0;
  if (record.is_cuda())
    derived.speedup_with_transfers = derived.floor_ms = derived.roofline_fraction = 1.0;
  if (point.search)  // every field a search's records have: one step stands for them
    record.search = RecordSearch{
        std::string(to_string(point.search->strategy)), point.search->seed, 1, 1.0, 0.0, 0.0, 0.0};
  Verification verification;
  verification.ok = true;
  verification.exactness_counted = point.output == OutputType::u8;
  record.verification = verification;
  return record;
}

std::vector<Record> planned_records(const Config& config, const std::vector<Point>& plan) {
  const auto skips = planned_skips(config, plan, RunContext{});
  std::vector<Record> records;
  for (size_t i = 0; i < plan.size(); ++i)
    if (!skips[i] || skips[i]->cause != SkipCause::config)
      records.push_back(planned_record(config, plan[i]));
  return records;
}

template <typename Extract>
void try_on_plan(const YAML::Node& node, const YamlLocation& at, Extract extract) {
  try {
    extract();
  } catch (const NoDataError&) {
    // Whether points match or have the value is for the results to say.
  } catch (const ResultsError& error) {
    at.fail(node, error.what());
  }
}

// A table's vs and a figure's best.except name implementations of the config: results without
// their points are the results' to explain, a name the config lacks is a mistake to refuse now.
void check_implementation_name(const YAML::Node& node, const YamlLocation& at,
                               const std::string& name, const std::vector<Record>& records) {
  std::vector<std::string> names;
  for (const Record& record : records)
    if (std::find(names.begin(), names.end(), record.implementation) == names.end())
      names.push_back(record.implementation);
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  const std::string close = closest_name(name, names);
  std::string listed;
  for (const auto& known : names) listed += (listed.empty() ? "" : ", ") + known;
  at.fail(node, "'" + shown_text(name) + "' is no implementation of this config" +
                    (close.empty() ? "" : " (did you mean '" + close + "'?)") +
                    (listed.empty() ? "" : "; its implementations: " + listed));
}

}  // namespace

std::vector<std::string> check_declarations_on_plan(const YAML::Node& config_root,
                                                    const YamlLocation& top, const Config& config,
                                                    const std::vector<Point>& plan) {
  std::vector<std::string> warnings;
  if (!config_root.IsMap() || (!config_root["figures"] && !config_root["tables"])) return warnings;
  const ReportDeclarations declared = parse_report_declarations(config_root, top);
  if (declared.figures.empty() && declared.tables.empty()) return warnings;
  // A cell that reduces points of several images into one says so in its caption; here, before
  // the run, the config's author hears it too.
  const auto warn_merged = [&](const YamlLocation& at, const YAML::Node& node,
                               const std::string& words) {
    if (words.empty()) return;
    const YAML::Mark mark = node.Mark();
    warnings.push_back(at.file + ":" + std::to_string(mark.line + 1) + ": " + at.key_path + ": " +
                       words +
                       " Add image.name to series or panel (or narrow where) to draw them apart.");
  };
  const std::vector<Record> records = planned_records(config, plan);
  std::vector<const Record*> points;
  for (const Record& record : records) points.push_back(&record);
  for (size_t i = 0; i < declared.figures.size(); ++i) {
    const FigureDeclaration& figure = declared.figures[i];
    const YamlLocation at = top.child("figures").index(i);
    if (figure.best)
      for (size_t e = 0; e < figure.best->except.size(); ++e) {
        const YAML::Node except = config_root["figures"][i]["best"]["except"];
        check_implementation_name(except.IsSequence() ? except[e] : except,
                                  except.IsSequence() ? at.child("best").child("except").index(e)
                                                      : at.child("best").child("except"),
                                  figure.best->except[e], records);
      }
    try_on_plan(config_root["figures"][i], at, [&] {
      const FigureData data = extract_figure(figure, points, "figure '" + figure.name + "'");
      warn_merged(at, config_root["figures"][i], merged_images_words(data));
    });
  }
  for (size_t i = 0; i < declared.tables.size(); ++i) {
    const TableDeclaration& table = declared.tables[i];
    if (!table.vs.empty())
      check_implementation_name(config_root["tables"][i]["vs"],
                                top.child("tables").index(i).child("vs"), table.vs, records);
    const YamlLocation at = top.child("tables").index(i);
    try_on_plan(config_root["tables"][i], at, [&] {
      const TableData data = extract_table(table, points, "table '" + table.name + "'");
      warn_merged(at, config_root["tables"][i],
                  merged_images_words(data.grid.merged_images, table.reduce, "cell"));
    });
  }
  return warnings;
}

}  // namespace convlab

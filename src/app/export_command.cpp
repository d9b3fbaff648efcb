// convlab export: results.json -> TSV data, gnuplot scripts, LaTeX tables and the experiment's
// report section. Files whose content did not change are left untouched, so make and the figure
// renderer (scripts/report/render-figures.sh) redo only what is stale.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/commands.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "config/yaml_load.hpp"
#include "core/file_io.hpp"
#include "core/count_words.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "report/declarations.hpp"
#include "report/discussion_values.hpp"
#include "report/figure_data.hpp"
#include "report/flat_table.hpp"
#include "report/latex_writer.hpp"
#include "report/plot_writers.hpp"
#include "report/winners_writer.hpp"
#include "report/report_outline.hpp"
#include "report/report_summary.hpp"
#include "results/gallery.hpp"
#include "results/record_fields.hpp"
#include "results/record_queries.hpp"
#include "results/results_document.hpp"
#include "results/winners.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

const char* const kExportHelp =
    R"(usage: convlab export RESULTS [--out DIR] [--figures DIR] [--config FILE] [--discussion FILE]
       convlab export RESULTS --format csv|md|tsv [--out FILE] [--filter EXPR]
                      [--best [--by FIELD]]
       convlab export --index FILE RESULTS...

Turns a results.json (or the directory holding it) into what the report needs:
  DIR/data/<figure>.tsv      the numbers each figure plots (tab-separated, a header row, full
                             precision)
  DIR/plots/<figure>.gp      gnuplot script writing FIGURES/<figure>.pdf and .png
  DIR/tables/<table>.tex     booktabs table (and .tsv with the same numbers)
  DIR/values.tex             the numbers the discussion quotes with \convlabvalue
  DIR/section.tex            the experiment's report section; DIR/gallery.tex with saved images

Figures and tables come from the config's figures: and tables: (docs/report.md); without
declarations, median time and speedup against image size are made.

  --out DIR          where to write (default: <results dir>/export)
  --figures DIR      where the scripts render figures (default: <results dir>/figures)
  --config FILE      read figures:/tables: from this config instead of the copy in results.json,
                     so edited declarations apply without re-running; "auto": the config path
                     the run recorded, when that file exists
  --discussion FILE  the experiment's prose (experiments/<name>.tex); each
                     \convlabvalue{filter}{field} in it must match exactly one ok point
  --index FILE       write the report's front part and section list for the given results
  --outline FILE     with --index: the parts, their order and the summary figures
                     (report/outline.yaml)
  --summary FILE     with --index: the hand-written summary; its
                     \convlabvalueof{experiment}{filter}{field} are resolved like \convlabvalue

With --format, one table instead (to FILE, or to standard output):
  --format csv|md|tsv  one row per record: implementation, params.*, image.*, kernel.*, border,
                       output, status, reason, repetitions, timing statistics in ms, the device
                       phases' medians, derived metrics and verification; csv and tsv keep full
                       precision, md is a table for people with four significant digits
  --filter EXPR        only the records matching EXPR (as convlab run --filter); a filter that
                       matches no record is an error
  --best               the winners instead, one row per problem, as convlab show --best prints
                       them (csv and tsv: every column, in full precision)
  --by FIELD           with --best: one row per value of FIELD, one column per implementation
Exit codes: 0 written, 2 bad input (the message names the file and key) or a file that could not
be written (PATH: write error: REASON; the earlier file is kept).
)";

// Writes only when the content differs, keeping modification times of unchanged files; whole or
// not at all (core/file_io.hpp). `target`: a file of the export folder (owned) or one named on
// the command line.
void write_if_changed(const fs::path& path, const std::string& content,
                      WriteTarget target = WriteTarget::owned) {
  if (path.has_parent_path()) create_folders(path.parent_path().string());
  write_file_if_changed(path.string(), content, target);
}

// A discussion or summary is prose: anything larger is not one.
constexpr size_t kMaxProseBytes = size_t(16) << 20;

std::string read_text(const fs::path& path) {
  return read_file(path.string(), kMaxProseBytes);
}

std::string relative_to(const fs::path& target, const fs::path& base) {
  return fs::absolute(target)
      .lexically_normal()
      .lexically_relative(fs::absolute(base).lexically_normal())
      .generic_string();
}

const json& resolved_config(const ResultsDocument& results) {
  static const json none = json::object();
  return results.latest_run ? results.latest_run->resolved_config : none;
}

struct ExportOptions {
  std::string results;
  std::optional<std::string> out;
  std::optional<std::string> figures;
  std::optional<std::string> config;
  std::optional<std::string> discussion;
};

// Removes files of figures or tables no longer declared, so the report never shows stale ones.
void remove_stale(const fs::path& directory, const std::string& extension,
                  const std::set<std::string>& keep, const std::vector<fs::path>& companions) {
  if (!fs::is_directory(directory)) return;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() != extension) continue;
    const std::string stem = entry.path().stem().string();
    if (keep.count(stem)) continue;
    fs::remove(entry.path());
    for (const auto& companion_dir : companions)
      for (const char* other : {".pdf", ".png", ".tsv"}) fs::remove(companion_dir / (stem + other));
  }
}

// The config this results file was run from, when it is still where the run found it, or else
// the config named after the experiment; `requested` "auto" asks for that search.
std::optional<std::string> config_to_read(const std::optional<std::string>& requested,
                                          const ResultsDocument& results, const std::string& name) {
  if (!requested || *requested != "auto") return requested;
  const std::string recorded = results.latest_run ? results.latest_run->config_path : "";
  if (!recorded.empty() && fs::exists(recorded)) return recorded;
  const std::string by_name = "configs/" + name + ".yaml";
  if (fs::exists(by_name)) return by_name;
  return std::nullopt;
}

// The recorded resolved config without what does not change a measurement.
json measured_settings(json resolved) {
  for (const char* key : {"title", "description", "figures", "tables"}) resolved.erase(key);
  return resolved;
}

// Empty when the config is byte for byte the one the run recorded; else what changed, in words,
// and whether only its text (title, description, figures, tables) changed, not what was measured.
std::string config_change_words(const ResultsDocument& results, const std::string& config_path,
                                bool* text_only) {
  *text_only = false;
  const std::string recorded = results.latest_run ? results.latest_run->config_sha256 : "";
  if (recorded.empty() || sha256_file_hex(config_path) == recorded) return "";
  std::vector<std::string> changed;
  try {
    const json now = measured_settings(load_config(config_path).resolved);
    const json then = measured_settings(resolved_config(results));
    for (auto it = now.begin(); it != now.end(); ++it)
      if (!then.contains(it.key()) || then[it.key()] != it.value()) changed.push_back(it.key());
    for (auto it = then.begin(); it != then.end(); ++it)
      if (!now.contains(it.key())) changed.push_back(it.key());
  } catch (const std::exception& error) {
    return config_path + " changed since these results were measured and cannot be read now (" +
           error.what() + ").";
  }
  if (changed.empty()) {
    *text_only = true;
    return "The config's text (description, figures or tables) was edited after this run; the "
           "measured settings are unchanged.";
  }
  std::string keys;
  for (const auto& key : changed) keys += (keys.empty() ? "" : ", ") + key;
  return config_path + " changed since these results were measured: " + keys +
         " differ from the settings the run recorded. The numbers are of the recorded settings.";
}

struct LoadedDeclarations {
  ReportDeclarations declarations;
  YAML::Node root;  // the config as written, when one was read
};

LoadedDeclarations load_declarations(const std::optional<std::string>& config_path,
                                     const ResultsDocument& results) {
  LoadedDeclarations loaded;
  if (config_path) {
    loaded.root = load_yaml_strictly(read_config_file(*config_path, config_limits().max_file_bytes),
                                     *config_path, config_limits());
    loaded.declarations = parse_report_declarations(loaded.root, YamlLocation{*config_path, ""});
  } else {
    loaded.declarations = parse_report_declarations(
        resolved_config(results), YamlLocation{results.path, "run.config.resolved"});
  }
  return loaded;
}

// Where an experiment's exported files go.
struct ExportPaths {
  fs::path out;
  fs::path figures;
  fs::path plots() const { return out / "plots"; }
};

// Writes the data files and gnuplot script of one figure; false when it has no data.
std::optional<SectionFigure> export_figure(const FigureDeclaration& declaration,
                                           const std::vector<const Record*>& points,
                                           const ExportPaths& paths, const std::string& context) {
  FigureData data;
  try {
    data = extract_figure(declaration, points, context);
  } catch (const NoDataError& error) {
    std::cerr << "convlab export: " << error.what() << "; figure left out\n";
    return std::nullopt;
  }
  GnuplotOutputs outputs;
  for (size_t p = 0; p < data.panels.size(); ++p) {
    const std::string stem =
        declaration.name + (data.panels.size() > 1 ? "--panel" + std::to_string(p + 1) : "");
    const fs::path tsv = paths.out / "data" / (stem + ".tsv");
    write_if_changed(tsv, figure_panel_tsv(data, p));
    outputs.panel_data.push_back(relative_to(tsv, paths.plots()));
  }
  outputs.pdf = relative_to(paths.figures / (declaration.name + ".pdf"), paths.plots());
  outputs.png = relative_to(paths.figures / (declaration.name + ".png"), paths.plots());
  write_if_changed(paths.plots() / (declaration.name + ".gp"), gnuplot_script(data, outputs));
  return SectionFigure{(paths.figures / (declaration.name + ".pdf")).generic_string(),
                       declaration.title + ".", data.panels.size()};
}

std::optional<SectionTable> export_table(const TableDeclaration& declaration,
                                         const std::vector<const Record*>& points,
                                         const fs::path& out, const std::string& context) {
  TableData data;
  try {
    data = extract_table(declaration, points, context);
  } catch (const NoDataError& error) {
    std::cerr << "convlab export: " << error.what() << "; table left out\n";
    return std::nullopt;
  }
  write_if_changed(out / "tables" / (declaration.name + ".tex"), table_latex(data));
  write_if_changed(out / "tables" / (declaration.name + ".tsv"), table_tsv(data));
  return SectionTable{(out / "tables" / (declaration.name + ".tex")).generic_string(),
                      declaration.title + "."};
}

// Removes the files of figures and tables no longer declared, so the report never shows stale ones.
void remove_stale_exports(const ExportPaths& paths, const std::set<std::string>& figure_names,
                          const std::set<std::string>& table_names) {
  remove_stale(paths.plots(), ".gp", figure_names, {paths.figures});
  if (fs::is_directory(paths.out / "data"))
    for (const auto& entry : fs::directory_iterator(paths.out / "data")) {
      const std::string stem = entry.path().stem().string();
      if (!figure_names.count(stem.substr(0, stem.find("--panel")))) fs::remove(entry.path());
    }
  remove_stale(paths.out / "tables", ".tex", table_names, {paths.out / "tables"});
  fs::remove(paths.out / "config.yaml");  // written by earlier versions
}

// A gallery picture as JPEG for print (the PNG stays the lossless record): written when missing
// or older than the PNG; the PNG itself when it cannot be read (the report then shows it as is).
// Anything but a regular file where a picture goes (a FIFO would hang LaTeX) is refused.
std::string print_picture(const fs::path& png, const fs::path& out) {
  const fs::path jpeg = out / "gallery" / (png.stem().string() + ".jpg");
  require_owned_place(png.string());
  require_owned_place(jpeg.string());
  if (fs::exists(jpeg) && fs::exists(png) && fs::last_write_time(jpeg) >= fs::last_write_time(png))
    return jpeg.generic_string();
  try {
    const Image image = load_image_file(png.string(), 3);
    create_folders(jpeg.parent_path().string());
    write_jpeg(jpeg.string(), image.width, image.height, image.channels, image.pixels.data(), 88);
    return jpeg.generic_string();
  } catch (const ImageFileError& error) {
    std::cerr << "convlab export: " << error.what() << "; the gallery shows the PNG\n";
  }
  return png.generic_string();
}

// What a gallery picture was drawn from (results/gallery.hpp), for its caption.
void describe_gallery_source(const json& item, GalleryImage& image) {
  const json& source = item["source"];
  image.implementation = source.value("implementation", "");
  image.output = source.value("output", "");
  image.mapping = item.value("mapping", json::object()).value("kind", "straight");
  image.fallback = item.value("fallback", "");
  for (const auto& count : item.value("identical", json::array()))
    if (count.is_object() && count.value("output", "") == image.output) {
      image.identical = count.value("identical", 0);
      image.ran = count.value("ran", 0);
    }
}

std::vector<GalleryImage> gallery_images(const ResultsDocument& results, const fs::path& out) {
  std::vector<GalleryImage> images;
  const json& gallery = results.file.gallery;
  if (!gallery.is_array()) return images;
  const fs::path directory(results.directory);
  for (const auto& item : gallery) {
    const fs::path display = directory / gallery_display_path(item);
    GalleryImage image;
    image.image = item.value("image", "");
    image.kernel = item.value("kernel", "");
    image.border = item.value("border", "");
    image.input_path = print_picture(directory / item.value("input", ""), out);
    if (display.extension() == ".jpg") require_owned_place(display.string());
    image.output_path = display.extension() == ".jpg" ? display.generic_string()  // print-ready
                                                      : print_picture(display, out);
    if (item.contains("source") && item["source"].is_object()) describe_gallery_source(item, image);
    images.push_back(image);
  }
  return images;
}

// Title, description, config and flags of the section: text cells edited after the run
// (descriptions stating what was measured) come from the config as written.
ExperimentSection section_heading(const std::string& name, const ResultsDocument& results,
                                  const LoadedDeclarations& loaded,
                                  const std::optional<std::string>& config_path) {
  ExperimentSection section;
  section.name = name;
  section.title = results.experiment_text("title", name);
  section.description = results.experiment_text("description", "");
  const YAML::Node& root = loaded.root;
  if (root && root["title"] && root["title"].IsScalar()) section.title = root["title"].Scalar();
  if (root && root["description"] && root["description"].IsScalar())
    section.description = root["description"].Scalar();
  section.verification = summarize_verification(results.file.records);
  section.provenance = run_provenance(results.measuring_runs());
  for (const auto& run : section.provenance) section.flags.unknown_commit |= !run.commit_known;
  if (config_path) {
    section.config_path = *config_path;
    section.config_sha256 = sha256_file_hex(*config_path);
    section.flags.config_change =
        config_change_words(results, *config_path, &section.flags.config_text_only);
  }
  return section;
}

int export_experiment(const ExportOptions& options) {
  const ResultsDocument results = load_results_document(options.results);
  const std::string name =
      results.experiment_text("name", fs::path(results.directory).filename().string());
  const ExportPaths paths{
      options.out ? fs::path(*options.out) : fs::path(results.directory) / "export",
      options.figures ? fs::path(*options.figures) : fs::path(results.directory) / "figures"};
  const auto config_path = config_to_read(options.config, results, name);
  const LoadedDeclarations loaded = load_declarations(config_path, results);

  const auto points = latest_ok_points(results);
  const ReportDeclarations& declared = loaded.declarations;
  const auto figures = declared.has_figures_key ? declared.figures : default_figures(points);
  const auto tables = declared.has_tables_key ? declared.tables : default_tables(points);

  ExperimentSection section = section_heading(name, results, loaded, config_path);
  section.values_path = (paths.out / "values.tex").generic_string();
  std::set<std::string> figure_names, table_names;
  for (const auto& declaration : figures)
    if (auto figure = export_figure(declaration, points, paths,
                                    results.path + ": figure '" + declaration.name + "'")) {
      figure_names.insert(declaration.name);
      section.figures.push_back(*figure);
    }
  for (const auto& declaration : tables)
    if (auto table = export_table(declaration, points, paths.out,
                                  results.path + ": table '" + declaration.name + "'")) {
      table_names.insert(declaration.name);
      section.tables.push_back(*table);
    }
  remove_stale_exports(paths, figure_names, table_names);

  std::vector<ResolvedValue> values;
  if (options.discussion && fs::exists(*options.discussion)) {
    section.discussion_path = fs::path(*options.discussion).generic_string();
    values = resolve_values(find_value_references(read_text(*options.discussion)), points,
                            *options.discussion);
  }
  write_if_changed(paths.out / "values.tex", values_latex(name, values));

  section.gallery = gallery_images(results, paths.out);
  write_if_changed(paths.out / "section.tex", section_latex(section));
  if (section.gallery.empty())
    fs::remove(paths.out / "gallery.tex");
  else
    write_if_changed(paths.out / "gallery.tex", gallery_latex(section));

  std::cout << name << ": " << count_words(section.figures.size(), "figure") << ", "
            << count_words(section.tables.size(), "table") << ", "
            << count_words(values.size(), "quoted value") << " -> " << paths.out.generic_string()
            << "\n";
  return 0;
}

// What --format writes: every record (or those --filter keeps), or the winners table.
struct FlatRequest {
  FlatFormat format = FlatFormat::csv;
  std::optional<std::string> out_file;
  std::optional<PointFilter> filter;
  bool best = false;
  std::optional<std::string> by;
};

// The text of the table and how many rows it has.
std::pair<std::string, size_t> flat_text(const ResultsDocument& results,
                                         const FlatRequest& request) {
  std::ostringstream text;
  if (request.best) {
    std::vector<const Record*> points = latest_ok_points(results);
    if (request.filter) points = select_records(points, *request.filter, results.path);
    if (request.by) {
      const WinnersPivot pivot = pivot_winners(points, *request.by);
      write_pivot(pivot, request.format, text);
      return {text.str(), pivot_flat_table(pivot, request.format).rows.size()};
    }
    const WinnersTable winners = find_winners(results, points);
    write_winners(winners, request.format, text);
    return {text.str(), winners.rows.size()};
  }
  std::vector<const Record*> all;
  for (const Record& record : results.file.records) all.push_back(&record);
  std::vector<Record> records;
  for (const Record* record :
       request.filter ? select_records(all, *request.filter, results.path) : all)
    records.push_back(*record);
  const FlatTable table = flatten_records(records, request.format);
  write_flat_table(table, request.format, text);
  return {text.str(), table.rows.size()};
}

int export_flat(const std::string& results_path, const FlatRequest& request) {
  const ResultsDocument results = load_results_document(results_path);
  std::string text;
  size_t rows = 0;
  try {
    std::tie(text, rows) = flat_text(results, request);
  } catch (const ExportError& error) {
    throw ExportError(std::string("convlab export: ") + error.what());
  }
  if (!request.out_file) {
    std::cout << text;
    return 0;
  }
  write_if_changed(*request.out_file, text, WriteTarget::named);
  std::cerr << *request.out_file << ": " << rows << (request.best ? " rows" : " records") << "\n";
  return 0;
}

// \convlabvalueof{experiment}{filter}{field} references of the summary, per experiment.
std::map<std::string, std::vector<ValueReference>> find_summary_references(const std::string& tex) {
  std::map<std::string, std::vector<ValueReference>> references;
  std::istringstream lines(tex);
  std::string line;
  const std::string command = "\\convlabvalueof{";
  for (int number = 1; std::getline(lines, line); ++number) {
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '%' && (i == 0 || line[i - 1] != '\\')) {
        line.resize(i);
        break;
      }
    for (size_t at = line.find(command); at != std::string::npos; at = line.find(command, at + 1)) {
      std::vector<std::string> groups;
      size_t open = at + command.size() - 1;
      while (groups.size() < 3 && open < line.size() && line[open] == '{') {
        const size_t close = line.find('}', open);
        if (close == std::string::npos) break;
        groups.push_back(line.substr(open + 1, close - open - 1));
        open = close + 1;
      }
      if (groups.size() != 3)
        throw ExportError("line " + std::to_string(number) +
                          ": \\convlabvalueof needs {experiment}{filter}{field} on one line");
      references[groups[0]].push_back(ValueReference{groups[1], groups[2], number});
    }
  }
  return references;
}

struct IndexInputs {
  std::string index_file;
  std::optional<std::string> outline;
  std::optional<std::string> summary;
  std::vector<std::string> results;
};

IndexExperiment index_experiment(const ResultsDocument& results) {
  IndexExperiment experiment;
  experiment.name =
      results.experiment_text("name", fs::path(results.directory).filename().string());
  experiment.title = results.experiment_text("title", experiment.name);
  const fs::path export_dir = fs::path(results.directory) / "export";
  experiment.section_path = (export_dir / "section.tex").generic_string();
  if (!fs::exists(experiment.section_path))
    throw ExportError(experiment.section_path + ": missing; run convlab export " + results.path +
                      " first");
  if (fs::exists(export_dir / "gallery.tex"))
    experiment.gallery_path = (export_dir / "gallery.tex").generic_string();
  if (const auto config = config_to_read(std::string("auto"), results, experiment.name))
    experiment.config_path = *config;
  experiment.provenance = run_provenance(results.measuring_runs());
  experiment.verification = summarize_verification(results.file.records);
  return experiment;
}

// Experiments in the outline's order; those it does not name follow in a part of their own.
std::vector<IndexPart> order_parts(const std::optional<ReportOutline>& outline,
                                   std::vector<IndexExperiment> experiments) {
  std::vector<IndexPart> parts;
  if (outline)
    for (const auto& declared : outline->parts) {
      IndexPart part{declared.title, declared.claim, declared.extension, {}};
      for (const auto& name : declared.experiments) {
        const auto it = std::find_if(experiments.begin(), experiments.end(),
                                     [&](const IndexExperiment& e) { return e.name == name; });
        if (it == experiments.end()) continue;
        part.experiments.push_back(*it);
        experiments.erase(it);
      }
      parts.push_back(part);
    }
  if (!experiments.empty())
    parts.push_back(IndexPart{outline ? "Further experiments" : "Experiments", "",
                              outline.has_value(), experiments});
  return parts;
}

// The summary's figures: each draws the ok points of the experiments its `from` names.
std::vector<SectionFigure> export_summary_figures(
    const ReportOutline& outline, const std::map<std::string, ResultsDocument>& documents,
    const fs::path& generated) {
  std::vector<SectionFigure> figures;
  const ExportPaths paths{generated / "export", generated / "figures"};
  std::set<std::string> names;
  for (const auto& declaration : outline.summary_figures) {
    std::vector<const Record*> points;
    for (const auto& from : declaration.from) {
      const auto it = documents.find(from);
      if (it == documents.end()) continue;
      const auto more = latest_ok_points(it->second);
      points.insert(points.end(), more.begin(), more.end());
    }
    if (points.empty()) continue;
    if (auto figure = export_figure(declaration, points, paths,
                                    "summary figure '" + declaration.name + "'")) {
      names.insert(declaration.name);
      figures.push_back(*figure);
    }
  }
  remove_stale_exports(paths, names, {});
  return figures;
}

std::string summary_values(const std::string& summary_path,
                           const std::map<std::string, ResultsDocument>& documents) {
  std::ostringstream out;
  out << "% Values the summary quotes with \\convlabvalueof, generated by convlab export "
         "--index.\n";
  for (const auto& [experiment, references] : find_summary_references(read_text(summary_path))) {
    const auto it = documents.find(experiment);
    if (it == documents.end()) {
      // The summary still builds where an experiment was not run; the gap is shown, not hidden.
      std::cerr << "convlab export: " << summary_path << ": experiment '" << experiment
                << "' has no results; its values read \"no results\"\n";
      for (const auto& reference : references)
        out << "\\convlabdefinevalue{" << experiment << "}{" << reference.filter << "}{"
            << reference.field << "}{\\convlabflag{no results}}\n";
      continue;
    }
    const auto points = latest_ok_points(it->second);
    out << values_latex(experiment, resolve_values(references, points, summary_path));
  }
  return out.str();
}

int export_index(const IndexInputs& inputs) {
  std::map<std::string, ResultsDocument> documents;
  std::vector<IndexExperiment> experiments;
  for (const auto& path : inputs.results) {
    ResultsDocument results = load_results_document(path);
    IndexExperiment experiment = index_experiment(results);
    documents.emplace(experiment.name, std::move(results));
    experiments.push_back(experiment);
  }
  std::optional<ReportOutline> outline;
  if (inputs.outline) outline = load_report_outline(*inputs.outline);
  const fs::path generated = fs::path(inputs.index_file).parent_path();
  IndexFront front;
  if (outline) front.figures = export_summary_figures(*outline, documents, generated);
  if (inputs.summary) {
    front.summary_path = *inputs.summary;
    front.summary_values_path = (generated / "summary-values.tex").generic_string();
    write_if_changed(front.summary_values_path, summary_values(*inputs.summary, documents));
  }
  write_if_changed(inputs.index_file, index_latex(front, order_parts(outline, experiments)),
                   WriteTarget::named);
  return 0;
}

}  // namespace

int export_command(const std::vector<std::string>& args) {
  ExportOptions options;
  std::optional<std::string> index, outline, summary;
  std::optional<FlatFormat> format;
  FlatRequest flat;
  std::vector<std::string> positional;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kExportHelp;
        return 0;
      }
      const auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) throw ExportError("convlab export: " + arg + " needs a value");
        return args[++i];
      };
      if (arg == "--out")
        options.out = value();
      else if (arg == "--figures")
        options.figures = value();
      else if (arg == "--config")
        options.config = value();
      else if (arg == "--discussion")
        options.discussion = value();
      else if (arg == "--index")
        index = value();
      else if (arg == "--outline")
        outline = value();
      else if (arg == "--summary")
        summary = value();
      else if (arg == "--filter") {
        const std::string text = value();
        std::string error;
        flat.filter = parse_point_filter(text, &error);
        if (!flat.filter) throw ExportError("convlab export: --filter: " + error);
      } else if (arg == "--best")
        flat.best = true;
      else if (arg == "--by")
        flat.by = value();
      else if (arg == "--format") {
        const std::string text = value();
        format = parse_flat_format(text);
        if (!format)
          throw ExportError("convlab export: --format: '" + text + "' is not csv, md or tsv");
      } else if (!arg.empty() && arg[0] == '-')
        throw ExportError("convlab export: unknown option " + arg + " (see convlab export --help)");
      else
        positional.push_back(arg);
    }
    if (index) {
      if (positional.empty())
        throw ExportError("convlab export --index: name at least one results file");
      return export_index(IndexInputs{*index, outline, summary, positional});
    }
    if (positional.size() != 1)
      throw ExportError("convlab export: expected one results.json or directory (see --help)");
    options.results = positional[0];
    if (format) {
      if (options.figures || options.config || options.discussion)
        throw ExportError(
            "convlab export: --format writes one table; --figures, --config and --discussion "
            "are for the report export");
      if (flat.by && !flat.best)
        throw ExportError("convlab export: --by pivots the winners table; give --best with it");
      flat.format = *format;
      flat.out_file = options.out;
      return export_flat(options.results, flat);
    }
    if (flat.filter || flat.best || flat.by)
      throw ExportError(
          "convlab export: --filter, --best and --by choose the rows of --format csv|md|tsv; "
          "the report export takes its points from the config's figures and tables");
    return export_experiment(options);
  } catch (const ConfigError& error) {
    std::cerr << error.what() << "\n";
  } catch (const ExportError& error) {
    std::cerr << error.what() << "\n";
  } catch (const FileError& error) {
    std::cerr << "convlab export: " << error.what() << "\n";
  } catch (const fs::filesystem_error& error) {
    std::cerr << "convlab export: " << error.what() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "convlab export: " << (options.results.empty() ? "" : options.results + ": ")
              << error.what() << "\n";
  }
  return 2;
}

}  // namespace convlab

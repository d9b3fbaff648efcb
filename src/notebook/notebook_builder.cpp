#include "notebook/notebook_builder.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_error.hpp"
#include "config/yaml_load.hpp"
#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "core/shell_quote.hpp"
#include "figures/declarations.hpp"
#include "notebook/freshness.hpp"
#include "notebook/gallery_cell.hpp"
#include "notebook/source_cell.hpp"
#include "results/record_queries.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A discussion is prose, a config a page or two: anything larger is not one.
constexpr size_t kMaxTextBytes = size_t(16) << 20;

std::string read_text(const std::string& path) {
  return read_file(path, kMaxTextBytes);
}

const json& resolved_config(const ResultsDocument& results) {
  static const json none = json::object();
  return results.latest_run ? results.latest_run->resolved_config : none;
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

// A text key of the config as written (edited after the run), else of the results.
std::string config_text(const YAML::Node& root, const char* key, const std::string& recorded) {
  if (root && root[key] && root[key].IsScalar()) return root[key].Scalar();
  return recorded;
}

// Settings as indented "key: value" lines, in the order the run recorded them.
void settings_lines(const json& value, const std::string& indent, std::string& out) {
  for (auto it = value.begin(); it != value.end(); ++it) {
    out += indent + it.key() + ":";
    if (it->is_object()) {
      out += "\n";
      settings_lines(*it, indent + "  ", out);
    } else {
      out += " " + (it->is_string() ? it->get<std::string>() : it->dump()) + "\n";
    }
  }
}

ConfigCell config_cell(const ResultsDocument& results,
                       const std::optional<std::string>& config_path) {
  ConfigCell cell;
  cell.recorded_sha256 = results.latest_run ? results.latest_run->config_sha256 : "";
  if (config_path) {
    cell.path = *config_path;
    cell.text = read_text(*config_path);
    cell.sha256 = sha256_hex(cell.text);
    cell.rerun_command = "make experiment CONFIG=" + shell_word(*config_path);
  } else {
    // The file is gone: what the run recorded is all there is.
    cell.text = resolved_config(results).dump(2);
  }
  return cell;
}

RunCell run_cell(const ResultsDocument& results) {
  RunCell cell;
  const auto runs = results.measuring_runs();
  cell.runs = run_provenance(runs);
  for (const RunBlock& run : runs) {
    const std::string build = run.build_id().substr(0, 12);
    if (!build.empty() &&
        std::find(cell.builds.begin(), cell.builds.end(), build) == cell.builds.end())
      cell.builds.push_back(build);
  }
  const std::string latest = results.latest_run ? results.latest_run->id : "";
  cell.latest = latest_run_counts(results.file.records, latest);
  const json& measure = resolved_config(results).value("measure", json::object());
  if (measure.is_object()) settings_lines(measure, "", cell.measure);
  cell.skip_reasons = summarize_verification(results.file.records).skip_reasons;
  for (const Record& record : results.file.records) {
    if (!record.timing) continue;
    ++cell.measured;
    const double cv = record.timing->compute.stats.cv;
    if (cv > RunCell::kNoisyCv) cell.noisy.push_back({describe_point(record), cv});
  }
  std::stable_sort(cell.noisy.begin(), cell.noisy.end(),
                   [](const NoisyPoint& a, const NoisyPoint& b) { return a.cv > b.cv; });
  return cell;
}

// A figure or table cell per declaration, its data extracted from the points; one with no data
// is left out with a note.
template <typename Cell, typename Declaration, typename Extract>
void add_declared_cells(const std::vector<Declaration>& declarations,
                        const std::vector<const Record*>& points, const ResultsDocument& results,
                        const char* kind, Extract extract, ExperimentNotebook& notebook) {
  for (const auto& declaration : declarations) {
    try {
      Cell cell;
      cell.data =
          extract(declaration, points, results.path + ": " + kind + " '" + declaration.name + "'");
      cell.caption = declaration.title + ".";
      notebook.cells.emplace_back(std::move(cell));
    } catch (const NoDataError& error) {
      notebook.notes.push_back(std::string(error.what()) + "; " + kind + " left out");
    }
  }
}

void add_figures(const std::vector<FigureDeclaration>& declarations,
                 const std::vector<const Record*>& points, const ResultsDocument& results,
                 ExperimentNotebook& notebook) {
  add_declared_cells<FigureCell>(declarations, points, results, "figure", extract_figure, notebook);
}

void add_tables(const std::vector<TableDeclaration>& declarations,
                const std::vector<const Record*>& points, const ResultsDocument& results,
                ExperimentNotebook& notebook) {
  add_declared_cells<TableCell>(declarations, points, results, "table", extract_table, notebook);
}

MarkdownCell discussion_cell(const std::string& path, const std::vector<const Record*>& points) {
  MarkdownCell cell;
  cell.role = MarkdownCell::Role::discussion;
  cell.path = fs::path(path).generic_string();
  cell.document = parse_markdown(read_text(path), cell.path);
  cell.values = resolve_values(cell.document.values, points, cell.path);
  return cell;
}

}  // namespace

std::vector<std::string> MarkdownCell::value_texts() const {
  std::vector<std::string> texts;
  for (const auto& value : values) texts.push_back(value.text);
  return texts;
}

const MarkdownCell* ExperimentNotebook::markdown(MarkdownCell::Role role) const {
  for (const MarkdownCell* cell : cells_of<MarkdownCell>())
    if (cell->role == role) return cell;
  return nullptr;
}

std::string experiment_name(const ResultsDocument& results) {
  return results.experiment_text("name", fs::path(results.directory).filename().string());
}

ExperimentNotebook build_notebook(const ResultsDocument& results, const NotebookSources& sources) {
  ExperimentNotebook notebook;
  notebook.name = experiment_name(results);
  notebook.results_path = results.path;
  const auto config_path = config_to_read(sources.config, results, notebook.name);
  const LoadedDeclarations loaded = load_declarations(config_path, results);
  notebook.title =
      config_text(loaded.root, "title", results.experiment_text("title", notebook.name));
  notebook.freshness = assess_freshness(results, config_path);

  MarkdownCell description;
  description.document = plain_text_document(
      config_text(loaded.root, "description", results.experiment_text("description", "")));
  notebook.cells.emplace_back(std::move(description));
  ConfigCell config = config_cell(results, config_path);
  config.same_content = !notebook.freshness.config_changed;
  notebook.cells.emplace_back(std::move(config));
  for (SourceCell& source : source_cells(results)) notebook.cells.emplace_back(std::move(source));
  notebook.cells.emplace_back(run_cell(results));

  const auto points = latest_ok_points(results);
  const ReportDeclarations& declared = loaded.declarations;
  add_figures(declared.has_figures_key ? declared.figures : default_figures(points), points,
              results, notebook);
  add_tables(declared.has_tables_key ? declared.tables : default_tables(points), points, results,
             notebook);
  GalleryCell gallery = gallery_cell(results);
  if (!gallery.groups.empty()) notebook.cells.emplace_back(std::move(gallery));
  notebook.cells.emplace_back(
      VerificationCell{summarize_verification(results.file.records),
                       verification_by_implementation(results.file.records)});
  if (sources.discussion && fs::exists(*sources.discussion))
    notebook.cells.emplace_back(discussion_cell(*sources.discussion, points));
  return notebook;
}

}  // namespace convlab

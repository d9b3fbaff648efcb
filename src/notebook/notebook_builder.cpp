#include "notebook/notebook_builder.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_error.hpp"
#include "config/yaml_load.hpp"
#include "core/closest_name.hpp"
#include "core/file_io.hpp"
#include "core/gzip_reader.hpp"
#include "core/sha256.hpp"
#include "core/shell_quote.hpp"
#include "figures/declarations.hpp"
#include "notebook/freshness.hpp"
#include "notebook/gallery_cell.hpp"
#include "notebook/search_table.hpp"
#include "notebook/source_cell.hpp"
#include "query/other_versions.hpp"
#include "query/record_queries.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A discussion is prose: anything larger is not one.
constexpr size_t kMaxTextBytes = size_t(16) << 20;

std::string read_text(const std::string& path) {
  return read_file(path, kMaxTextBytes);
}

const json& resolved_config(const ResultsDocument& results) {
  static const json none = json::object();
  return results.latest_run ? results.latest_run->resolved_config : none;
}

// The declarations of the config as it is now, else of the copy the run recorded.
ReportDeclarations declarations_of(const ExperimentConfig* config, const ResultsDocument& results) {
  if (config) return config->declarations;
  return parse_report_declarations(resolved_config(results),
                                   YamlLocation{results.path, "run.config.resolved"});
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

// The cell of a config file as read: its path, text, hash and the command that runs it.
ConfigCell file_cell(const ConfigFile& file) {
  ConfigCell cell;
  cell.path = file.path;
  cell.text = file.text;
  cell.sha256 = file.sha256;
  cell.rerun_command = "make experiment CONFIG=" + shell_word(file.path);
  return cell;
}

ConfigCell config_cell(const ResultsDocument& results, const ExperimentConfig* config) {
  ConfigCell cell = config ? file_cell(config->file) : ConfigCell{};
  // A compressed results file is read but not added to (store/results_file.hpp): the command
  // decompresses it first.
  if (config && is_gzip_path(results.path))
    cell.rerun_command = "gzip -dk " + shell_word(results.path) + " && " + cell.rerun_command;
  cell.recorded_sha256 = results.latest_run ? results.latest_run->config_sha256 : "";
  if (!config) {
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
  cell.skip_reasons = summarize_verification(results).skip_reasons;
  for (const Record& record : results.file.records) {
    if (!record.timing) continue;
    ++cell.measured;
    const double cv = record.timing->compute.stats.cv;
    if (cv > RunCell::kNoisyCv) cell.noisy.push_back({point_in_words(record), cv});
  }
  std::stable_sort(cell.noisy.begin(), cell.noisy.end(),
                   [](const NoisyPoint& a, const NoisyPoint& b) { return a.cv > b.cv; });
  return cell;
}

// What a caption adds when cells reduced the points of several images into one (reduce: min over
// photographs the figure does not tell apart): " Each point is the min over 3 images (...)".
std::string merged_images_note(const FigureData& data) {
  const std::string words = merged_images_words(data);
  return words.empty() ? "" : " " + words;
}

std::string merged_images_note(const TableData& data) {
  const std::string words =
      merged_images_words(data.grid.merged_images, data.declaration.reduce, "cell");
  return words.empty() ? "" : " " + words;
}

// A figure or table cell per declaration, its data extracted from the points; one with no data
// is left out with a note, and an omitted cell stands where it would have been.
template <typename Cell, typename Declaration, typename Extract>
void add_declared_cells(const std::vector<Declaration>& declarations,
                        const std::vector<const Record*>& points, const ResultsDocument& results,
                        OmittedCell::Kind kind, Extract extract, ExperimentNotebook& notebook) {
  const std::string kind_word = kind == OmittedCell::Kind::figure ? "figure" : "table";
  for (const auto& declaration : declarations) {
    try {
      Cell cell;
      cell.data = extract(declaration, points,
                          results.path + ": " + kind_word + " '" + declaration.name + "'");
      cell.caption = declaration.title + "." + merged_images_note(cell.data);
      notebook.cells.emplace_back(std::move(cell));
    } catch (const NoDataError& error) {
      notebook.notes.push_back(std::string(error.what()) + "; " + kind_word + " left out");
      notebook.cells.emplace_back(
          OmittedCell{kind, declaration.name, declaration.title + ".", error.what()});
    }
  }
}

void add_figures(const std::vector<FigureDeclaration>& declarations,
                 const std::vector<const Record*>& points, const ResultsDocument& results,
                 ExperimentNotebook& notebook) {
  add_declared_cells<FigureCell>(declarations, points, results, OmittedCell::Kind::figure,
                                 extract_figure, notebook);
}

void add_tables(const std::vector<TableDeclaration>& declarations,
                const std::vector<const Record*>& points, const ResultsDocument& results,
                ExperimentNotebook& notebook) {
  add_declared_cells<TableCell>(declarations, points, results, OmittedCell::Kind::table,
                                extract_table, notebook);
}

MarkdownCell discussion_cell(const std::string& path, const ValueContext& context) {
  MarkdownCell cell;
  cell.role = MarkdownCell::Role::discussion;
  cell.path = fs::path(path).generic_string();
  cell.document = parse_markdown(read_text(path), cell.path);
  cell.values = resolve_values(cell.document.values, context, cell.path);
  return cell;
}

// The name of a figure or table cell (also of one left out), or empty for other cells.
std::string declared_name(const NotebookCell& cell, OmittedCell::Kind kind) {
  if (const auto* omitted = std::get_if<OmittedCell>(&cell))
    return omitted->kind == kind ? omitted->name : "";
  if (const auto* figure = std::get_if<FigureCell>(&cell))
    return kind == OmittedCell::Kind::figure ? figure->data.declaration.name : "";
  if (const auto* table = std::get_if<TableCell>(&cell))
    return kind == OmittedCell::Kind::table ? table->data.declaration.name : "";
  return "";
}

template <typename T>
std::vector<size_t> indices_of(const std::vector<NotebookCell>& cells) {
  std::vector<size_t> found;
  for (size_t i = 0; i < cells.size(); ++i)
    if (std::holds_alternative<T>(cells[i])) found.push_back(i);
  return found;
}

// "no figure 'nme' (did you mean 'name'?)"
std::string unknown_declaration(const std::vector<NotebookCell>& cells, const CellPlacement& p) {
  const auto kind =
      p.kind == CellPlacement::Kind::figure ? OmittedCell::Kind::figure : OmittedCell::Kind::table;
  std::vector<std::string> names;
  for (const auto& cell : cells)
    if (const std::string name = declared_name(cell, kind); !name.empty()) names.push_back(name);
  const std::string word = placement_word(p.kind);
  const std::string close = closest_name(p.name, names);
  if (names.empty()) return "no " + word + " '" + p.name + "': the experiment has no " + word + "s";
  if (!close.empty()) return "no " + word + " '" + p.name + "' (did you mean '" + close + "'?)";
  std::string listed;
  for (const auto& name : names) listed += (listed.empty() ? "" : ", ") + name;
  return "no " + word + " '" + p.name + "' (the " + word + "s are " + listed + ")";
}

// The cells of `cells` a placement names; throws ResultsError for one the notebook lacks.
std::vector<size_t> placed_cells(const std::vector<NotebookCell>& cells, const CellPlacement& p,
                                 const std::string& file) {
  using Kind = CellPlacement::Kind;
  std::vector<size_t> found;
  std::string missing;
  switch (p.kind) {
    case Kind::figure:
    case Kind::table: {
      const auto kind =
          p.kind == Kind::figure ? OmittedCell::Kind::figure : OmittedCell::Kind::table;
      for (size_t i = 0; i < cells.size(); ++i)
        if (declared_name(cells[i], kind) == p.name) found.push_back(i);
      if (found.empty()) missing = unknown_declaration(cells, p);
      break;
    }
    case Kind::config:
      found = indices_of<ConfigCell>(cells);
      break;
    case Kind::run:
      found = indices_of<RunCell>(cells);
      break;
    case Kind::verification:
      found = indices_of<VerificationCell>(cells);
      break;
    case Kind::gallery:
      found = indices_of<GalleryCell>(cells);
      missing = "no gallery: the experiment saved no outputs (save_outputs: true)";
      break;
    case Kind::sources:
      found = indices_of<SourceCell>(cells);
      missing = "no kernel source: the config names no kernel of its own (docs/own-kernels.md)";
      break;
    case Kind::query:  // made where it is placed (place_cells), not found among the others
      break;
  }
  if (found.empty())
    throw ResultsError(file + ":" + std::to_string(p.line) + ": " + placement_text(p) + ": " +
                       (missing.empty() ? "the notebook has no such cell" : missing));
  return found;
}

// The discussion's top-level blocks [from, to) as a part of its own.
MarkdownCell discussion_part(const MarkdownCell& whole, size_t from, size_t to, size_t part) {
  MarkdownCell cell;
  cell.role = MarkdownCell::Role::discussion;
  cell.path = whole.path;
  cell.part = part;
  cell.document.file = whole.document.file;
  cell.document.values = whole.document.values;
  cell.document.blocks.assign(whole.document.blocks.begin() + static_cast<long>(from),
                              whole.document.blocks.begin() + static_cast<long>(to));
  cell.values = whole.values;
  return cell;
}

// The page as the discussion lays it out: after the description, its parts with the cells it
// places between them; then every cell it does not place, in the order they had.
void place_cells(ExperimentNotebook& notebook, MarkdownCell discussion,
                 const ResultsDocument& results, const ValueContext& context) {
  std::vector<NotebookCell> others(std::make_move_iterator(notebook.cells.begin() + 1),
                                   std::make_move_iterator(notebook.cells.end()));
  notebook.cells.resize(1);
  std::vector<int> placed_at(others.size(), 0);  // the line that placed each cell
  size_t from = 0, parts = 0;
  const auto add_part = [&](size_t to) {
    if (to > from) notebook.cells.emplace_back(discussion_part(discussion, from, to, parts++));
    from = to;
  };
  for (const PlacedCell& placed : discussion.document.placed) {
    add_part(placed.before);
    if (placed.placement.kind == CellPlacement::Kind::query) {
      notebook.cells.emplace_back(query_cell(placed.placement.name, results, context,
                                             discussion.path, placed.placement.line));
      continue;
    }
    for (const size_t index : placed_cells(others, placed.placement, discussion.path)) {
      if (placed_at[index] != 0)
        throw ResultsError(discussion.path + ":" + std::to_string(placed.placement.line) + ": " +
                           placement_text(placed.placement) + ": placed already, on line " +
                           std::to_string(placed_at[index]));
      placed_at[index] = placed.placement.line;
      notebook.cells.push_back(others[index]);
    }
  }
  add_part(discussion.document.blocks.size());
  notebook.placed_until = notebook.cells.size();
  for (size_t i = 0; i < others.size(); ++i)
    if (placed_at[i] == 0) notebook.cells.push_back(std::move(others[i]));
}

void add_discussion(ExperimentNotebook& notebook, const std::string& path,
                    const ResultsDocument& results, const ValueContext& context) {
  MarkdownCell discussion = discussion_cell(path, context);
  if (discussion.document.placed.empty())
    notebook.cells.emplace_back(std::move(discussion));
  else
    place_cells(notebook, std::move(discussion), results, context);
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

namespace {

// Those of `others` whose implementation is one of `implementations`.
std::vector<OtherVersions> others_of(const std::vector<OtherVersions>& others,
                                     const std::vector<std::string>& implementations) {
  std::vector<OtherVersions> kept;
  for (const OtherVersions& other : others)
    if (std::find(implementations.begin(), implementations.end(), other.implementation) !=
        implementations.end())
      kept.push_back(other);
  return kept;
}

}  // namespace

std::string experiment_name(const ResultsDocument& results) {
  return results.experiment_text("name", fs::path(results.directory).filename().string());
}

namespace {

// A config on disk that does not load: shown as written, the results' copy declaring the rest.
void note_invalid_config(ExperimentNotebook& notebook, const ConfigFile& file) {
  Freshness& fresh = notebook.freshness;
  fresh.config_gone = false;
  fresh.config_changed = true;
  fresh.change_words = file.path +
                       " does not load (the error is above): figures and tables are drawn as the "
                       "config of the last run declares them.";
  for (auto& cell : notebook.cells)
    if (auto* config = std::get_if<ConfigCell>(&cell)) {
      const std::string recorded = config->recorded_sha256;
      *config = file_cell(file);
      config->recorded_sha256 = recorded;
      config->same_content = false;
    }
}

}  // namespace

std::vector<DerivedColumn> derived_columns_of(const ResultsDocument& results,
                                              const std::optional<std::string>& config) {
  const auto path = config_to_read(config, results, experiment_name(results));
  if (!path) return declarations_of(nullptr, results).derive;
  return declared_config(read_config(*path)).declarations.derive;
}

ExperimentNotebook config_notebook(const std::string& name, const ConfigFile& file) {
  ExperimentNotebook notebook;
  notebook.name = name;
  notebook.title = name;
  notebook.cells.emplace_back(MarkdownCell{});
  ConfigCell config = file_cell(file);
  config.same_content = true;
  notebook.cells.emplace_back(std::move(config));
  return notebook;
}

ExperimentNotebook build_notebook(const ResultsDocument& given, const NotebookSources& sources) {
  ExperimentNotebook notebook;
  notebook.name = experiment_name(given);
  notebook.results_path = given.path;
  // A config on disk that does not load declares nothing: the results' copy does.
  const ExperimentConfig* loaded = sources.invalid_config ? nullptr : sources.config.get();
  const ReportDeclarations declared = declarations_of(loaded, given);
  const YAML::Node root = loaded ? loaded->root : YAML::Node();
  const ResultsDocument* computed = &given;
  if (!declared.derive.empty()) {
    auto copy = std::make_shared<ResultsDocument>(given);
    compute_derived_columns(*copy, declared.derive);
    notebook.derived_results = copy;
    computed = copy.get();
  }
  const ResultsDocument& results = *computed;
  notebook.title = config_text(root, "title", results.experiment_text("title", notebook.name));
  notebook.freshness = assess_freshness(results, loaded);

  MarkdownCell description;
  description.document = plain_text_document(
      config_text(root, "description", results.experiment_text("description", "")));
  notebook.cells.emplace_back(std::move(description));
  ConfigCell config = config_cell(results, loaded);
  config.same_content = !notebook.freshness.config_changed;
  notebook.cells.emplace_back(std::move(config));
  const std::vector<OtherVersions> others = other_versions_of(given);
  notebook.other_versions = other_versions_words(others);
  for (SourceCell& source : source_cells(results)) {
    source.other_versions = other_versions_words(others_of(others, source.implementations));
    notebook.cells.emplace_back(std::move(source));
  }
  notebook.cells.emplace_back(run_cell(results));

  const auto points = latest_ok_points(results);
  add_figures(declared.has_figures_key ? declared.figures : default_figures(points), points,
              results, notebook);
  add_tables(declared.has_tables_key ? declared.tables : default_tables(points), points, results,
             notebook);
  if (auto searches = search_table_cell(results.file.records))
    notebook.cells.emplace_back(std::move(*searches));
  GalleryCell gallery = gallery_cell(results);
  if (!gallery.groups.empty()) notebook.cells.emplace_back(std::move(gallery));
  notebook.cells.emplace_back(VerificationCell{
      summarize_verification(results), verification_by_implementation(results.file.records)});
  if (sources.invalid_config) note_invalid_config(notebook, *sources.invalid_config);
  if (sources.discussion && fs::exists(*sources.discussion))
    add_discussion(notebook, *sources.discussion, results,
                   ValueContext{points, latest_points(results), declared.derive});
  return notebook;
}

}  // namespace convlab

// convlab export: results.json -> TSV data, gnuplot scripts, LaTeX tables and the experiment's
// report section. Files whose content did not change are left untouched, so make and the figure
// renderer (scripts/report/render-figures.sh) redo only what is stale.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "config/config_error.hpp"
#include "config/yaml_load.hpp"
#include "report/commands.hpp"
#include "report/declarations.hpp"
#include "report/discussion_values.hpp"
#include "report/figure_data.hpp"
#include "report/flat_table.hpp"
#include "report/latex_writer.hpp"
#include "report/plot_writers.hpp"
#include "report/record_fields.hpp"
#include "report/report_summary.hpp"
#include "report/results_document.hpp"
#include "results/gallery.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

const char* const kExportHelp =
    R"(usage: convlab export RESULTS [--out DIR] [--figures DIR] [--config FILE] [--discussion FILE]
       convlab export RESULTS --format csv|md|tsv [--out FILE]
       convlab export --index FILE RESULTS...

Turns a results.json (or the directory holding it) into what the report needs:
  DIR/data/<figure>.tsv      the numbers each figure plots (tab-separated, a header row, full precision)
  DIR/plots/<figure>.gp      gnuplot script writing FIGURES/<figure>.pdf and .png
  DIR/tables/<table>.tex     booktabs table (and .tsv with the same numbers)
  DIR/config.yaml            the resolved config, shown as the section's code cell
  DIR/values.tex             the numbers the discussion quotes with \convlabvalue
  DIR/section.tex            the experiment's report section; DIR/gallery.tex with saved images

Figures and tables come from the config's figures: and tables: (docs/report.md); without
declarations, median time and speedup against image size are made.

  --out DIR          where to write (default: <results dir>/export)
  --figures DIR      where the scripts render figures (default: <results dir>/figures)
  --config FILE      read figures:/tables: from this config instead of the copy in results.json,
                     so edited declarations apply without re-running; "auto": the config path
                     the run recorded, when that file exists
  --discussion FILE  the experiment's prose (experiments/<name>.tex); each \convlabvalue{filter}{field}
                     in it must match exactly one ok point
  --index FILE       write the report's front part and section list for the given results

With --format, one flat row per record instead (to FILE, or to standard output): implementation,
params.*, image.*, kernel.*, border, output, status, reason, repetitions, timing statistics in ms,
the device phases' medians, derived metrics and verification. csv and tsv keep full precision; md
is a table for people, with four significant digits.
Exit codes: 0 written, 2 bad input (the message names the file and key).
)";

// Writes only when the content differs, keeping modification times of unchanged files.
void write_if_changed(const fs::path& path, const std::string& content) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream existing;
      existing << in.rdbuf();
      if (existing.str() == content) return;
    }
  }
  fs::create_directories(path.parent_path());
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out << content;
    if (!out) throw ExportError(path.generic_string() + ": cannot write");
  }
  fs::rename(temporary, path);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string relative_to(const fs::path& target, const fs::path& base) {
  return fs::absolute(target)
      .lexically_normal()
      .lexically_relative(fs::absolute(base).lexically_normal())
      .generic_string();
}

// A small YAML emitter for the code cell: block maps and lists, flow lists of scalars, strings
// quoted JSON-style (valid YAML) where a plain scalar could be misread.
std::string yaml_scalar(const ordered_json& value) {
  if (!value.is_string()) return value.dump();
  const std::string text = value.get<std::string>();
  const bool plain = !text.empty() &&
                     text.find_first_of(":#{}[],&*!|>'\"%@`\n") == std::string::npos &&
                     text.front() != ' ' && text.back() != ' ' && text.front() != '-' &&
                     text != "true" && text != "false" && text != "null" && text != "yes" &&
                     text != "no" && !std::isdigit(static_cast<unsigned char>(text.front()));
  return plain ? text : value.dump();
}

bool is_flat_list(const ordered_json& value) {
  if (!value.is_array()) return false;
  for (const auto& item : value)
    if (item.is_object() || (item.is_array() && !is_flat_list(item))) return false;
  return true;
}

std::string flow(const ordered_json& value) {
  if (!value.is_array()) return yaml_scalar(value);
  std::string text = "[";
  for (size_t i = 0; i < value.size(); ++i) text += (i ? ", " : "") + flow(value[i]);
  return text + "]";
}

// A long flow sequence folded after commas so the listing has no line wider than the page (and
// none long enough to overflow TeX's dimensions); YAML allows a flow sequence over several lines.
std::string folded_flow(const ordered_json& value, int indent) {
  constexpr size_t kWidth = 96;
  const std::string text = flow(value);
  if (text.size() + static_cast<size_t>(indent) <= kWidth) return text;
  const std::string continuation = "\n" + std::string(static_cast<size_t>(indent) + 4, ' ');
  std::string folded;
  size_t line = static_cast<size_t>(indent);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(", ", start);
    end = end == std::string::npos ? text.size() : end + 2;
    const std::string piece = text.substr(start, end - start);
    if (line + piece.size() > kWidth && !folded.empty()) {
      while (!folded.empty() && folded.back() == ' ') folded.pop_back();
      folded += continuation;
      line = static_cast<size_t>(indent) + 4;
    }
    folded += piece;
    line += piece.size();
    start = end;
  }
  return folded;
}

void emit_yaml(std::ostringstream& out, const ordered_json& value, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      out << pad << it.key() << ":";
      const auto& child = it.value();
      if (child.is_object() && !child.empty()) {
        out << "\n";
        emit_yaml(out, child, indent + 2);
      } else if (child.is_array() && !is_flat_list(child)) {
        out << "\n";
        emit_yaml(out, child, indent + 2);
      } else {
        out << " " << (child.is_object() ? "{}" : folded_flow(child, indent)) << "\n";
      }
    }
  } else if (value.is_array()) {
    for (const auto& item : value) {
      if (item.is_object() && !item.empty()) {
        std::ostringstream nested;
        emit_yaml(nested, item, indent + 2);
        std::string text = nested.str();
        text.replace(static_cast<size_t>(indent), 2, "- ");
        out << text;
      } else {
        out << pad << "- " << flow(item) << "\n";
      }
    }
  }
}

std::string resolved_config_yaml(const std::string& results_path) {
  std::ifstream in(results_path);
  const ordered_json ordered = ordered_json::parse(in);
  std::ostringstream out;
  const ordered_json* resolved = nullptr;
  if (ordered.contains("run") && ordered["run"].contains("config") &&
      ordered["run"]["config"].contains("resolved"))
    resolved = &ordered["run"]["config"]["resolved"];
  if (resolved == nullptr || !resolved->is_object())
    return "# results.json holds no resolved config\n";
  // Runs of earlier versions resolved kernels with their full weight arrays; the listing shows
  // what defines them (type, size, parameters), from which the weights follow.
  ordered_json listed = *resolved;
  if (listed.contains("kernels") && listed["kernels"].is_array())
    for (auto& kernel : listed["kernels"])
      if (kernel.is_object()) kernel.erase("weights");
  emit_yaml(out, listed, 0);
  return out.str();
}

const json& resolved_config(const json& results) {
  static const json none = json::object();
  if (results.contains("run") && results["run"].contains("config") &&
      results["run"]["config"].contains("resolved"))
    return results["run"]["config"]["resolved"];
  return none;
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

int export_experiment(const ExportOptions& options) {
  const ResultsDocument results = load_results_document(options.results);
  const json& content = results.content;
  const json experiment = content.value("experiment", json::object());
  const std::string name =
      experiment.value("name", fs::path(results.directory).filename().string());
  const fs::path out =
      options.out ? fs::path(*options.out) : fs::path(results.directory) / "export";
  const fs::path figures_dir =
      options.figures ? fs::path(*options.figures) : fs::path(results.directory) / "figures";

  std::optional<std::string> config_path = options.config;
  if (config_path && *config_path == "auto") {
    // The config this results file was run from, when it is still where the run found it.
    config_path.reset();
    const json& run = content.value("run", json::object());
    const std::string recorded = run.value("config", json::object()).value("path", std::string());
    if (!recorded.empty() && fs::exists(recorded)) {
      config_path = recorded;
    } else {
      // Moved or renamed since the run: the config named after the experiment, if there is one.
      const std::string by_name = "configs/" + name + ".yaml";
      if (fs::exists(by_name)) config_path = by_name;
    }
  }
  ReportDeclarations declarations;
  YAML::Node root;
  if (config_path) {
    root = load_yaml_strictly(read_config_file(*config_path, config_limits().max_file_bytes),
                              *config_path, config_limits());
    declarations = parse_report_declarations(root, YamlLocation{*config_path, ""});
  } else {
    declarations = parse_report_declarations(resolved_config(content),
                                             YamlLocation{results.path, "run.config.resolved"});
  }

  const auto points = latest_ok_points(content);
  const auto figures =
      declarations.has_figures_key ? declarations.figures : default_figures(points);
  const auto tables = declarations.has_tables_key ? declarations.tables : default_tables(points);

  ExperimentSection section;
  section.name = name;
  section.title = experiment.value("title", name);
  section.description = experiment.value("description", "");
  // Text cells edited after the run (descriptions stating what was measured) come from the config.
  if (root && root["title"] && root["title"].IsScalar()) section.title = root["title"].Scalar();
  if (root && root["description"] && root["description"].IsScalar())
    section.description = root["description"].Scalar();
  section.config_listing_path = (out / "config.yaml").generic_string();
  section.values_path = (out / "values.tex").generic_string();
  section.verification = summarize_verification(content);
  section.provenance = run_provenance(content);
  write_if_changed(out / "config.yaml", resolved_config_yaml(results.path));

  std::set<std::string> figure_names, table_names;
  const fs::path plots_dir = out / "plots";
  for (const auto& declaration : figures) {
    const std::string context = results.path + ": figure '" + declaration.name + "'";
    FigureData data;
    try {
      data = extract_figure(declaration, points, context);
    } catch (const NoDataError& error) {
      std::cerr << "convlab export: " << error.what() << "; figure left out\n";
      continue;
    }
    figure_names.insert(declaration.name);
    GnuplotOutputs outputs;
    for (size_t p = 0; p < data.panels.size(); ++p) {
      const std::string stem =
          declaration.name + (data.panels.size() > 1 ? "--panel" + std::to_string(p + 1) : "");
      const fs::path tsv = out / "data" / (stem + ".tsv");
      write_if_changed(tsv, figure_panel_tsv(data, p));
      outputs.panel_data.push_back(relative_to(tsv, plots_dir));
    }
    outputs.pdf = relative_to(figures_dir / (declaration.name + ".pdf"), plots_dir);
    outputs.png = relative_to(figures_dir / (declaration.name + ".png"), plots_dir);
    write_if_changed(plots_dir / (declaration.name + ".gp"), gnuplot_script(data, outputs));
    section.figures.push_back({(figures_dir / (declaration.name + ".pdf")).generic_string(),
                               declaration.title + ".", data.panels.size()});
  }
  for (const auto& declaration : tables) {
    const std::string context = results.path + ": table '" + declaration.name + "'";
    TableData data;
    try {
      data = extract_table(declaration, points, context);
    } catch (const NoDataError& error) {
      std::cerr << "convlab export: " << error.what() << "; table left out\n";
      continue;
    }
    table_names.insert(declaration.name);
    write_if_changed(out / "tables" / (declaration.name + ".tex"), table_latex(data));
    write_if_changed(out / "tables" / (declaration.name + ".tsv"), table_tsv(data));
    section.tables.push_back(
        {(out / "tables" / (declaration.name + ".tex")).generic_string(), declaration.title + "."});
  }
  remove_stale(plots_dir, ".gp", figure_names, {figures_dir});
  if (fs::is_directory(out / "data"))
    for (const auto& entry : fs::directory_iterator(out / "data")) {
      const std::string stem = entry.path().stem().string();
      if (!figure_names.count(stem.substr(0, stem.find("--panel")))) fs::remove(entry.path());
    }
  remove_stale(out / "tables", ".tex", table_names, {out / "tables"});

  std::vector<ResolvedValue> values;
  if (options.discussion && fs::exists(*options.discussion)) {
    section.discussion_path = fs::path(*options.discussion).generic_string();
    values = resolve_values(find_value_references(read_text(*options.discussion)), points,
                            *options.discussion);
  }
  write_if_changed(out / "values.tex", values_latex(name, values));

  if (content.contains("gallery") && content["gallery"].is_array())
    for (const auto& item : content["gallery"]) {
      GalleryImage image{
          item.value("image", ""), item.value("kernel", ""), item.value("border", ""),
          (fs::path(results.directory) / item.value("input", "")).generic_string(),
          (fs::path(results.directory) / gallery_display_path(item)).generic_string()};
      section.gallery.push_back(image);
    }
  write_if_changed(out / "section.tex", section_latex(section));
  if (section.gallery.empty())
    fs::remove(out / "gallery.tex");
  else
    write_if_changed(out / "gallery.tex", gallery_latex(section));

  std::cout << name << ": " << section.figures.size() << " figures, " << section.tables.size()
            << " tables, " << values.size() << " quoted values -> " << out.generic_string() << "\n";
  return 0;
}

int export_flat(const std::string& results_path, FlatFormat format,
                const std::optional<std::string>& out_file) {
  const ResultsDocument results = load_results_document(results_path);
  std::vector<json> records(results.content["records"].begin(), results.content["records"].end());
  const FlatTable table = flatten_records(records, format);
  if (!out_file) {
    write_flat_table(table, format, std::cout);
    return 0;
  }
  std::ostringstream text;
  write_flat_table(table, format, text);
  write_if_changed(fs::absolute(*out_file), text.str());
  std::cerr << *out_file << ": " << table.rows.size() << " records\n";
  return 0;
}

int export_index(const std::string& index_file, const std::vector<std::string>& result_paths) {
  std::vector<IndexExperiment> experiments;
  for (const auto& path : result_paths) {
    const ResultsDocument results = load_results_document(path);
    IndexExperiment experiment;
    const json meta = results.content.value("experiment", json::object());
    experiment.name = meta.value("name", fs::path(results.directory).filename().string());
    experiment.title = meta.value("title", experiment.name);
    const fs::path export_dir = fs::path(results.directory) / "export";
    experiment.section_path = (export_dir / "section.tex").generic_string();
    if (!fs::exists(experiment.section_path))
      throw ExportError(experiment.section_path + ": missing; run convlab export " + path +
                        " first");
    if (fs::exists(export_dir / "gallery.tex"))
      experiment.gallery_path = (export_dir / "gallery.tex").generic_string();
    experiment.provenance = run_provenance(results.content);
    experiments.push_back(experiment);
  }
  write_if_changed(index_file, index_latex(experiments));
  return 0;
}

}  // namespace

int export_command(const std::vector<std::string>& args) {
  ExportOptions options;
  std::optional<std::string> index;
  std::optional<FlatFormat> format;
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
      return export_index(*index, positional);
    }
    if (positional.size() != 1)
      throw ExportError("convlab export: expected one results.json or directory (see --help)");
    options.results = positional[0];
    if (format) {
      if (options.figures || options.config || options.discussion)
        throw ExportError(
            "convlab export: --format writes one table; --figures, --config and --discussion "
            "are for the report export");
      return export_flat(options.results, *format, options.out);
    }
    return export_experiment(options);
  } catch (const ConfigError& error) {
    std::cerr << error.what() << "\n";
  } catch (const ExportError& error) {
    std::cerr << error.what() << "\n";
  } catch (const fs::filesystem_error& error) {
    std::cerr << "convlab export: " << error.what() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "convlab export: " << (options.results.empty() ? "" : options.results + ": ")
              << error.what() << "\n";
  }
  return 2;
}

}  // namespace convlab

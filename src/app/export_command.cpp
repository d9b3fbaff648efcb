// convlab export: results.json -> the report's part of an experiment (TSV data, gnuplot scripts,
// and what the LaTeX renderer makes of the experiment's notebook), or one flat row per record.
// Files whose content did not change are left untouched, and gnuplot draws only the figures whose
// PDF is missing or older than their script or data, so make redoes only what is stale.
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/commands.hpp"
#include "app/table_choice.hpp"
#include "config/config_error.hpp"
#include "core/child_processes.hpp"
#include "core/count_words.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"
#include "core/shell_quote.hpp"
#include "drawing/figure_stage.hpp"
#include "figures/figure_data.hpp"
#include "figures/plot_writers.hpp"
#include "images/image_source.hpp"
#include "images/print_jpeg.hpp"
#include "notebook/freshness.hpp"
#include "notebook/history_notebook.hpp"
#include "notebook/notebook_builder.hpp"
#include "query/derived_columns.hpp"
#include "query/mixed_runs.hpp"
#include "query/other_versions.hpp"
#include "query/param_comparison.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "query/versus.hpp"
#include "query/winners.hpp"
#include "report/latex_writer.hpp"
#include "report/report_outline.hpp"
#include "report/summary_values.hpp"
#include "tables/flat_table.hpp"
#include "tables/param_comparison_writer.hpp"
#include "tables/versus_writer.hpp"
#include "tables/winners_writer.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

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

// Where an experiment's exported files go.
struct ExportPaths {
  fs::path out;
  fs::path figures;
  fs::path plots() const { return out / "plots"; }
};

// Where the report stages one figure: its data under data/, its script under plots/, its PDF and
// PNG in the figures folder, which the section names.
FigurePlace report_figure_place(const std::string& name, const ExportPaths& paths) {
  return {paths.out / "data", paths.plots(), paths.figures, name,
          paths.figures.generic_string() + "/" + name + ".pdf"};
}

// The file listing the figures gnuplot could not draw, one line each, beside the section: the
// report's build reads it to end with a message naming them. Gone when every figure is drawn.
constexpr const char* kNotDrawnFile = "not-drawn.txt";

// Draws the stale figures of the stage with gnuplot and returns them by name. Without gnuplot
// every figure is scripted and none drawn; the report says so in each one's place.
DrawnFigures draw_report_figures(FigureStage& stage, const fs::path& export_dir, size_t* drawn) {
  if (!stage.can_draw() && stage.size() > 0)
    std::cerr << "convlab export: gnuplot not found: the figures are scripted in "
              << (export_dir / "plots").generic_string()
              << " but not drawn; scripts/install-deps.sh report installs it\n";
  *drawn = stage.draw();
  std::string listed;
  for (const std::string& failure : stage.failures()) listed += failure + "\n";
  if (listed.empty())
    fs::remove(export_dir / kNotDrawnFile);
  else
    write_file_if_changed(export_dir / kNotDrawnFile, listed);
  return stage.figures();
}

// The figures gnuplot failed on, named last, and the exit status: 1 when there are any.
int finish_export(const DrawnFigures& figures) {
  size_t failed = 0;
  for (const auto& [name, figure] : figures)
    if (figure.state == DrawnFigure::State::failed) {
      std::cerr << "convlab export: " << figure.why
                << "; the report shows an error box in its place\n";
      ++failed;
    }
  if (failed == 0) return 0;
  std::cerr << "convlab export: " << count_words(failed, "figure")
            << " could not be drawn; everything else is written\n";
  return 1;
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
  // Written by earlier versions.
  fs::remove(paths.out / "config.yaml");
  fs::remove(paths.out / "values.tex");
}

// A gallery picture as JPEG for print (the PNG stays the lossless record): written when missing
// or older than the PNG; the PNG itself when it cannot be read (the report then shows it as is).
// Anything but a regular file where a picture goes (a FIFO would hang LaTeX) is refused.
std::string print_picture(const fs::path& png, const fs::path& out) {
  if (png.empty()) return "";
  const fs::path jpeg = out / "gallery" / (png.stem().string() + ".jpg");
  require_owned_place(png.string());
  require_owned_place(jpeg.string());
  try {
    update_print_jpeg(png.string(), jpeg.string());
    return jpeg.generic_string();
  } catch (const ImageFileError& error) {
    std::cerr << "convlab export: " << error.what() << "; the gallery shows the PNG\n";
  }
  return png.generic_string();
}

// The report prints the gallery's pictures as JPEG: the inputs are converted, the display
// pictures the run wrote are print-ready already.
void use_print_pictures(ExperimentNotebook& notebook, const fs::path& out) {
  for (auto& cell : notebook.cells) {
    auto* gallery = std::get_if<GalleryCell>(&cell);
    if (!gallery) continue;
    for (auto& group : gallery->groups) {
      group.input_path = print_picture(group.input_path, out);
      for (auto& picture : group.pictures) {
        if (fs::path(picture.output_path).extension() != ".jpg")
          picture.output_path = print_picture(picture.output_path, out);
        else if (!picture.output_path.empty())
          require_owned_place(picture.output_path);
      }
    }
  }
}

// The files of a notebook's part of the report: figure scripts and data, tables, the section.
int write_report_exports(ExperimentNotebook& notebook, const ExportPaths& paths) {
  for (const auto& note : notebook.notes) std::cerr << "convlab export: " << note << "\n";

  std::set<std::string> figure_names, table_names;
  FigureStage stage(FigureMedium::report, program_available("gnuplot"));
  for (const FigureCell* figure : notebook.cells_of<FigureCell>()) {
    const std::string& name = figure->data.declaration.name;
    stage.prepare(figure->data, report_figure_place(name, paths));
    figure_names.insert(name);
  }
  for (const TableCell* table : notebook.cells_of<TableCell>()) {
    write_file_if_changed(paths.out / "tables" / (table->data.declaration.name + ".tsv"),
                          table_tsv(table->data));
    table_names.insert(table->data.declaration.name);
  }
  remove_stale_exports(paths, figure_names, table_names);

  size_t drawn = 0;
  const DrawnFigures figures = draw_report_figures(stage, paths.out, &drawn);

  use_print_pictures(notebook, paths.out);
  const LatexLayout layout{paths.out.generic_string(), paths.figures.generic_string(), figures};
  std::set<std::string> written;
  for (const RenderedFile& file : experiment_latex(notebook, layout)) {
    write_file_if_changed(paths.out / file.path, file.content);
    written.insert(file.path);
  }
  if (!written.count(kGalleryFile)) fs::remove(paths.out / kGalleryFile);

  const MarkdownCell* discussion = notebook.markdown(MarkdownCell::Role::discussion);
  std::cout << notebook.name << ": " << count_words(figure_names.size(), "figure") << " (" << drawn
            << " drawn now, into " << paths.figures.generic_string() << "), "
            << count_words(table_names.size(), "table") << ", "
            << count_words(discussion ? discussion->values.size() : 0, "quoted value") << " -> "
            << paths.out.generic_string() << "\n";
  return finish_export(figures);
}

ExportPaths export_paths(const ExportOptions& options, const std::string& directory) {
  return {options.out ? fs::path(*options.out) : fs::path(directory) / "export",
          options.figures ? fs::path(*options.figures) : fs::path(directory) / "figures"};
}

// An experiment's results, or the history folder of one (convlab history run): its section of
// the experiment's report.
int export_experiment(const ExportOptions& options) {
  if (holds_history(options.results) && !holds_results_file(options.results)) {
    const History history = load_history(options.results);  // the cells' records point into it
    ExperimentNotebook notebook = build_history_notebook(history, {});
    return write_report_exports(notebook, export_paths(options, options.results));
  }
  const ResultsDocument results = load_results_document(options.results);
  ExperimentNotebook notebook = build_notebook(
      results,
      NotebookSources{notebook_config(options.config, results), options.discussion, std::nullopt});
  return write_report_exports(notebook, export_paths(options, results.directory));
}

// What --format writes: every record (or those --filter keeps), or the winners table.
struct FlatRequest : TableChoice {
  FlatFormat format = FlatFormat::csv;
  std::optional<std::string> out_file;
};

// csv and tsv hold numbers only: the note on runs under different conditions goes to stderr.
void note_mixed_runs(const MixedRuns& runs, FlatFormat format) {
  if (format != FlatFormat::md && runs.mixed())
    std::cerr << "convlab export: note: " << mixed_runs_note(runs) << "\n";
}

// The text of the table and how many rows it has.
std::pair<std::string, size_t> flat_text(const ResultsDocument& results,
                                         const FlatRequest& request) {
  std::ostringstream text;
  if (request.best || request.compare || request.vs) {
    const std::vector<const Record*> points = request.chosen_points(results);
    if (request.vs) {
      const VersusTable table =
          compare_with_implementation(points, results.file.runs, request.versus_options());
      write_versus(table, request.format, text);
      note_mixed_runs(table.runs, request.format);
      return {text.str(), versus_flat_table(table, request.format).rows.size()};
    }
    if (request.compare) {
      const ParamComparison comparison = compare_param_values(
          points, results.file.runs, *request.compare, request.comparison_options());
      write_param_comparison(comparison, request.format, text);
      note_mixed_runs(comparison.runs, request.format);
      return {text.str(), param_comparison_flat_table(comparison, request.format).rows.size()};
    }
    if (request.by) {
      const WinnersPivot pivot = pivot_winners(points, *request.by, {}, results.file.runs);
      write_pivot(pivot, request.format, text);
      note_mixed_runs(pivot.runs, request.format);
      return {text.str(), pivot_flat_table(pivot, request.format).rows.size()};
    }
    const WinnersTable winners = find_winners(results, points);
    write_winners(winners, request.format, text);
    note_mixed_runs(winners.runs, request.format);
    return {text.str(), winners.rows.size()};
  }
  std::vector<Record> records;
  for (const Record* record : request.chosen_records(results, results.path))
    records.push_back(*record);
  const FlatTable table = flatten_records(records, request.format);
  write_flat_table(table, request.format, text);
  return {text.str(), table.rows.size()};
}

// The records of the table: the current version of each user's kernel, or every record with
// --all-versions (the derived columns computed for the current version only).
ResultsDocument flat_document(const std::string& results_path, const FlatRequest& request) {
  ResultsDocument results = load_results_document(results_path);
  // The config's derived columns are columns of their own (derive.NAME).
  compute_derived_columns(results, derived_columns_of(results, std::string("auto")));
  if (!request.all_versions || results.other_versions.empty()) {
    const std::string others = other_versions_words(other_versions_of(results));
    if (!others.empty())
      std::cerr << "convlab export: note: " << others << " (--all-versions lists them)\n";
    return results;
  }
  ResultsDocument all = load_results_document(results_path, VersionScope::all);
  copy_derived_columns(results, all);
  return all;
}

int export_flat(const std::string& results_path, const FlatRequest& request) {
  const ResultsDocument results = flat_document(results_path, request);
  std::string text;
  size_t rows = 0;
  try {
    std::tie(text, rows) = flat_text(results, request);
  } catch (const ResultsError& error) {
    throw ResultsError(std::string("convlab export: ") + error.what());
  }
  if (!request.out_file) {
    std::cout << text;
    return 0;
  }
  write_file_if_changed(*request.out_file, text, WriteTarget::named);
  std::cerr << *request.out_file << ": " << rows
            << (request.best || request.compare || request.vs ? " rows" : " records") << "\n";
  return 0;
}

struct IndexInputs {
  std::string index_file;
  std::optional<std::string> outline;
  std::optional<std::string> summary;
  std::vector<std::string> results;
};

IndexExperiment index_experiment(const ResultsDocument& results) {
  IndexExperiment experiment;
  experiment.name = experiment_name(results);
  experiment.title = results.experiment_text("title", experiment.name);
  const fs::path export_dir = fs::path(results.directory) / "export";
  experiment.section_path = (export_dir / kSectionFile).generic_string();
  if (!fs::exists(experiment.section_path))
    throw ResultsError(experiment.section_path + ": missing; run convlab export " +
                       shell_word(results.path) + " first");
  if (fs::exists(export_dir / kGalleryFile))
    experiment.gallery_path = (export_dir / kGalleryFile).generic_string();
  // The appendix lists the config from its file, which LaTeX reads only under the folder the report
  // is built in; one elsewhere is left out of it (results.json and the notebook hold it).
  if (const auto config = config_to_read(std::string("auto"), results, experiment.name)) {
    if (latex_readable_path(*config))
      experiment.config_path = *config;
    else
      std::cerr << "convlab export: " << shortened_path(*config)
                << ": outside the folder the report is built in; the appendix leaves it out\n";
  }
  experiment.provenance = run_provenance(results.measuring_runs());
  experiment.verification = summarize_verification(results);
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
    const fs::path& generated, DrawnFigures* drawn_figures) {
  std::vector<SectionFigure> figures;
  FigureStage stage(FigureMedium::report, program_available("gnuplot"));
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
    try {
      const FigureData data =
          extract_figure(declaration, points, "summary figure '" + declaration.name + "'");
      stage.prepare(data, report_figure_place(declaration.name, paths));
      const std::string merged = merged_images_words(data);
      figures.push_back({"", data.declaration.title + "." + (merged.empty() ? "" : " " + merged),
                         data.panels.size(), declaration.name, ""});
      names.insert(declaration.name);
    } catch (const NoDataError& error) {
      std::cerr << "convlab export: " << error.what() << "; figure left out\n";
    }
  }
  remove_stale_exports(paths, names, {});
  size_t drawn = 0;
  *drawn_figures = draw_report_figures(stage, paths.out, &drawn);
  for (SectionFigure& figure : figures) {
    const DrawnFigure& drawing = drawn_figures->at(figure.name);
    figure.pdf_path = drawing.picture;
    if (drawing.state != DrawnFigure::State::drawn) figure.error = drawing.why;
  }
  return figures;
}

// A summary is prose: anything larger is not one.
constexpr std::size_t kMaxProseBytes = std::size_t(16) << 20;

// The summary with its values resolved, in the generated folder beside the index.
std::string resolved_summary(const std::string& summary_path,
                             const std::map<std::string, ResultsDocument>& documents) {
  std::map<std::string, std::vector<const Record*>> points;
  for (const auto& [name, document] : documents) points[name] = latest_ok_points(document);
  std::vector<std::string> warnings;
  const std::string text = resolve_summary(
      read_file(summary_path, kMaxProseBytes), summary_path,
      [&](const std::string& experiment) -> const std::vector<const Record*>* {
        const auto it = points.find(experiment);
        return it == points.end() ? nullptr : &it->second;
      },
      warnings);
  for (const auto& warning : warnings) std::cerr << "convlab export: " << warning << "\n";
  return "% " + summary_path +
         " with the values it quotes, generated by convlab export --index.\n" + text;
}

int export_document(const std::string& document_file, const std::string& results_path,
                    const std::optional<std::string>& history_section) {
  const ResultsDocument results = load_results_document(results_path);
  IndexExperiment experiment = index_experiment(results);
  experiment.history_path = history_section;
  write_file_if_changed(document_file, experiment_document_latex(experiment), WriteTarget::named);
  return 0;
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
  DrawnFigures drawn;
  if (outline) front.figures = export_summary_figures(*outline, documents, generated, &drawn);
  if (inputs.summary) {
    front.summary_path = (generated / "summary.tex").generic_string();
    write_file_if_changed(front.summary_path, resolved_summary(*inputs.summary, documents));
  }
  write_file_if_changed(inputs.index_file, index_latex(front, order_parts(outline, experiments)),
                        WriteTarget::named);
  return finish_export(drawn);
}

// Everything export's command line can ask for; which of them go together is checked after.
struct ExportArguments {
  ExportOptions report;
  std::optional<std::string> index, outline, summary, document, history_section;
  std::optional<FlatFormat> format;
  FlatRequest flat;
  std::vector<std::string> results;
};

CommandLine export_command_line(ExportArguments& given) {
  CommandLine line(
      "export",
      {{"RESULTS [--out DIR] [--figures DIR] [--config FILE] [--discussion FILE]",
        "RESULTS --format csv|md|tsv [--out FILE] [--filter EXPR] [--best [--by FIELD] | "
        "--compare params.X [--against VALUE]]",
        "RESULTS --format csv|md|tsv [--out FILE] [--filter EXPR] --vs IMPLEMENTATION [--by FIELD]",
        "--index FILE RESULTS...", "--document FILE RESULTS [--history-section FILE]"},
       R"(Turns a results.json (or the directory holding it; or a history folder, DIR/history.json of
convlab history run, whose section is the history's figures and tables) into what the report needs:
  DIR/data/<figure>.tsv      the numbers each figure plots (tab-separated, a header row, full
                             precision)
  DIR/plots/<figure>.gp      gnuplot script writing FIGURES/<figure>.pdf and .png, which
                             gnuplot draws now when they are missing or older than it
  DIR/tables/<table>.tex     booktabs table (and .tsv with the same numbers)
  DIR/section.tex            the experiment's report section; DIR/gallery.tex with saved images
  DIR/not-drawn.txt          the figures gnuplot could not draw, when there are any

Figures and tables come from the config's figures: and tables: (docs/report.md); without
declarations, median time and speedup against image size are made. A figure gnuplot cannot draw
costs that figure only: the section shows an error box in its place, naming the figure and
gnuplot's line.
)",
       "",
       "0 written; 1 written, but gnuplot could not draw some figures (named in the message and "
       "in DIR/not-drawn.txt); 2 bad input (the message names the file and key) or a file that "
       "could not be written (PATH: write error: REASON; the earlier file is kept)."});
  FlatRequest& flat = given.flat;
  line.positional({"RESULTS", "", true, true,
                   [&](const std::string& text) { given.results.push_back(text); }})
      .value("--out", "DIR", "where to write (default: <results dir>/export)", given.report.out)
      .value("--figures", "DIR",
             "where the scripts render figures (default: <results dir>/figures)",
             given.report.figures)
      .value("--config", "FILE",
             "read figures:/tables: from this config instead of the copy in results.json, so "
             "edited declarations apply without re-running; \"auto\": the config path the run "
             "recorded, when that file exists",
             given.report.config)
      .value("--discussion", "FILE",
             "the experiment's prose in Markdown (experiments/<name>.md); each {{field[filter]}} "
             "in it must match exactly one ok point",
             given.report.discussion)
      .value("--index", "FILE",
             "write the report's front part and section list for the given results", given.index)
      .value("--outline", "FILE",
             "with --index: the parts, their order and the summary figures (report/outline.yaml)",
             given.outline)
      .value("--summary", "FILE",
             "with --index: the hand-written summary (LaTeX); its {{experiment: field[filter]}} "
             "are resolved like a discussion's values",
             given.summary)
      .value("--document", "FILE",
             "write the body of a report of this experiment alone (report/experiment.tex, make "
             "report CONFIG=...): title, its section and gallery (exported before), the "
             "machines, its verification and its config",
             given.document)
      .value("--history-section", "FILE",
             "with --document: the section of the experiment's history (convlab export "
             "outputs/history_<name>, docs/history.md), after its gallery",
             given.history_section)
      .heading("With --format, one table instead (to FILE, or to standard output):")
      .value("--format", "csv|md|tsv",
             "one row per record: implementation, params.*, image.*, kernel.*, border, output, "
             "status, reason, repetitions, timing statistics in ms, the device phases' medians, "
             "derived metrics and verification; csv and tsv keep full precision, md is a table "
             "for people with four significant digits",
             [&](const std::string& text) {
               if (!(given.format = parse_flat_format(text)))
                 throw ArgumentValueError("not csv, md or tsv");
             })
      .value("--filter", "EXPR",
             "only the records matching EXPR (as convlab run --filter); a filter that matches no "
             "record is an error",
             filter_into(flat.filter))
      .flag("--best",
            "the winners instead, one row per problem, as convlab show --best prints them (csv "
            "and tsv: every column, in full precision)",
            flat.best)
      .value("--by", "FIELD",
             "with --best: one row per value of FIELD, one column per implementation; with --vs: "
             "rows per value of FIELD instead of per problem",
             flat.by)
      .value("--vs", "IMPLEMENTATION",
             "every other implementation against this one, as convlab show --vs prints it: per "
             "problem (or value of --by), each implementation's fastest configuration with its "
             "median, its ratio to IMPLEMENTATION's fastest, p and the verdict",
             flat.vs)
      .value("--compare", "params.X",
             "the configurations of each implementation against each other, as convlab show "
             "--compare prints them: one row per problem, implementation and value of X, with "
             "its ratio to the reference value, p and the verdict (params.threads: speedup and "
             "efficiency too); csv and tsv add the flags and whether the runs' conditions differ",
             flat.compare)
      .value("--against", "VALUE",
             "with --compare: the reference value of X (default: each group's first)", flat.against)
      .flag("--all-versions",
            "every record, also those of earlier versions of users' kernels, which are "
            "otherwise left out (docs/own-kernels.md, \"Versions\"), with a column "
            "source.version where two versions of one kernel are listed",
            flat.all_versions);
  return line;
}

// The rule of the flat export's options, checked after parsing: the reason, or empty.
std::string flat_options_disagree(const ExportArguments& given) {
  const FlatRequest& flat = given.flat;
  const ExportOptions& report = given.report;
  if (!given.format)
    return flat.filter || flat.best || flat.by || flat.compare || flat.against || flat.vs ||
                   flat.all_versions
               ? "--filter, --best, --by, --compare, --vs and --all-versions choose the rows of "
                 "--format csv|md|tsv; the report export takes its points from the config's "
                 "figures and tables"
               : "";
  if (report.figures || report.config || report.discussion)
    return "--format writes one table; --figures, --config and --discussion are for the report "
           "export";
  if (flat.vs && (flat.best || flat.compare))
    return "--vs is a table of its own; give it without --best or --compare";
  if (flat.by && !flat.best && !flat.vs)
    return "--by pivots the winners table or makes the rows of --vs; give --best with it, or --vs";
  if (flat.compare && flat.best) return "--best and --compare are two tables; give one";
  if (flat.against && !flat.compare) return "--against names the reference value of --compare";
  if (flat.all_versions && (flat.best || flat.compare || flat.vs))
    return "--all-versions lists records; --best, --compare and --vs compute with the current "
           "version of each kernel only";
  return "";
}

}  // namespace

int export_command(const std::vector<std::string>& args) {
  ExportArguments given;
  const CommandLine line = export_command_line(given);
  if (const auto status = line.parse(args)) return *status;
  ExportOptions& options = given.report;
  if (!given.index) {
    if (given.results.size() != 1) return line.refuse("expected one results.json or directory");
    if (!given.document)
      if (const std::string problem = flat_options_disagree(given); !problem.empty())
        return line.refuse(problem);
  }
  try {
    if (given.index)
      return export_index(IndexInputs{*given.index, given.outline, given.summary, given.results});
    options.results = given.results[0];
    if (given.document)
      return export_document(*given.document, options.results, given.history_section);
    if (given.format) {
      given.flat.format = *given.format;
      given.flat.out_file = options.out;
      return export_flat(options.results, given.flat);
    }
    return export_experiment(options);
  } catch (const std::exception&) {
    return report_reading_error("export", options.results);
  }
}

}  // namespace convlab

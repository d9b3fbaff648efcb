// convlab notebook: every experiment's results as a page of HTML, and an index. Each page is the
// experiment's notebook (notebook/notebook.hpp) rendered by html/, with its figures drawn by
// gnuplot as SVG. Pages open from file:// with no network: scripts, styles, fonts and pictures are
// files beside them. Incremental: a page whose inputs (results, config, discussion, this convlab)
// did not change is not made again, and unchanged files are not rewritten.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "app/commands.hpp"
#include "app/notebook_pages.hpp"
#include "core/child_processes.hpp"
#include "core/count_words.hpp"
#include "core/file_io.hpp"
#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "figures/plot_writers.hpp"
#include "gallery/gallery.hpp"
#include "history/history_index.hpp"
#include "html/experiment_page.hpp"
#include "html/html_text.hpp"
#include "html/index_page.hpp"
#include "html/notebook_assets.hpp"
#include "html/svg_sanitizer.hpp"
#include "images/image_source.hpp"
#include "measure/provenance.hpp"
#include "notebook/notebook_builder.hpp"
#include "query/results_document.hpp"
#include "report/report_outline.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

struct NotebookOptions : NotebookPlace {
  std::vector<std::string> results;
  std::optional<std::string> outline;
  bool quiet = false;
};

// Every outputs/*/ holding a results.json (or results.json.gz), or a history.json (convlab
// history run).
std::vector<std::string> default_results() {
  std::vector<std::string> dirs;
  if (!fs::is_directory("outputs")) return dirs;
  for (const auto& entry : fs::directory_iterator("outputs"))
    if (holds_results_file(entry.path().string()) || holds_history(entry.path().string()))
      dirs.push_back(entry.path().generic_string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The figure the index shows for an experiment: its first of one panel, which reads at the size
// of a thumbnail, else its first.
std::string headline_figure(const Experiment& e) {
  const auto figures = e.notebook.cells_of<FigureCell>();
  for (size_t i = 0; i < figures.size() && i < e.figure_files.size(); ++i)
    if (figures[i]->data.panels.size() == 1) return e.figure_files[i];
  return e.figure_files.empty() ? "" : e.figure_files.front();
}

// The index in the outline's reading order: each experiment its part's short name ("Seed 000",
// "Extensions"); those no part names follow, alphabetically, with no study.
void follow_outline(std::vector<IndexEntry>& entries, const ReportOutline& outline) {
  std::map<std::string, std::pair<size_t, std::string>> place;
  size_t order = 0;
  for (const ReportPart& part : outline.parts) {
    const std::string study = part.title.substr(0, part.title.find(':'));
    for (const auto& name : part.experiments) place.emplace(name, std::make_pair(order++, study));
  }
  for (IndexEntry& entry : entries) {
    const auto it = place.find(entry.notebook->name);
    entry.order = it == place.end() ? order : it->second.first;
    if (it != place.end()) entry.study = it->second.second;
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const IndexEntry& a, const IndexEntry& b) { return a.order < b.order; });
}

std::optional<std::string> outline_to_read(const NotebookOptions& options) {
  if (options.outline) return options.outline;
  if (fs::is_regular_file("report/outline.yaml")) return std::string("report/outline.yaml");
  return std::nullopt;
}

// Pages of experiments that have no results any more, with their figures and pictures.
void remove_gone_pages(const fs::path& out, const std::set<std::string>& pages) {
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".html" || file == "index.html" || pages.count(file)) continue;
    const std::string name = entry.path().stem().string();
    fs::remove(entry.path());
    for (const char* folder : {"figures", "pictures", ".build"})
      fs::remove_all(out / folder / name);
  }
}

// The results folders of the pages made earlier into `out` that still have results.
std::vector<std::string> earlier_sources(const fs::path& out) {
  std::vector<std::string> dirs;
  if (!fs::is_directory(out / ".build")) return dirs;
  for (const auto& entry : fs::directory_iterator(out / ".build")) {
    const fs::path source = entry.path() / "source";
    if (!fs::exists(source)) continue;
    std::string dir = read_file(source);
    while (!dir.empty() && dir.back() == '\n') dir.pop_back();
    if (holds_results_file(dir)) dirs.push_back(dir);
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// What could not be made, said last so that it is not lost above the summary: each figure shown
// as an error cell, and how many experiments have no page. The exit status says which.
int finish_with_failures(const std::vector<std::string>& failed_figures, size_t not_loaded) {
  for (const std::string& failure : failed_figures)
    std::cerr << "convlab notebook: " << failure << "; its page shows the error in its place\n";
  if (not_loaded > 0) {
    std::cerr << "convlab notebook: " << count_words(not_loaded, "experiment")
              << " could not be read (the errors are above); every other page is made\n";
    return 2;
  }
  if (!failed_figures.empty()) {
    std::cerr << "convlab notebook: " << count_words(failed_figures.size(), "figure")
              << " could not be drawn; every other figure and page is made\n";
    return 1;
  }
  return 0;
}

int make_notebook(const NotebookOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const std::vector<std::string> dirs =
      options.results.empty() ? default_results() : options.results;
  fs::create_directories(options.out);
  const bool katex = write_assets(options.out);
  const bool gnuplot = program_available("gnuplot");
  if (!katex)
    std::cerr << "convlab notebook: KaTeX not found (" << kKatexDirectory
              << "): math shows as TeX; scripts/install-deps.sh notebook installs it\n";
  if (!gnuplot)
    std::cerr << "convlab notebook: gnuplot not found: figures are left out; "
                 "scripts/install-deps.sh notebook installs it\n";

  std::vector<Experiment> experiments;
  std::set<std::string> files;
  const auto add = [&](const std::string& dir, bool make_page) {
    ExperimentLoad load;
    load.make_page = make_page;
    // A folder of a history alone is its page; one with results is the experiment's.
    Experiment e = holds_history(dir) && !holds_results_file(dir)
                       ? load_history_page(dir, options, make_page)
                       : load_experiment(dir, options, load);
    if (!files.insert(e.file).second)
      throw ResultsError(dir + ": a second experiment named '" + e.notebook.name +
                         "'; each page is named after its experiment");
    experiments.push_back(std::move(e));
  };
  // An experiment that does not load costs its own page only: the message names it, its page
  // made earlier stays, and every other page is made.
  size_t not_loaded = 0;
  for (const auto& dir : dirs) try {
      add(dir, true);
    } catch (const std::exception&) {
      report_reading_error("notebook", dir);
      files.insert(html_id(fs::path(dir).filename().string()) + ".html");
      ++not_loaded;
    }
  // Pages made earlier of experiments not named this time stay in the index.
  if (!options.results.empty())
    for (const auto& dir : earlier_sources(options.out))
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end() &&
          !files.count(html_id(fs::path(dir).filename().string()) + ".html"))
        try {
          add(dir, false);
        } catch (const std::exception&) {
          // A page of a renamed or broken experiment: it is left out of the index.
        }

  // Figures of the pages to make, drawn by gnuplot side by side.
  std::size_t drawn = 0;
  std::vector<const Experiment*> pages;
  for (const Experiment& e : experiments) pages.push_back(&e);
  std::map<const Experiment*, DrawnFigures> figures = draw_figures(pages, options.out, &drawn);

  PageSettings settings;
  settings.generator = generator_words();
  settings.katex = katex;
  size_t written = 0;
  std::vector<std::string> failed_figures;
  for (const Experiment& e : experiments) {
    if (e.current) continue;
    const WrittenPage page = write_experiment_page(e, figures[&e], options, settings);
    written += page.changed;
    for (const std::string& error : page.page.figure_errors)
      failed_figures.push_back(e.notebook.name + ": " + error);
  }

  if (options.results.empty()) remove_gone_pages(options.out, files);

  std::vector<IndexEntry> entries;
  for (const Experiment& e : experiments)
    entries.push_back({&e.notebook, e.file, headline_figure(e), "", 0, e.history.get()});
  if (const auto outline = outline_to_read(options))
    follow_outline(entries, load_report_outline(*outline));
  IndexContext index;
  index.generator = settings.generator;
  index.katex = katex;
  write_file_if_changed(options.out / "index.html", index_page(entries, index));

  if (!options.quiet) {
    for (const Experiment& e : experiments)
      for (const auto& note : e.notebook.notes) std::cerr << "convlab notebook: " << note << "\n";
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const size_t current = static_cast<size_t>(std::count_if(
        experiments.begin(), experiments.end(), [](const Experiment& e) { return e.current; }));
    std::cout << (options.out / "index.html").generic_string() << ": " << experiments.size()
              << " experiments (" << experiments.size() - current << " pages made, " << written
              << " changed, " << current << " up to date), " << drawn << " figures drawn, in "
              << format_number(seconds, 3) << " s\n";
  }
  return finish_with_failures(failed_figures, not_loaded);
}

CommandLine notebook_command_line(NotebookOptions& options) {
  CommandLine line(
      "notebook",
      {{},
       R"(Writes the notebook: DIR/index.html, listing every experiment, and DIR/<experiment>.html, one
page per experiment: its config (highlighted, with the command that runs it again), the run
(commit, machines, clocks, counts), the figures its config declares (drawn by gnuplot as SVG:
hover a point for its record, click a key entry to hide a series), its tables (sort by any column,
filter by text), the gallery, the verification per implementation and its discussion. A page
says at the top when the results are stale: the config on disk changed after the run, or points
of the config as it is now are not measured.
)",
       R"(Pages open from file:// and load nothing from the network. A page is made again only when its
results, config, discussion or convlab changed. Needs gnuplot for the figures and KaTeX
(Debian's libjs-katex) for the math: scripts/install-deps.sh notebook installs them.
)",
       "0 written; 1 written, but gnuplot could not draw some figures (each page shows an "
       "error in the figure's place, the message names them); 2 bad input (the message names "
       "the file and key), every other experiment's page still made."});
  line.positional({"RESULTS_DIR",
                   "outputs/<name> folders (default: every outputs/*/ holding a results.json, "
                   "or a history.json: a page of the history of an experiment)",
                   false, true, [&](const std::string& text) { options.results.push_back(text); }})
      .value("--out", "DIR", "where to write (default: outputs/notebook)",
             [&](const std::string& text) { options.out = text; })
      .value("--discussions", "DIR",
             "where the discussions are, DIR/<name>.md (default: "
             "experiments)",
             [&](const std::string& text) { options.discussions = text; })
      .value("--outline", "FILE",
             "the report's reading order, which the index follows, naming each experiment's "
             "study (default: report/outline.yaml when it exists; without one the index is "
             "alphabetical)",
             options.outline)
      .flag("--quiet", "print only problems", options.quiet);
  return line;
}

}  // namespace

int notebook_command(const Arguments& args) {
  NotebookOptions options;
  if (const auto status = notebook_command_line(options).parse(args)) return *status;
  try {
    return make_notebook(options);
  } catch (const std::exception&) {
    return report_reading_error("notebook");
  }
}

}  // namespace convlab

// The pages of the notebook, one experiment at a time: an experiment's results and notebook
// loaded, its figures drawn by gnuplot, its page rendered by html/ and written beside the
// pictures it shows. `convlab notebook` makes every page and the index through these;
// `convlab watch` makes one page again after every point it measures.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drawing/drawn_figures.hpp"
#include "history/history_series.hpp"
#include "html/experiment_page.hpp"
#include "notebook/experiment_config.hpp"
#include "notebook/notebook.hpp"
#include "query/results_document.hpp"

namespace convlab {

// Where Debian's libjs-katex puts KaTeX.
extern const char* const kKatexDirectory;

struct NotebookPlace {
  std::filesystem::path out = "outputs/notebook";
  std::filesystem::path discussions = "experiments";
};

// What an experiment's page is made from.
struct Experiment {
  ResultsDocument results;
  ExperimentNotebook notebook;
  std::string file;                       // its page, e.g. npp_peer.html
  std::string fingerprint;                // of every input of the page
  bool current = false;                   // the page on disk was made from the same inputs
  std::vector<std::string> figure_files;  // standalone SVGs relative to the notebook folder
  // A history's page: the history its cells' records point into.
  std::shared_ptr<const History> history;
};

struct ExperimentLoad {
  bool make_page = true;      // false: only for the index
  bool with_journal = false;  // fold in what the journal holds beyond results.json (a run is on)
  // The config of the figures, tables, title and description (NotebookSources::config): "auto",
  // a file, or nullopt: the copy in results.json. Read once for the page.
  std::optional<std::string> config = std::string("auto");
  // The config as the command read it already (convlab watch, once per save): taken in place of
  // reading `config`.
  std::shared_ptr<const ExperimentConfig> config_read;
  // A config on disk that does not load, as read (NotebookSources::invalid_config).
  std::optional<ConfigFile> invalid_config;
};

// An experiment's results, notebook and page file, from its results folder.
Experiment load_experiment(const std::string& dir, const NotebookPlace& place,
                           const ExperimentLoad& load = {});

// The page of a history folder (DIR/history.json, `convlab history run`): named
// history_<experiment>, made again when the index or a commit's results changed.
Experiment load_history_page(const std::string& dir, const NotebookPlace& place,
                             bool make_page = true);

// "convlab 0.1.0 (build 1a2b3c4d5e6f)".
std::string generator_words();

// The notebook's own script and style, and KaTeX with its fonts when Debian's libjs-katex is
// installed; false when it is not (math then shows as TeX).
bool write_assets(const std::filesystem::path& out);

// Draws the figures of the pages that are not current through the figure stage
// (drawing/figure_stage.hpp), with gnuplot, several at a time; a figure whose data and script did
// not change since the last drawing is not drawn again. Returns the figures of each page by name
// and counts the drawings in `drawn`. A figure gnuplot cannot draw carries its error: its page
// shows an error cell in its place, the other figures are drawn. Without gnuplot each figure says
// so in its place.
std::map<const Experiment*, DrawnFigures> draw_figures(
    const std::vector<const Experiment*>& experiments, const std::filesystem::path& out,
    std::size_t* drawn = nullptr);

struct PageSettings {
  std::string generator;  // generator_words()
  bool katex = true;
  std::optional<LivePage> live;  // a page kept up to date by convlab watch
};

struct WrittenPage {
  ExperimentPage page;
  bool changed = false;  // the page file was written (its content differs from the one on disk)
};

// Renders an experiment's page with its drawn figures and writes it, with its standalone figures
// and pictures. A static page records the inputs it was made from, so that an unchanged page is
// not made again; a live one removes that record, so that `convlab notebook` makes it again.
WrittenPage write_experiment_page(const Experiment& e, const DrawnFigures& figures,
                                  const NotebookPlace& place, const PageSettings& settings);

}  // namespace convlab

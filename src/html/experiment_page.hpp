// The HTML renderer of an experiment's notebook: one page, cell by cell (title and description,
// the config with the command that re-runs it, the run, figures, tables, gallery, verification,
// discussion), with the freshness of the results against the config on disk at the top. Figures
// come as the figure stage drew them, looked up by name (drawing/drawn_figures.hpp); pictures as
// the files the notebook copied.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "html/figure_html.hpp"
#include "notebook/notebook.hpp"

namespace convlab {

// A page kept up to date while its config is watched (convlab watch): what changed since the
// previous render, the sweep under way and a config that could not be read.
struct LiveProgress {
  size_t done = 0, total = 0;
  double eta_seconds = 0;
};

struct LivePage {
  // The page file, e.g. npp_peer.html; the script asks the server for updates of this page.
  // Empty: the page is written for file:// and connects to nothing.
  std::string served_as;
  std::map<std::string, std::string> previous_digests;  // cell id -> digest of the last render
  std::optional<LiveProgress> progress;                 // a sweep is running
  // At most one of the two; the results shown are the last good ones. A config that does not
  // load (file:line:column: key.path: message), or a kernel of a good config that does not compile
  // (run/kernel_compilation.hpp: each variant's heading and the compiler's lines).
  std::string config_error;
  std::string compile_error;
};

// The label of the error cell of a live page, as the page and its script write it.
inline constexpr const char* kConfigErrorLabel = "config error";
inline constexpr const char* kCompileErrorLabel = "kernel compile error";
// A value or placement of the discussion that cannot be resolved (convlab watch --serve).
inline constexpr const char* kDiscussionErrorLabel = "discussion error";

struct PageContext {
  std::string assets = "assets";          // the assets folder relative to the page
  std::string index_link = "index.html";  // the index relative to the page
  // The figure cells as the figure stage drew them, by declaration name: gnuplot's SVG, or why
  // there is none, and where the standalone SVG goes relative to the page. A figure not there is
  // shown as not drawn.
  DrawnFigures figures;
  std::map<std::string, std::string> pictures;  // gallery file -> its URL relative to the page
  std::string generator;                        // "convlab 0.1.0 (build 1a2b3c4d5e6f)"
  std::string build_id;  // of the convlab writing the page, its first 12 characters
  bool katex = true;
  std::optional<LivePage> live;
};

struct ExperimentPage {
  std::string html;
  std::vector<RenderedFile> figures;           // the standalone SVGs, at their figures' pictures
  std::map<std::string, std::string> digests;  // cell id -> digest of its content
  std::vector<std::string> changed;            // ids of the cells whose digest changed (live only)
  // Figures shown as an error cell: gnuplot failed on them, or drew an SVG that is not
  // well-formed; one line each, naming the figure.
  std::vector<std::string> figure_errors;
};

// A figure whose SVG is not well-formed is shown as an error cell (ExperimentPage::figure_errors).
ExperimentPage experiment_page(const ExperimentNotebook& notebook, const PageContext& context);

// "sweep running: point 4 of 12, ETA 4.2 s" (3 done), or "sweep done: 12 of 12 points".
std::string live_progress_words(const LiveProgress& progress);

// The freshness of an experiment in words: empty when the results match the config on disk.
std::string stale_words(const Freshness& freshness);

}  // namespace convlab

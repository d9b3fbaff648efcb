// The HTML renderer of an experiment's notebook: one page, cell by cell (title and description,
// the config with the command that re-runs it, the run, figures, tables, gallery, verification,
// discussion), with the freshness of the results against the config on disk at the top. Figures
// come as gnuplot drew them (figure_html.hpp); pictures as the files the notebook copied.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "html/figure_html.hpp"
#include "notebook/notebook.hpp"

namespace convlab {

struct PageContext {
  std::string assets = "assets";          // the assets folder relative to the page
  std::string index_link = "index.html";  // the index relative to the page
  // One per figure cell, in order: what gnuplot drew, and where its standalone SVG goes relative
  // to the page.
  std::vector<DrawnFigure> figures;
  std::vector<std::string> figure_files;
  std::map<std::string, std::string> pictures;  // gallery file -> its URL relative to the page
  std::string generator;                        // "convlab 0.1.0 (build 1a2b3c4d5e6f)"
  std::string build_id;  // of the convlab writing the page, its first 12 characters
  bool katex = true;
};

struct ExperimentPage {
  std::string html;
  std::vector<RenderedFile> figures;  // the standalone SVGs, paths as in figure_files
};

// Throws SvgError when a figure's SVG is not well-formed.
ExperimentPage experiment_page(const ExperimentNotebook& notebook, const PageContext& context);

// The freshness of an experiment in words: empty when the results match the config on disk.
std::string stale_words(const Freshness& freshness);

}  // namespace convlab

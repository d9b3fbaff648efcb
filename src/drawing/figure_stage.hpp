// The figure stage, one for the notebook and the report, in three steps:
//   prepare  each figure's data as TSV and its gnuplot script, written only when they changed;
//   draw     gnuplot on the figures that are stale, several at a time, a failure costing that
//            figure alone (gnuplot_drawing.hpp);
//   embed    each figure handed to the renderers by its declaration's name (drawn_figures.hpp).
// The notebook draws SVG, read back into its page; the report draws PDF and PNG, which LaTeX
// includes. Where each figure's files go is the caller's (FigurePlace). Every string of a
// figure's data reaches gnuplot through the scripts' one quoting (figures/plot_style.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "drawing/drawn_figures.hpp"
#include "drawing/gnuplot_drawing.hpp"
#include "figures/figure_data.hpp"

namespace convlab {

enum class FigureMedium {
  notebook,  // SVG and the axis ranges gnuplot printed, read back for the page
  report,    // PDF and PNG for print
};

// Where one figure's files go.
struct FigurePlace {
  std::filesystem::path data;      // its TSV data, one file per panel
  std::filesystem::path scripts;   // its gnuplot script and log: gnuplot runs here
  std::filesystem::path pictures;  // what gnuplot draws
  std::string stem;                // of each of its files' names
  std::string shown_as;            // the picture as the renderers name it (DrawnFigure::picture)
};

// The figures of one command: prepared in groups (a page each, or a report's section), drawn
// together, embedded group by group.
class FigureStage {
 public:
  // `gnuplot`: whether gnuplot is there to draw (program_available). Without it the report's
  // figures are scripted all the same, to be drawn once it is installed; the notebook's are not.
  FigureStage(FigureMedium medium, bool gnuplot);

  bool can_draw() const { return gnuplot_; }

  // Writes the figure's data and script where they changed, and stages it in `group`. Throws
  // FileError when one cannot be written.
  void prepare(const FigureData& data, const FigurePlace& place, std::size_t group = 0);

  // Runs gnuplot on every staged figure that is stale: its script or data changed, or a picture
  // is missing or older than them. Returns how many ran. Throws FileError, before anything runs,
  // where anything but a regular file stands in the place of a figure's log or pictures.
  std::size_t draw();

  // The figures of `group` after draw(), by declaration name. The notebook's drawn figures carry
  // their SVG and axis ranges, read from gnuplot's files.
  DrawnFigures figures(std::size_t group = 0) const;

  // How many figures are staged, in every group.
  std::size_t size() const { return drawings_.size(); }

  // Why gnuplot drew nothing of each figure it failed on, in the order they were prepared.
  std::vector<std::string> failures() const;

 private:
  FigureMedium medium_;
  bool gnuplot_;
  std::vector<FigureToDraw> drawings_;
  std::vector<std::size_t> groups_;    // one per drawing
  std::vector<std::string> shown_as_;  // one per drawing
};

// Why a figure was not drawn where gnuplot is not installed, in the medium's words.
std::string no_gnuplot_words(FigureMedium medium);

}  // namespace convlab

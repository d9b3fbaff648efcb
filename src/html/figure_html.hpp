// A figure cell as HTML: gnuplot's SVG, sanitised (svg_sanitizer.hpp) and inlined, each series and
// key entry marked with its series, a layer of hover targets placed from gnuplot's own axis ranges
// (one per drawn point), and the points' records as JSON for the tooltip. The notebook's script
// (assets/notebook.js) shows a point's record on hover and hides a series when its key entry is
// clicked; nothing interactive is inline.
#pragma once

#include <string>

#include "drawing/drawn_figures.hpp"
#include "notebook/notebook.hpp"

namespace convlab {

struct FigureHtml {
  std::string html;        // the cell's content: the figure, its caption and its data
  std::string standalone;  // the sanitised SVG as a file of its own (no hover layer)
};

// `drawn`: the figure as the figure stage drew it (its svg and axes). `index`: the figure's
// position on the page, which makes its ids unique there. Throws SvgError when gnuplot's output is
// not well-formed.
FigureHtml figure_html(const FigureCell& figure, const DrawnFigure& drawn, size_t index);
// The same cell where gnuplot drew nothing: the caption, and why the figure is missing.
std::string undrawn_figure_html(const FigureCell& figure, size_t index, const std::string& why);
// The cell of a figure gnuplot failed to draw: an error where the figure would be, naming the
// declaration and gnuplot's line, then the caption.
std::string failed_figure_html(const FigureCell& figure, size_t index, const std::string& error);

// The record of a point in words, as the tooltip lists it: label and text pairs.
std::vector<std::pair<std::string, std::string>> record_rows(const Record& record);

}  // namespace convlab

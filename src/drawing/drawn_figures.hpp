// What the figure stage (figure_stage.hpp) hands the renderers: each figure of a page or a report
// section as gnuplot left it, by its declaration's name. The HTML and LaTeX renderers look a figure
// cell's drawing up by that name; they never run gnuplot nor read its files.
#pragma once

#include <map>
#include <string>

namespace convlab {

struct DrawnFigure {
  enum class State {
    drawn,      // gnuplot drew it
    failed,     // gnuplot stopped on it: `why` names the figure and gnuplot's line
    not_drawn,  // nothing ran: `why` says so (gnuplot is not installed)
  };
  State state = State::not_drawn;
  std::string why;  // empty when drawn
  // Where renderers find the picture: the notebook's standalone SVG relative to the notebook
  // folder, or the PDF the report includes.
  std::string picture;
  // The notebook's drawing, read back: gnuplot's SVG and the axis ranges it printed, one line per
  // panel. Empty in the report's.
  std::string svg, axes;
};

// The figures of one page or report section, by declaration name.
using DrawnFigures = std::map<std::string, DrawnFigure>;

// The figure `name` of `figures`; nullptr when the stage was not given it.
inline const DrawnFigure* find_drawn(const DrawnFigures& figures, const std::string& name) {
  const auto it = figures.find(name);
  return it == figures.end() ? nullptr : &it->second;
}

}  // namespace convlab

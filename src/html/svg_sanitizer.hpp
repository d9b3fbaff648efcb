// gnuplot's SVG made fit to stand inside a notebook page under a strict Content-Security-Policy.
// The input is parsed as XML and written again from a list of allowed elements and attributes:
// scripts, event handlers, style sheets, links, foreign objects and images are dropped with their
// content; style="..." becomes presentation attributes (which a CSP does not block); every id gets
// the figure's prefix, and the references to it (href="#id", url(#id)) follow, so several figures
// share a page without clashing ids; <title> and <desc> go (a browser would show gnuplot's plot
// names as tooltips); text and attribute values are escaped again, whatever gnuplot escaped.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace convlab {

class SvgError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Attributes added to an element, in order.
using SvgAttributes = std::vector<std::pair<std::string, std::string>>;

struct SvgSanitizeOptions {
  std::string id_prefix;  // e.g. "f3"; ids become "f3-gpPt6"
  // Attributes for the root <svg> element (its own width and height are dropped, its viewBox
  // kept).
  SvgAttributes root_attributes;
  // Called with the id gnuplot gave a group (e.g. "gnuplot_plot_2b"): attributes to add to it.
  std::function<SvgAttributes(const std::string& id)> annotate_group;
  // Markup appended inside the root element, after gnuplot's drawing (the hover layer).
  std::string append;
};

// Throws SvgError when the input is not well-formed XML with an <svg> root.
std::string sanitize_svg(const std::string& svg, const SvgSanitizeOptions& options);

}  // namespace convlab

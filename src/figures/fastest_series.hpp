// best: (FigureDeclaration::best): one series of the fastest point per x, beside the series of
// the implementations it leaves out. "How far is the fastest of convlab's implementations from the
// hardware floor at each K, and the vendor library beside it" is one line figure: the fastest
// point per x is the one with the lowest median time, whatever the field the figure draws.
#pragma once

#include <string>
#include <vector>

#include "figures/figure_data.hpp"

namespace convlab {

struct FastestPoints {
  // One point per x value: the lowest median_ms among the points not set aside; a tie goes to
  // the point met first (the config's order of implementations).
  std::vector<const Record*> fastest;
  // The points of the implementations best.except names, drawn by the figure's series.
  std::vector<const Record*> set_aside;
  // The images of the x values whose candidates were of several images, in the order met.
  std::vector<std::string> merged_images;
};

// Splits one panel's points; points without a value of `x_field` or a median time are left out.
FastestPoints fastest_per_x(const std::vector<const Record*>& points, const std::string& x_field,
                            const BestDeclaration& best);

// The grid of a figure with best: its first row the fastest points (best.label), then one row
// per series of the points set aside, reduced as the declaration says. Where the fastest point
// has no value of y, that x has no point in the row: a slower point's value is not the fastest's.
Grid fastest_series_grid(const FigureDeclaration& declaration,
                         const std::vector<const Record*>& points, const std::string& context);

}  // namespace convlab

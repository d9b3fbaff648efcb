// type: convergence — how fast searches found their best (docs/search.md): the best objective so
// far against the variants measured, one line per search (strategy and seed). A line figure whose
// axes and series default to the search's fields: x search.step, y search.best_so_far_ms, series
// search.run; `where`, `panel` and the rest as for line. Searches of several problems are drawn
// in a panel per problem.
#include "figures/figure_types.hpp"

namespace convlab {
namespace {

FigureTypeRules convergence_rules() {
  FigureTypeRules rules = line_figure_type().rules;
  rules.error_bars = false;
  rules.overlays = false;
  rules.best = false;
  rules.log_x = true;
  rules.default_x = "search.step";
  rules.default_y = "search.best_so_far_ms";
  rules.default_series = "search.run";
  rules.panel_per_problem = true;  // a search's steps are of one problem
  return rules;
}

}  // namespace

const FigureTypeDescriptor& convergence_figure_type() {
  static const FigureTypeDescriptor line = line_figure_type();
  static const FigureTypeDescriptor type{"convergence",       {},
                                         convergence_rules(), line.panel_grid,
                                         line.panel_tsv,      line.plot_panel,
                                         line.legend_entry,   line.interaction};
  return type;
}

}  // namespace convlab

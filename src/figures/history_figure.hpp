// The figures of a history (history/history_series.hpp): one per problem (image, kernel, border,
// output), the metric's median against the commits in order, one line per configuration with
// q1..q3 bars, one panel per machine (and calibration), and each confirmed step marked at its
// commit by a dashed line and a point of the series "confirmed step". Hovering a point names the
// commit and its subject. Figure type `history` (figure_type_history.cpp) draws them; a config
// cannot declare one.
#pragma once

#include <vector>

#include "figures/figure_data.hpp"
#include "history/history_steps.hpp"

namespace convlab {

// `steps`: find_steps of the history; the confirmed ones (slower or faster) are marked.
std::vector<FigureData> history_figures(const History& history,
                                        const std::vector<HistoryStep>& steps);

}  // namespace convlab

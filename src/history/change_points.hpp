// Change points of a series: where its level steps. PELT (pruned exact linear time; Killick,
// Fearnhead and Eckley, 2012) finds the segmentation into pieces of constant mean that minimises
// the squared deviations from each piece's mean plus a penalty per change; pruning drops split
// points that can no longer start the last piece, so the search stays about linear. History runs
// it on the logarithms of each commit's median, so that a step is a ratio whatever the scale.
#pragma once

#include <cstddef>
#include <vector>

namespace convlab {

// The indices where a new piece starts (1..n-1), ascending; none when one piece is best.
// `penalty`: the cost of a change in units of squared deviation (> 0).
std::vector<std::size_t> change_points(const std::vector<double>& values, double penalty);

// The noise of a series whose level may step: the median of the absolute differences between
// neighbours over 0.6745 * sqrt(2) (a normal series' standard deviation; a few steps among many
// differences barely move the median). 0 for fewer than two values.
double neighbour_noise(const std::vector<double>& values);

// The penalty of a change for `count` values with noise `sigma`: factor * sigma^2 * ln(count),
// a BIC-like penalty (each change adds a level and a position) scaled by `factor`. With 8, the
// default, noise alone puts a change into about one series of five values in twenty (BIC's 2,
// into a quarter), and a step of twice the level among noise of 3 % is always found.
double change_penalty(double sigma, std::size_t count, double factor = 8.0);

}  // namespace convlab

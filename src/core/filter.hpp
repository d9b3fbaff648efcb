// A KxK filter as every implementation sees it: float coefficients in correlation orientation
// (weights[ky * size + kx] multiplies input (x + kx - r, y + ky - r), r = size / 2; not flipped,
// as OpenCV filter2D).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace convlab {

struct Filter {
  std::string type;  // library name: gaussian, sobel_x, custom, ...
  std::string name;  // display name, unique within a config, e.g. "gaussian7" or a custom name
  int size = 0;      // odd edge length K
  std::vector<float> weights;  // size * size, row-major
  nlohmann::json parameters;   // resolved generation parameters (sigma, normalize, ...)

  // Rank-1 filters factor into weights[ky * size + kx] == column[ky] * row[kx] (within float
  // rounding); separable implementations use the factors, everyone else the full matrix.
  bool separable = false;
  std::vector<float> column;
  std::vector<float> row;

  int radius() const { return size / 2; }
  float at(int ky, int kx) const { return weights[static_cast<size_t>(ky) * size + kx]; }
  double abs_sum() const;
};

}  // namespace convlab

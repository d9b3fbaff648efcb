// Small pieces of arithmetic that several filters of the library build their weights from.
#pragma once

#include <string>
#include <vector>

namespace convlab {

using FilterMatrix = std::vector<double>;  // size * size, row-major

// A normalised sampled Gaussian of `size` taps.
std::vector<double> gaussian_1d(int size, double sigma);
// column x row as a matrix.
FilterMatrix outer(const std::vector<double>& column, const std::vector<double>& row);
FilterMatrix transpose(const FilterMatrix& m, int size);
// The binomial coefficients of `order`: order + 1 values.
std::vector<double> binomial(int order);
// A parameter value as messages and display names write it (default stream formatting).
std::string number_words(double value);

}  // namespace convlab

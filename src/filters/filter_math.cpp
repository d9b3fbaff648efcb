#include "filters/filter_math.hpp"

#include <cmath>
#include <sstream>

namespace convlab {

std::vector<double> gaussian_1d(int size, double sigma) {
  std::vector<double> g(size);
  const int r = size / 2;
  double sum = 0.0;
  for (int i = 0; i < size; ++i) {
    const double d = i - r;
    g[i] = std::exp(-d * d / (2.0 * sigma * sigma));
    sum += g[i];
  }
  for (double& v : g) v /= sum;
  return g;
}

FilterMatrix outer(const std::vector<double>& column, const std::vector<double>& row) {
  FilterMatrix m(column.size() * row.size());
  for (size_t i = 0; i < column.size(); ++i)
    for (size_t j = 0; j < row.size(); ++j) m[i * row.size() + j] = column[i] * row[j];
  return m;
}

FilterMatrix transpose(const FilterMatrix& m, int size) {
  FilterMatrix t(m.size());
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) t[j * size + i] = m[i * size + j];
  return t;
}

std::vector<double> binomial(int order) {
  std::vector<double> c{1.0};
  for (int n = 0; n < order; ++n) {
    std::vector<double> next(c.size() + 1, 0.0);
    for (size_t i = 0; i < c.size(); ++i) {
      next[i] += c[i];
      next[i + 1] += c[i];
    }
    c = next;
  }
  return c;
}

std::string number_words(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace convlab

// The 3x3 kernels with fixed weights: sharpen, edge, laplacian, emboss and Prewitt.
#include "filters/filter_descriptor.hpp"
#include "filters/filter_math.hpp"

namespace convlab {
namespace {

FilterDescriptor fixed_3x3(const std::string& type, const std::string& summary,
                           const FilterMatrix& weights) {
  FilterDescriptor d;
  d.type = type;
  d.summary = summary;
  d.fixed_size = 3;
  d.parameters = {size_parameter(3), normalize_parameter()};
  d.build = [weights](const FilterRequest&, nlohmann::json&, std::vector<double>&) {
    return weights;
  };
  return d;
}

// A derivative along one axis, shown signed in the gallery.
FilterDescriptor shown_signed(FilterDescriptor descriptor) {
  descriptor.gallery_signed = true;
  return descriptor;
}

}  // namespace

FilterDescriptor make_sharpen_filter() {
  return fixed_3x3("sharpen", "[0 -1 0; -1 5 -1; 0 -1 0]", {0, -1, 0, -1, 5, -1, 0, -1, 0});
}

FilterDescriptor make_edge_filter() {
  return fixed_3x3("edge", "8-neighbour edge detector [-1 -1 -1; -1 8 -1; -1 -1 -1]",
                   {-1, -1, -1, -1, 8, -1, -1, -1, -1});
}

FilterDescriptor make_laplacian_filter() {
  return fixed_3x3("laplacian", "4-neighbour Laplacian [0 1 0; 1 -4 1; 0 1 0]",
                   {0, 1, 0, 1, -4, 1, 0, 1, 0});
}

FilterDescriptor make_prewitt_x_filter() {
  return shown_signed(fixed_3x3("prewitt_x", "Prewitt x derivative (right minus left)",
                                {-1, 0, 1, -1, 0, 1, -1, 0, 1}));
}

FilterDescriptor make_prewitt_y_filter() {
  return shown_signed(fixed_3x3("prewitt_y", "Prewitt y derivative (below minus above)",
                                {-1, -1, -1, 0, 0, 0, 1, 1, 1}));
}

FilterDescriptor make_emboss_filter() {
  return fixed_3x3("emboss", "[-2 -1 0; -1 1 1; 0 1 2]", {-2, -1, 0, -1, 1, 1, 0, 1, 2});
}

}  // namespace convlab

// One filter type of the kernel library as a descriptor: its name, the parameters a config may give
// it (with their kinds and ranges), the check of a request, the builder of its weights and its
// display name. The config reader, `convlab list` and the config schema read these descriptors;
// none of them names a filter type. A new filter is one file defining make_<row>_filter() and one
// row in CONVLAB_FILTER_TYPES below.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace convlab {

// The largest kernel edge a config may ask for.
constexpr int kMaxFilterSize = 255;

// One resolved request: a single size (sweeps are expanded by the config layer).
struct FilterRequest {
  std::string type;
  int size = 3;
  std::optional<double> sigma;   // gaussian, log, dog
  std::optional<double> sigma2;  // dog: the wider Gaussian (default 1.6 x sigma)
  bool normalize = false;        // divide by the sum of the weights
  std::string custom_name;
  std::vector<std::vector<double>> matrix;  // custom
};

// Thrown for a request that cannot make a filter; the message names the offending parameter.
class FilterError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// What a config value of a parameter is, and so how it is read and described.
enum class FilterParameterKind {
  size,             // an odd integer, or a list of them (a sweep)
  positive_number,  // a number > 0 (sigma)
  boolean,          // true or false (normalize)
  name,             // a file-safe name (a custom kernel's)
  matrix,           // a square list of rows of numbers, of odd size
};

struct FilterParameter {
  std::string key;
  FilterParameterKind kind = FilterParameterKind::positive_number;
  std::string description;  // what it does and its default, for help and the schema
  bool required = false;
  // The member of FilterRequest it sets: for positive numbers and for booleans.
  std::optional<double> FilterRequest::*number = nullptr;
  bool FilterRequest::*flag = nullptr;
};

// A problem of a request that the descriptor's own check finds, at the parameter key at fault.
struct FilterProblem {
  std::string key;  // "size", "sigma2", "matrix"
  std::string message;
};

struct FilterDescriptor {
  std::string type;
  std::string summary;
  int fixed_size = 0;  // 0: any odd size; otherwise the only size the filter has
  int min_size = 1;
  std::vector<FilterParameter> parameters;  // besides `type`
  // The weights, size * size row-major; `parameters` receives the resolved generation parameters
  // (sigma, ...) and `factor`, for a Gaussian, its one-dimensional kernel.
  std::function<std::vector<double>(const FilterRequest&, nlohmann::json& parameters,
                                    std::vector<double>& factor)>
      build;
  // Optional: a problem of the request beyond sizes and positive sigmas, which every filter shares.
  std::function<std::optional<FilterProblem>(const FilterRequest&)> check;
  // Optional: the display name; empty: type, size, then -s<sigma>, -t<sigma2>, -n (normalize).
  std::function<std::string(const FilterRequest&)> display_name;
  // True for a derivative along one axis (Prewitt, Sobel): the gallery shows its f32 output signed
  // around mid-grey, since the sign says which way brightness changes. Other filters are shown by
  // their weights: a zero-sum filter's magnitude, any other's u8 output (gallery_render.hpp).
  bool gallery_signed = false;

  const FilterParameter* parameter(const std::string& key) const;
  bool takes(const std::string& key) const { return parameter(key) != nullptr; }
};

// The parameters several filters share.
FilterParameter size_parameter(int fixed_size);
FilterParameter sigma_parameter(const std::string& description);
FilterParameter normalize_parameter();

// Every filter type, one row each, in the order `convlab list` shows them.
#define CONVLAB_FILTER_TYPES(ROW) \
  ROW(gaussian)                   \
  ROW(box)                        \
  ROW(sharpen)                    \
  ROW(edge)                       \
  ROW(laplacian)                  \
  ROW(log)                        \
  ROW(dog)                        \
  ROW(prewitt_x)                  \
  ROW(prewitt_y)                  \
  ROW(sobel_x)                    \
  ROW(sobel_y)                    \
  ROW(emboss)                     \
  ROW(custom)

#define CONVLAB_FILTER_FACTORY(row) FilterDescriptor make_##row##_filter();
CONVLAB_FILTER_TYPES(CONVLAB_FILTER_FACTORY)
#undef CONVLAB_FILTER_FACTORY

const std::vector<FilterDescriptor>& filter_types();
const FilterDescriptor* find_filter_type(const std::string& type);

// Checks every filter shares (an odd size within the descriptor's sizes, positive finite sigmas),
// then the descriptor's own; nullopt when the request can make a filter.
std::optional<FilterProblem> filter_request_problem(const FilterRequest& request,
                                                    const FilterDescriptor& descriptor);

}  // namespace convlab

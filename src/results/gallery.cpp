#include "results/gallery.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "images/image_source.hpp"
#include "reference/reference.hpp"

namespace convlab {
namespace {

Filter transposed(const Filter& filter) {
  Filter t = filter;
  for (int y = 0; y < filter.size; ++y)
    for (int x = 0; x < filter.size; ++x) t.weights[x * filter.size + y] = filter.at(y, x);
  return t;
}

bool is_derivative(const Filter& f) {
  return f.type == "prewitt_x" || f.type == "prewitt_y" || f.type == "sobel_x" ||
         f.type == "sobel_y";
}

std::vector<std::uint8_t> visualise(const Image& image, const Filter& filter, Border border) {
  const Problem problem{image, filter, border, OutputType::f32};
  std::vector<double> values = compute_reference(problem).values;
  double weight_sum = 0.0;
  for (float w : filter.weights) weight_sum += w;
  const bool stretch = is_derivative(filter) || std::fabs(weight_sum) < 1e-6;
  if (is_derivative(filter)) {
    const Filter other = transposed(filter);
    const std::vector<double> second =
        compute_reference({image, other, border, OutputType::f32}).values;
    for (size_t i = 0; i < values.size(); ++i) values[i] = std::hypot(values[i], second[i]);
  }
  double scale = 1.0;
  if (stretch) {
    double largest = 0.0;
    for (double& v : values) largest = std::max(largest, v = std::fabs(v));
    scale = largest > 0 ? 255.0 / largest : 1.0;
  }
  std::vector<std::uint8_t> pixels(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    pixels[i] =
        static_cast<std::uint8_t>(std::clamp(std::floor(values[i] * scale + 0.5), 0.0, 255.0));
  return pixels;
}

}  // namespace

void add_gallery_entry(ResultsFile& results, const std::string& out_dir, const Image& image,
                       const std::string& image_name, const Filter& filter, Border border) {
  const std::string folder = out_dir + "/images";
  std::filesystem::create_directories(folder);
  const std::string input = "images/" + image_name + "__input.png";
  const std::string output =
      "images/" + image_name + "__" + filter.name + "__" + std::string(to_string(border)) + ".png";
  if (!std::filesystem::exists(out_dir + "/" + input))
    write_png(out_dir + "/" + input, image.width, image.height, image.channels,
              image.pixels.data());
  const std::vector<std::uint8_t> pixels = visualise(image, filter, border);
  if (!write_png(out_dir + "/" + output, image.width, image.height, image.channels, pixels.data()))
    return;
  nlohmann::json entry{{"image", image_name},
                       {"kernel", filter.name},
                       {"border", std::string(to_string(border))},
                       {"input", input},
                       {"output", output}};
  for (const auto& existing : results.gallery)
    if (existing == entry) return;
  results.gallery.push_back(entry);
}

}  // namespace convlab

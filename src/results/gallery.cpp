#include "results/gallery.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "config/config.hpp"
#include "filters/filter_library.hpp"
#include "images/image_source.hpp"
#include "reference/reference.hpp"

namespace convlab {
namespace {

bool is_derivative(const Filter& f) {
  return f.type == "prewitt_x" || f.type == "prewitt_y" || f.type == "sobel_x" ||
         f.type == "sobel_y";
}

std::vector<std::uint8_t> visualise(const Image& image, const Filter& filter, Border border) {
  const Problem problem{image, filter, border, OutputType::f32};
  std::vector<double> values = compute_reference(problem).values;
  double weight_sum = 0.0;
  for (float w : filter.weights) weight_sum += w;
  // A derivative keeps its sign, around mid-grey (darker: falling, lighter: rising along its
  // axis), so the x and y kernels show different edges; other zero-sum filters show |response|.
  const bool signed_display = is_derivative(filter);
  const bool stretch = signed_display || std::fabs(weight_sum) < 1e-6;
  double scale = 1.0;
  double offset = 0.0;
  if (stretch) {
    // Full range at the 99.5th percentile of |response|, not at its largest value: a few extreme
    // responses would otherwise leave the picture nearly black (or grey); the rest saturate.
    std::vector<double> magnitudes(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      if (!signed_display) values[i] = std::fabs(values[i]);
      magnitudes[i] = std::fabs(values[i]);
    }
    double level = 0.0;
    if (!magnitudes.empty()) {
      const auto at =
          magnitudes.begin() + static_cast<std::ptrdiff_t>((magnitudes.size() - 1) * 995 / 1000);
      std::nth_element(magnitudes.begin(), at, magnitudes.end());
      level = *at > 0 ? *at : *std::max_element(magnitudes.begin(), magnitudes.end());
    }
    scale = level > 0 ? (signed_display ? 127.5 : 255.0) / level : 1.0;
    offset = signed_display ? 127.5 : 0.0;
  }
  std::vector<std::uint8_t> pixels(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    pixels[i] = static_cast<std::uint8_t>(
        std::clamp(std::floor(values[i] * scale + offset + 0.5), 0.0, 255.0));
  return pixels;
}

nlohmann::json find_named(const nlohmann::json& list, const std::string& name) {
  for (const auto& entry : list)
    if (entry.value("name", "") == name) return entry;
  return nullptr;
}

ImageSpec image_spec_from(const nlohmann::json& entry) {
  ImageSpec spec;
  spec.name = entry.value("name", "");
  spec.width = entry.value("width", 0);
  spec.height = entry.value("height", 0);
  spec.channels = entry.value("channels", 3);
  if (entry.value("type", "") == "file") {
    spec.kind = ImageSpec::Kind::file;
    spec.path = entry.value("path", "");
  } else {
    spec.seed = entry.value("seed", std::uint64_t{1});
    spec.pattern = entry.value("pattern", "noise");
  }
  return spec;
}

Filter filter_from(const nlohmann::json& kernel) {
  FilterRequest request;
  request.type = kernel.value("type", "");
  request.size = kernel.value("size", 3);
  request.custom_name = kernel.value("name", "");
  const nlohmann::json parameters = kernel.value("parameters", nlohmann::json::object());
  if (parameters.contains("sigma")) request.sigma = parameters["sigma"].get<double>();
  if (parameters.contains("sigma2")) request.sigma2 = parameters["sigma2"].get<double>();
  request.normalize = parameters.value("normalize", false);
  if (parameters.contains("matrix")) {
    request.matrix = parameters["matrix"].get<std::vector<std::vector<double>>>();
  } else if (request.type == "custom" && kernel.contains("weights")) {
    // Configs resolved by earlier versions kept the weights instead of the matrix.
    const auto weights = kernel["weights"].get<std::vector<double>>();
    for (int row = 0; row < request.size; ++row)
      request.matrix.emplace_back(weights.begin() + row * request.size,
                                  weights.begin() + (row + 1) * request.size);
  }
  return make_filter(request);
}

}  // namespace

std::string gallery_display_path(const nlohmann::json& entry) {
  return entry.contains("display") ? entry.value("display", "") : entry.value("output", "");
}

int restore_gallery_images(const std::string& out_dir) {
  const ResultsFile results = read_results(out_dir + "/results.json");
  if (results.gallery.empty() || results.runs.empty()) return 0;
  int written = 0;
  std::filesystem::create_directories(out_dir + "/images");
  for (const auto& entry : results.gallery) {
    const bool have_input = std::filesystem::exists(out_dir + "/" + entry.value("input", ""));
    const std::string display = gallery_display_path(entry);
    const bool have_output = std::filesystem::exists(out_dir + "/" + display);
    if (have_input && have_output) continue;
    // The newest run that knows both the image and the kernel describes them.
    nlohmann::json image_entry, kernel_entry;
    for (auto run = results.runs.rbegin(); run != results.runs.rend(); ++run) {
      const auto& resolved = run->resolved_config;
      image_entry = find_named(resolved.value("images", nlohmann::json::array()), entry["image"]);
      kernel_entry =
          find_named(resolved.value("kernels", nlohmann::json::array()), entry["kernel"]);
      if (!image_entry.is_null() && !kernel_entry.is_null()) break;
    }
    if (image_entry.is_null() || kernel_entry.is_null())
      throw ResultsFileError(out_dir + "/results.json: gallery entry " + entry.dump() +
                             " names an image or kernel its runs do not describe");
    Image image;
    try {
      image = materialize_image(image_spec_from(image_entry));
    } catch (const ImageFileError& error) {
      throw ResultsFileError(
          std::string(error.what()) +
          " (needed for the gallery; scripts/install-deps.sh photos installs the "
          "photographs)");
    }
    Filter filter;
    try {
      filter = filter_from(kernel_entry);
    } catch (const FilterError& error) {
      throw ResultsFileError(out_dir + "/results.json: kernel " + kernel_entry.dump() + ": " +
                             error.what());
    }
    const Border border =
        parse_border(entry.value("border", "replicate")).value_or(Border::replicate);
    if (!have_input && write_png(out_dir + "/" + entry["input"].get<std::string>(), image.width,
                                 image.height, image.channels, image.pixels.data()))
      ++written;
    if (!have_output) {
      const std::vector<std::uint8_t> pixels = visualise(image, filter, border);
      std::filesystem::create_directories(
          std::filesystem::path(out_dir + "/" + display).parent_path());
      if (write_png(out_dir + "/" + display, image.width, image.height, image.channels,
                    pixels.data()))
        ++written;
    }
  }
  return written;
}

void add_gallery_entry(ResultsFile& results, const std::string& out_dir, const Image& image,
                       const std::string& image_name, const Filter& filter, Border border) {
  const std::string folder = out_dir + "/images";
  std::filesystem::create_directories(folder);
  const std::string input = "images/" + image_name + "__input.png";
  const std::string display = "images/display/" + image_name + "__" + filter.name + "__" +
                              std::string(to_string(border)) + ".png";
  std::filesystem::create_directories(folder + "/display");
  if (!std::filesystem::exists(out_dir + "/" + input))
    write_png(out_dir + "/" + input, image.width, image.height, image.channels,
              image.pixels.data());
  const std::vector<std::uint8_t> pixels = visualise(image, filter, border);
  if (!write_png(out_dir + "/" + display, image.width, image.height, image.channels, pixels.data()))
    return;
  nlohmann::json entry{{"image", image_name},
                       {"kernel", filter.name},
                       {"border", std::string(to_string(border))},
                       {"input", input},
                       {"display", display}};
  for (const auto& existing : results.gallery)
    if (existing == entry) return;
  results.gallery.push_back(entry);
}

}  // namespace convlab

#include "gallery/gallery.hpp"

#include <stb/stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "config/config.hpp"
#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "filters/filter_descriptor.hpp"
#include "filters/filter_library.hpp"
#include "gallery/gallery_render.hpp"
#include "gallery/gallery_select.hpp"
#include "images/image_source.hpp"
#include "images/print_jpeg.hpp"
#include "reference/reference.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

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

// A filter type given by its weights (a custom kernel).
bool takes_matrix(const std::string& type) {
  const FilterDescriptor* descriptor = find_filter_type(type);
  return descriptor && descriptor->takes("matrix");
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
  } else if (takes_matrix(request.type) && kernel.contains("weights")) {
    // Configs resolved by earlier versions kept the weights instead of the matrix.
    const auto weights = kernel["weights"].get<std::vector<double>>();
    for (int row = 0; row < request.size; ++row)
      request.matrix.emplace_back(weights.begin() + row * request.size,
                                  weights.begin() + (row + 1) * request.size);
  }
  return make_filter(request);
}

// A saved point output read back: its values (u8 or f32), size and the sha256 of its bytes.
struct LoadedOutput {
  int width = 0, height = 0, channels = 0;
  std::vector<std::uint8_t> u8;
  std::vector<float> f32;
  std::string sha256;
};

// Nullopt when the file does not decode; a FileError when it is not a regular file.
std::optional<LoadedOutput> load_output(const std::string& path, const std::string& output) {
  LoadedOutput loaded;
  if (output == "f32") {
    loaded.f32 = read_pfm(path, &loaded.width, &loaded.height, &loaded.channels);
    if (loaded.f32.empty()) return std::nullopt;
    loaded.sha256 = sha256_hex(reinterpret_cast<const std::uint8_t*>(loaded.f32.data()),
                               loaded.f32.size() * sizeof(float));
    return loaded;
  }
  const int fd = open_regular_file(path);
  FILE* file = ::fdopen(fd, "rb");
  if (file == nullptr) {
    ::close(fd);
    return std::nullopt;
  }
  unsigned char* pixels =
      stbi_load_from_file(file, &loaded.width, &loaded.height, &loaded.channels, 0);
  std::fclose(file);
  if (!pixels) return std::nullopt;
  loaded.u8.assign(pixels, pixels + size_t(loaded.width) * loaded.height * loaded.channels);
  stbi_image_free(pixels);
  loaded.sha256 = sha256_hex(loaded.u8.data(), loaded.u8.size());
  return loaded;
}

std::string display_name(const std::string& image, const std::string& kernel,
                         const std::string& border) {
  return "gallery/" + image + "__" + kernel + "__" + border + ".jpg";
}

// Draws the entry's picture from its source output; false (with `problem` set) when the output
// cannot be read or no longer holds the bytes the entry names. `level` receives the stretch. A
// picture that cannot be written is a FileError.
bool draw_picture(const std::string& out_dir, const json& entry, std::string& problem,
                  double* level = nullptr) {
  const json& source = entry["source"];
  const std::string file = source.value("file", "");
  std::optional<LoadedOutput> loaded;
  try {
    loaded = load_output(out_dir + "/" + file, source.value("output", ""));
  } catch (const FileError& error) {
    problem = error.what();
    return false;
  }
  if (!loaded) {
    problem = out_dir + "/" + file + ": cannot be read as a saved " + source.value("output", "") +
              " output";
    return false;
  }
  if (loaded->sha256 != source.value("sha256", "")) {
    problem = out_dir + "/" + file + ": holds other bytes than the output the gallery entry for " +
              entry.value("image", "") + " / " + entry.value("kernel", "") +
              " was drawn from (sha256 " + source.value("sha256", "") + ")";
    return false;
  }
  const GalleryMapping mapping =
      parse_gallery_mapping(entry["mapping"].value("kind", "")).value_or(GalleryMapping::straight);
  const DisplayPixels display =
      loaded->f32.empty() ? display_from_u8(loaded->u8) : display_from_f32(loaded->f32, mapping);
  if (level) *level = display.level;
  const std::string path = out_dir + "/" + gallery_display_path(entry);
  write_print_jpeg(path, loaded->width, loaded->height, loaded->channels, display.pixels.data());
  return true;
}

json identical_json(const std::vector<IdenticalCount>& counts) {
  json list = json::array();
  for (const auto& count : counts)
    list.push_back({{"output", count.output}, {"identical", count.identical}, {"ran", count.ran}});
  return list;
}

// The entry for one item, its picture drawn; null with a warning when no output can be shown.
json gallery_entry(const std::vector<Record>& records, const std::string& out_dir,
                   const GalleryPlan& plan, const GalleryItem& item, std::string& warning) {
  const std::string border(to_string(item.border));
  const GalleryMapping wanted = gallery_mapping_for(item.filter);
  GalleryQuery query{item.image,
                     item.filter.name,
                     border,
                     wanted == GalleryMapping::straight ? std::vector<std::string>{"u8", "f32"}
                                                        : std::vector<std::string>{"f32", "u8"},
                     plan.implementation_order,
                     plan.implementation};
  const GalleryChoice choice = choose_gallery_source(
      records, query, [&](const std::string& f) { return fs::exists(out_dir + "/" + f); });
  if (!choice.source) {
    warning = item.image + " / " + item.filter.name + ": no implementation saved an ok output";
    return nullptr;
  }
  const GallerySource& source = *choice.source;
  // A zero-sum filter drawn from u8 output (no f32 measured) loses its negative values.
  const GalleryMapping mapping = source.output == "u8" ? GalleryMapping::straight : wanted;
  json entry{{"image", item.image},
             {"kernel", item.filter.name},
             {"border", border},
             {"input", "images/" + item.image + "__input.png"},
             {"display", display_name(item.image, item.filter.name, border)},
             {"source",
              {{"implementation", source.implementation},
               {"params", source.params},
               {"output", source.output},
               {"key", source.key},
               {"file", source.file},
               {"sha256", source.sha256}}},
             {"mapping", {{"kind", to_string(mapping)}}},
             {"identical", identical_json(choice.identical)}};
  if (!choice.fallback.empty()) entry["fallback"] = choice.fallback;
  if (mapping != wanted)
    entry["note"] =
        "no f32 output was measured: drawn from the u8 output, whose negative values "
        "are clamped to 0";
  double level = 0.0;
  std::string problem;
  if (!draw_picture(out_dir, entry, problem, &level)) {
    warning = problem;
    return nullptr;
  }
  if (mapping != GalleryMapping::straight) entry["mapping"]["level"] = level;
  return entry;
}

// Pictures of earlier versions' entries (no source): drawn from the reference computation.
std::vector<std::uint8_t> reference_picture(const Image& image, const Filter& filter,
                                            Border border) {
  const Problem problem{image, filter, border, OutputType::f32};
  const std::vector<double> values = compute_reference(problem).values;
  const std::vector<float> floats(values.begin(), values.end());
  return display_from_f32(floats, gallery_mapping_for(filter)).pixels;
}

// The image and kernel an entry names, from the newest run that describes both.
std::pair<Image, Filter> entry_image_and_filter(const ResultsFile& results,
                                                const std::string& out_dir, const json& entry) {
  json image_entry, kernel_entry;
  for (auto run = results.runs.rbegin(); run != results.runs.rend(); ++run) {
    const auto& resolved = run->resolved_config;
    image_entry = find_named(resolved.value("images", json::array()), entry["image"]);
    kernel_entry = find_named(resolved.value("kernels", json::array()), entry["kernel"]);
    if (!image_entry.is_null() && !kernel_entry.is_null()) break;
  }
  if (image_entry.is_null() || kernel_entry.is_null())
    throw ResultsFileError(out_dir + "/results.json: gallery entry " + entry.dump() +
                           " names an image or kernel its runs do not describe");
  Image image;
  try {
    image = materialize_image(image_spec_from(image_entry));
  } catch (const ImageFileError& error) {
    throw ResultsFileError(std::string(error.what()) +
                           " (needed for the gallery; scripts/install-deps.sh photos installs the "
                           "photographs)");
  }
  try {
    return {std::move(image), filter_from(kernel_entry)};
  } catch (const FilterError& error) {
    throw ResultsFileError(out_dir + "/results.json: kernel " + kernel_entry.dump() + ": " +
                           error.what());
  }
}

// A display picture with a source: drawn again when the source is there and newer (or the picture
// is gone); an error when both are gone.
bool restore_display(const std::string& out_dir, const json& entry,
                     std::vector<std::string>& warnings) {
  const std::string display = out_dir + "/" + gallery_display_path(entry);
  const std::string source = out_dir + "/" + entry["source"].value("file", "");
  require_owned_place(display);
  const bool have_display = fs::exists(display);
  if (!fs::exists(source)) {
    if (have_display) return false;
    throw ResultsFileError(display + ": missing, and so is the output it is drawn from, " + source +
                           " (point " + entry["source"].value("key", "") +
                           "); run the experiment again with save_outputs: true to write both");
  }
  if (have_display && fs::last_write_time(display) >= fs::last_write_time(source)) return false;
  std::string problem;
  if (draw_picture(out_dir, entry, problem)) return true;
  if (!have_display) throw ResultsFileError(problem + "; " + display + " is missing");
  warnings.push_back(problem + "; " + display + " is kept as it is");
  return false;
}

}  // namespace

std::string gallery_display_path(const nlohmann::json& entry) {
  return entry.contains("display") ? entry.value("display", "") : entry.value("output", "");
}

void write_gallery_input(const std::string& out_dir, const Image& image,
                         const std::string& image_name) {
  const std::string path = out_dir + "/images/" + image_name + "__input.png";
  require_owned_place(path);
  if (fs::exists(path)) return;
  create_folders(out_dir + "/images");
  write_png(path, image.width, image.height, image.channels, image.pixels.data());
}

std::vector<json> build_gallery(const std::vector<Record>& records, const std::string& out_dir,
                                const GalleryPlan& plan, const std::vector<json>& earlier,
                                std::vector<std::string>& warnings) {
  std::vector<json> entries;
  for (const GalleryItem& item : plan.items) {
    std::string warning;
    json entry = gallery_entry(records, out_dir, plan, item, warning);
    if (!entry.is_null()) {
      entries.push_back(std::move(entry));
      continue;
    }
    const std::string border(to_string(item.border));
    const auto kept = std::find_if(earlier.begin(), earlier.end(), [&](const json& e) {
      return e.value("image", "") == item.image && e.value("kernel", "") == item.filter.name &&
             e.value("border", "") == border && fs::exists(out_dir + "/" + gallery_display_path(e));
    });
    warnings.push_back(warning + (kept != earlier.end() ? "; its earlier picture is kept"
                                                        : "; it is left out of the gallery"));
  }
  return entries;
}

GalleryRestore restore_gallery_images(const std::string& out_dir) {
  const ResultsFile results = read_results(out_dir + "/results.json");
  GalleryRestore restore;
  for (const auto& entry : results.gallery) {
    const std::string input = out_dir + "/" + entry.value("input", "");
    require_owned_place(input);
    const bool from_source = entry.contains("source") && entry["source"].is_object();
    if (from_source && restore_display(out_dir, entry, restore.warnings)) ++restore.written;
    const std::string display = out_dir + "/" + gallery_display_path(entry);
    require_owned_place(display);
    const bool legacy_missing = !from_source && !fs::exists(display);
    if (fs::exists(input) && !legacy_missing) continue;
    const auto [image, filter] = entry_image_and_filter(results, out_dir, entry);
    if (!fs::exists(input)) {
      create_folders(fs::path(input).parent_path().string());
      write_png(input, image.width, image.height, image.channels, image.pixels.data());
      ++restore.written;
    }
    if (legacy_missing) {
      const Border border =
          parse_border(entry.value("border", "replicate")).value_or(Border::replicate);
      const std::vector<std::uint8_t> pixels = reference_picture(image, filter, border);
      create_folders(fs::path(display).parent_path().string());
      write_png(display, image.width, image.height, image.channels, pixels.data());
      ++restore.written;
      ++restore.from_reference;
    }
  }
  return restore;
}

}  // namespace convlab

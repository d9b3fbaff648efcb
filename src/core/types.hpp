// Vocabulary shared by every stage of the pipeline: borders, output types, point status.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace convlab {

// How pixels outside the image are read. Names and formulas follow OpenCV (docs/borders.md).
enum class Border {
  zero,       // BORDER_CONSTANT with 0:           000|abcdefgh|000
  replicate,  // BORDER_REPLICATE:                 aaa|abcdefgh|hhh
  reflect,    // BORDER_REFLECT_101 (the default): dcb|abcdefgh|gfe
  symmetric,  // BORDER_REFLECT (edge repeated):   cba|abcdefgh|hgf
  wrap,       // BORDER_WRAP:                      fgh|abcdefgh|abc
};

enum class OutputType { u8, f32 };

enum class Status { ok, skipped, failed };

const std::vector<Border>& all_borders();
std::string_view to_string(Border border);
std::optional<Border> parse_border(std::string_view text);

std::string_view to_string(OutputType type);
std::optional<OutputType> parse_output_type(std::string_view text);
inline size_t bytes_per_value(OutputType type) {
  return type == OutputType::u8 ? 1 : 4;
}

std::string_view to_string(Status status);
std::optional<Status> parse_status(std::string_view text);

}  // namespace convlab

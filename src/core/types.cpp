#include "core/types.hpp"

#include <array>
#include <utility>

#include "core/output_types.hpp"

namespace convlab {
namespace {

constexpr std::array<std::pair<Border, std::string_view>, 5> kBorderNames{{
    {Border::zero, "zero"},
    {Border::replicate, "replicate"},
    {Border::reflect, "reflect"},
    {Border::symmetric, "symmetric"},
    {Border::wrap, "wrap"},
}};

template <typename Enum, size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& names,
                         Enum value) {
  for (const auto& [candidate, name] : names)
    if (candidate == value) return name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, std::string_view>, N>& names,
                             std::string_view text) {
  for (const auto& [value, name] : names)
    if (name == text) return value;
  return std::nullopt;
}

constexpr std::array<std::pair<OutputType, std::string_view>, 2> kOutputNames{{
    {OutputType::u8, "u8"},
    {OutputType::f32, "f32"},
}};

constexpr std::array<std::pair<Status, std::string_view>, 3> kStatusNames{{
    {Status::ok, "ok"},
    {Status::skipped, "skipped"},
    {Status::failed, "failed"},
}};

}  // namespace

const std::vector<Border>& all_borders() {
  static const std::vector<Border> borders{Border::zero, Border::replicate, Border::reflect,
                                           Border::symmetric, Border::wrap};
  return borders;
}

std::string_view to_string(Border border) {
  return name_of(kBorderNames, border);
}
std::optional<Border> parse_border(std::string_view text) {
  return value_of(kBorderNames, text);
}
const std::vector<OutputType>& all_output_types() {
  static const std::vector<OutputType> outputs{OutputType::u8, OutputType::f32};
  return outputs;
}

std::string_view to_string(OutputType type) {
  return name_of(kOutputNames, type);
}
std::optional<OutputType> parse_output_type(std::string_view text) {
  return value_of(kOutputNames, text);
}
std::string_view to_string(Status status) {
  return name_of(kStatusNames, status);
}
std::optional<Status> parse_status(std::string_view text) {
  return value_of(kStatusNames, text);
}

}  // namespace convlab

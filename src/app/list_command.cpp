#include <iostream>

#include "app/commands.hpp"
#include "core/types.hpp"
#include "filters/filter_library.hpp"
#include "impl/cuda/device_facts.hpp"
#include "impl/registry.hpp"
#include "measure/provenance.hpp"

namespace convlab {
namespace {

std::string axis_kind(const AxisSpec& axis) {
  switch (axis.kind) {
    case AxisKind::integer:
      return "integer " + std::to_string(axis.min_value) + ".." + std::to_string(axis.max_value);
    case AxisKind::integer_pair:
      return "pair [x, y], each " + std::to_string(axis.min_value) + ".." +
             std::to_string(axis.max_value);
    case AxisKind::boolean:
      return "true | false";
    case AxisKind::choice: {
      std::string text;
      for (const auto& c : axis.choices) text += (text.empty() ? "" : " | ") + c;
      return text;
    }
  }
  return "";
}

}  // namespace

int list_command(const Arguments& args) {
  const CommandLine line("list", {{},
                                  "Lists implementations (with their parameter axes and "
                                  "defaults), kernel types, borders and\noutput types.\n",
                                  "",
                                  ""});
  if (const auto status = line.parse(args)) return *status;
  std::cout << "implementations:\n";
  for (const auto& impl : implementation_registry()) {
    std::cout << "  " << impl.name << " (" << family_name(impl.family) << "): " << impl.description
              << "\n";
    for (const auto& axis : impl.axes)
      std::cout << "      " << axis.name << ": " << axis_kind(axis) << " (default "
                << axis.default_value.dump() << ") - " << axis.help << "\n";
  }
  std::string parts;
  for (const BuiltInPart& part : built_in_parts())
    parts += (parts.empty() ? "" : "; ") + part.name + ": " + (part.built ? "built" : "not built");
  std::cout << "  " << parts << " (convlab --version)\n";
  std::cout << "\nkernels (type: description):\n";
  for (const auto& info : filter_types())
    std::cout << "  " << info.type
              << (info.fixed_size ? " (size " + std::to_string(info.fixed_size) + " only)" : "")
              << ": " << info.summary << "\n";
  std::cout << "\nborders:\n"
               "  zero       0 outside the image (OpenCV BORDER_CONSTANT, value 0)\n"
               "  replicate  aaa|abcdefgh|hhh (BORDER_REPLICATE)\n"
               "  reflect    dcb|abcdefgh|gfe (BORDER_REFLECT_101, OpenCV's default)\n"
               "  symmetric  cba|abcdefgh|hgf (BORDER_REFLECT)\n"
               "  wrap       fgh|abcdefgh|abc (BORDER_WRAP)\n";
  std::cout << "\noutputs:\n  u8   rounded to nearest, clamped to 0..255\n  f32  the float sum\n";
  return 0;
}

}  // namespace convlab

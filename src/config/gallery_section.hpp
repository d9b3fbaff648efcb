// The gallery: section (docs/config.md): which implementation's saved outputs the report's gallery
// shows; only with save_outputs: true, and one of the config's implementations.
#pragma once

#include "config/config.hpp"
#include "config/yaml_read.hpp"

namespace convlab {

// `config`: its save_outputs and implementations read already.
GallerySpec parse_gallery(const YAML::Node& node, const Config& config, const YamlLocation& where);

}  // namespace convlab

#include "config/gallery_section.hpp"

#include <algorithm>

#include "config/config_keys.hpp"
#include "config/implementations_section.hpp"

namespace convlab {

GallerySpec parse_gallery(const YAML::Node& node, const Config& config, const YamlLocation& where) {
  if (!config.save_outputs)
    where.fail(node, "the gallery shows saved outputs: it needs save_outputs: true");
  require_map(node, where);
  require_known_keys(node, where, key_names(gallery_keys()));
  GallerySpec gallery;
  gallery.implementation =
      read_string(require_key(node, "implementation", where), where.child("implementation"));
  const bool configured =
      std::any_of(config.implementations.begin(), config.implementations.end(),
                  [&](const auto& s) { return s.name == gallery.implementation; });
  if (!configured)
    where.child("implementation")
        .fail(node["implementation"], quoted_value(gallery.implementation) +
                                          " is not one of this config's implementations" +
                                          implementations_words(config.implementations));
  return gallery;
}

}  // namespace convlab

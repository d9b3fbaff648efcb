#include "images/image_source.hpp"

namespace convlab {

Image materialize_image(const ImageSpec& spec) {
  if (spec.kind == ImageSpec::Kind::generated) {
    Image image = generate_image(spec.width, spec.height, spec.channels, spec.seed, spec.pattern);
    image.name = spec.name;
    return image;
  }
  Image image = load_image_file(spec.path, spec.channels);
  image.name = spec.name;
  return image;
}

}  // namespace convlab

// What a config says about one input image, before it is made: its name, shape and where its
// pixels come from.
#pragma once

#include <cstdint>
#include <string>

namespace convlab {

// One input image of the plan. Generated images are made when the runner reaches them; file
// images have been decoded once during validation to prove they are readable.
struct ImageSpec {
  enum class Kind { generated, file };
  Kind kind = Kind::generated;
  std::string name;
  int width = 0;
  int height = 0;
  int channels = 3;
  std::uint64_t seed = 0;  // generated
  std::string pattern;     // generated: noise | scene
  std::string path;        // file
  std::string key_path;    // where the config defines it, e.g. images[0].sizes[2], for messages
};

}  // namespace convlab

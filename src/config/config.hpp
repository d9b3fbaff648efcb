// An experiment config, parsed and validated (docs/config.md). Everything that can be checked
// without running is checked in load_config, which throws ConfigError on the first problem.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/filter.hpp"
#include "core/types.hpp"
#include "impl/implementation.hpp"

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

// One implementation of the config with every combination of its swept axes.
struct ImplementationSweep {
  std::string name;
  nlohmann::json axes = nlohmann::json::object();  // axis -> the list of values swept
  std::vector<Params> combinations;                // their cartesian product
};

struct MeasureSpec {
  int warmup = 1;
  int min_reps = 3;
  int max_reps = 20;
  double max_seconds = 2.0;  // per point, after warm-up
  bool l2_flush = false;     // CUDA: clear L2 before every repetition
};

// The implementation speedups are measured against; `params` (possibly partial) picks among its
// combinations, e.g. openmp with threads 1.
struct BaselineSpec {
  std::string implementation;
  Params params = Params::object();
};

struct Config;
// The measure block for one implementation: the config's, with its per_implementation entry on top.
const MeasureSpec& measure_for(const Config& config, const std::string& implementation);

struct Config {
  std::string path;
  std::string sha256;  // of the file's bytes
  std::string name;
  std::string title;
  std::string description;
  std::vector<ImageSpec> images;
  std::vector<Filter> filters;
  std::vector<Border> borders;
  std::vector<OutputType> outputs;
  std::vector<ImplementationSweep> implementations;
  BaselineSpec baseline;
  MeasureSpec measure;
  std::map<std::string, MeasureSpec> measure_overrides;  // measure.per_implementation
  bool save_outputs = false;
  nlohmann::json report;    // figures and tables as written (validated by the report module)
  nlohmann::json resolved;  // the whole config with every default filled in
};

Config load_config(const std::string& path);

// Bytes one point of this image needs at most (input, output, reference, CPU scratch).
std::uint64_t bytes_needed_for_image(int width, int height, int channels);

}  // namespace convlab

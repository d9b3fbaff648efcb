#include "config/measure_section.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>

#include "config/config_keys.hpp"
#include "config/implementations_section.hpp"

namespace convlab {
namespace {

// "1s", "500ms", "2min": max_seconds is a plain number of seconds; the message gives it.
void refuse_unit(const YAML::Node& node, const YamlLocation& at) {
  std::smatch parts;
  const std::string text = node.IsScalar() ? node.Scalar() : "";
  if (!std::regex_match(text, parts, std::regex(R"(\s*([0-9]*\.?[0-9]+)\s*(ms|s|sec|min|m)\s*)")))
    return;
  const double number = std::stod(parts[1].str());
  const std::string unit = parts[2].str();
  const double seconds = unit == "ms"                   ? number / 1000
                         : unit == "min" || unit == "m" ? number * 60
                                                        : number;
  std::ostringstream plain;
  plain << seconds;
  at.fail(node, "expected a number of seconds, got " + quoted_value(text) + "; write " +
                    plain.str() + " (the unit is in the key's name)");
}

MeasureSpec parse_measure(const YAML::Node& node, const YamlLocation& where, MeasureSpec measure,
                          bool allow_overrides) {
  if (!node) return measure;
  // Interleaving concerns every point of a problem together, so it is set for the whole config.
  if (!allow_overrides && node.IsMap() && node["interleave"])
    where.child("interleave")
        .fail(
            node["interleave"],
            "interleave is set for the whole config (measure.interleave), not per implementation");
  require_known_keys(node, where, key_names(measure_keys(allow_overrides)));
  auto read_count = [&](const char* key, int& out, long long minimum) {
    if (!node[key]) return;
    const long long v = read_integer(node[key], where.child(key));
    if (v < minimum || v > kMaxRepetitions)
      where.child(key).fail(node[key], std::string(key) + " must be between " +
                                           std::to_string(minimum) + " and " +
                                           std::to_string(kMaxRepetitions));
    out = static_cast<int>(v);
  };
  read_count("warmup", measure.warmup, 0);
  read_count("min_reps", measure.min_reps, 1);
  read_count("max_reps", measure.max_reps, 1);
  if (node["max_seconds"]) {
    refuse_unit(node["max_seconds"], where.child("max_seconds"));
    measure.max_seconds = read_number(node["max_seconds"], where.child("max_seconds"));
    if (measure.max_seconds <= 0)
      where.child("max_seconds").fail(node["max_seconds"], "max_seconds must be positive");
  }
  if (node["l2_flush"]) measure.l2_flush = read_bool(node["l2_flush"], where.child("l2_flush"));
  if (node["timeout"]) {
    refuse_unit(node["timeout"], where.child("timeout"));
    measure.timeout = read_number(node["timeout"], where.child("timeout"));
    if (!(measure.timeout > 0) || measure.timeout > 1e6)
      where.child("timeout").fail(node["timeout"], "timeout must be a number of seconds, above 0");
  }
  if (node["compile_timeout"]) {
    const YamlLocation at = where.child("compile_timeout");
    refuse_unit(node["compile_timeout"], at);
    measure.compile_timeout = read_number(node["compile_timeout"], at);
    if (!(measure.compile_timeout > 0) || measure.compile_timeout > 86400)
      at.fail(node["compile_timeout"],
              "compile_timeout must be a number of seconds, above 0 and "
              "at most 86400");
  }
  if (node["compile_memory_gib"]) {
    const YamlLocation at = where.child("compile_memory_gib");
    measure.compile_memory_gib = read_number(node["compile_memory_gib"], at);
    if (!(measure.compile_memory_gib >= 0.25) || measure.compile_memory_gib > 1024)
      at.fail(node["compile_memory_gib"],
              "compile_memory_gib must be a number of GiB from 0.25 to 1024 (a compiler needs "
              "some hundreds of MiB of address space)");
  }
  if (allow_overrides && node["interleave"])
    measure.interleave = read_bool(node["interleave"], where.child("interleave"));
  if (measure.max_reps < measure.min_reps)
    where.child("max_reps")
        .fail(node["max_reps"] ? node["max_reps"] : node, "max_reps is smaller than min_reps");
  return measure;
}

// Interleaving times a problem's points together, known before they run; a search chooses its
// points as it goes.
void refuse_interleaved_search(const YAML::Node& root, const YamlLocation& top,
                               const Config& config) {
  for (const auto& sweep : config.implementations)
    if (config.measure.interleave && sweep.search && !sweep.search->measures_everything())
      top.child("measure")
          .child("interleave")
          .fail(root["measure"]["interleave"],
                "interleave times a problem's points together, known before they run; a search "
                "(" +
                    sweep.name + ") chooses its points as it goes: use one or the other");
}

// measure.per_implementation: each entry on top of the config's measure block.
void parse_measure_overrides(const YAML::Node& root, const YamlLocation& top, Config& config) {
  if (!root["measure"] || !root["measure"]["per_implementation"]) return;
  const YAML::Node overrides = root["measure"]["per_implementation"];
  const YamlLocation at = top.child("measure").child("per_implementation");
  require_map(overrides, at);
  for (const auto& entry : overrides) {
    const std::string name = entry.first.as<std::string>();
    const bool configured =
        std::any_of(config.implementations.begin(), config.implementations.end(),
                    [&](const auto& s) { return s.name == name; });
    if (!configured)
      at.child(name).fail(entry.first, quoted_value(name) +
                                           " is not one of this config's implementations" +
                                           implementations_words(config.implementations));
    config.measure_overrides[name] =
        parse_measure(entry.second, at.child(name), config.measure, false);
  }
}

}  // namespace

void parse_measure_section(const YAML::Node& root, const YamlLocation& top, Config& config) {
  config.measure = parse_measure(root["measure"], top.child("measure"), MeasureSpec{}, true);
  refuse_interleaved_search(root, top, config);
  parse_measure_overrides(root, top, config);
}

nlohmann::json measure_json(const MeasureSpec& m) {
  nlohmann::json j{{"warmup", m.warmup},
                   {"min_reps", m.min_reps},
                   {"max_reps", m.max_reps},
                   {"max_seconds", m.max_seconds},
                   {"l2_flush", m.l2_flush}};
  // Written only when on: points of configs without it keep the identity they always had.
  if (m.interleave) j["interleave"] = true;
  if (m.timeout != MeasureSpec::kDefaultPointTimeout) j["timeout"] = m.timeout;
  if (m.compile_timeout != MeasureSpec::kDefaultCompileTimeout)
    j["compile_timeout"] = m.compile_timeout;
  if (m.compile_memory_gib != MeasureSpec::kDefaultCompileMemoryGib)
    j["compile_memory_gib"] = m.compile_memory_gib;
  return j;
}

const MeasureSpec& measure_for(const Config& config, const std::string& implementation) {
  const auto found = config.measure_overrides.find(implementation);
  return found != config.measure_overrides.end() ? found->second : config.measure;
}

}  // namespace convlab

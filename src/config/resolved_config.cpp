#include "config/resolved_config.hpp"

#include <cmath>
#include <string>

#include "config/user_kernel_entry.hpp"

namespace convlab {
namespace {

nlohmann::json search_json(const SearchSpec& spec) {
  nlohmann::json strategies = nlohmann::json::array();
  for (SearchStrategy s : spec.strategies) strategies.push_back(std::string(to_string(s)));
  nlohmann::json j{{"strategy", strategies},
                   {"seed", spec.seeds},
                   {"restrict", spec.restrict},
                   {"objective", std::string(to_string(spec.objective))}};
  for (const SearchSetting& setting : search_settings())
    j[setting.key] = setting.whole ? nlohmann::json(std::llround(spec.setting(setting.key)))
                                   : nlohmann::json(spec.setting(setting.key));
  // Written only when not the default: the resolved form of earlier searches is kept.
  if (spec.ahead != kDefaultSearchAhead) j["ahead"] = spec.ahead;
  if (spec.budget) j["budget"] = *spec.budget;
  if (spec.max_seconds) j["max_seconds"] = *spec.max_seconds;
  return j;
}

}  // namespace

nlohmann::json resolved_config(const Config& config) {
  nlohmann::json images = nlohmann::json::array();
  for (const auto& image : config.images) {
    nlohmann::json entry{{"name", image.name},
                         {"width", image.width},
                         {"height", image.height},
                         {"channels", image.channels}};
    if (image.kind == ImageSpec::Kind::generated) {
      entry["type"] = "generated";
      entry["seed"] = image.seed;
      entry["pattern"] = image.pattern;
    } else {
      entry["type"] = "file";
      entry["path"] = image.path;
    }
    images.push_back(entry);
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& filter : config.filters)
    kernels.push_back({{"name", filter.name},
                       {"type", filter.type},
                       {"size", filter.size},
                       {"parameters", filter.parameters},
                       {"separable", filter.separable}});
  nlohmann::json borders = nlohmann::json::array(), outputs = nlohmann::json::array();
  for (Border b : config.borders) borders.push_back(std::string(to_string(b)));
  for (OutputType o : config.outputs) outputs.push_back(std::string(to_string(o)));
  nlohmann::json implementations = nlohmann::json::object();
  nlohmann::json searches = nlohmann::json::object();
  for (const auto& sweep : config.implementations) {
    implementations[sweep.name] = sweep.user ? resolved_user_kernel_entry(sweep) : sweep.axes;
    if (sweep.search) searches[sweep.name] = search_json(*sweep.search);
  }
  nlohmann::json resolved{
      {"name", config.name},
      {"title", config.title},
      {"description", config.description},
      {"images", images},
      {"kernels", kernels},
      {"border", borders},
      {"output", outputs},
      {"implementations", implementations},
      {"baseline",
       {{"implementation", config.baseline.implementation}, {"params", config.baseline.params}}},
      {"measure", measure_json(config.measure)},
      {"save_outputs", config.save_outputs}};
  // Written only when a search is configured: other configs keep the resolved form they had.
  if (!searches.empty()) resolved["searches"] = searches;
  if (config.save_outputs)
    resolved["gallery"] = {{"implementation", config.gallery.implementation}};
  for (const auto& [name, measure] : config.measure_overrides)
    resolved["measure"]["per_implementation"][name] = measure_json(measure);
  for (const auto& [key, value] : config.report.items()) resolved[key] = value;
  return resolved;
}

}  // namespace convlab

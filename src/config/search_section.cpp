#include "config/search_section.hpp"

#include <memory>
#include <string>
#include <utility>

#include "config/axis_values.hpp"
#include "config/config_keys.hpp"
#include "config/search_domain.hpp"

namespace convlab {
namespace {

double combinations_of(const ImplementationSweep& sweep) {
  double combinations = 1.0;
  for (const auto& axis : sweep.axis_list) combinations *= double(axis.values.size());
  return combinations;
}

// A sweep measures every combination: they are listed, as many as a plan may hold, and a grid's
// restrictions remove some.
void list_combinations(ImplementationSweep& sweep, const SearchDomain* restricted,
                       const YAML::Node& entry, const YamlLocation& at) {
  if (combinations_of(sweep) > double(kMaxPoints))
    at.fail(entry, "its axes give more than " + std::to_string(kMaxPoints) +
                       " combinations; split the sweep into several configs, or give it a search "
                       "with a budget, which walks the combinations instead of listing them "
                       "(docs/search.md)");
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
  for (const auto& axis : sweep.axis_list) axes.emplace_back(axis.name, axis.values);
  sweep.combinations = cartesian_product(axes);
  if (restricted == nullptr) return;
  std::vector<Params> kept;
  Coordinate at_value(sweep.axis_list.size(), 0);
  for (const Params& params : sweep.combinations) {
    if (restricted->restrictions.hold(at_value)) kept.push_back(params);
    for (std::size_t k = at_value.size(); k > 0; --k) {
      if (++at_value[k - 1] < static_cast<int>(sweep.axis_list[k - 1].values.size())) break;
      at_value[k - 1] = 0;
    }
  }
  sweep.combinations = std::move(kept);
}

}  // namespace

// The config's search block goes to every implementation of several variants that has none of
// its own. A search that chooses its variants walks the combinations (config/search_domain.hpp);
// a sweep lists them, its restrictions removing those they rule out, and a grid search without
// restrictions or a budget is today's sweep.
void apply_searches(Config& config, const YAML::Node& root, const YamlLocation& top) {
  std::optional<SearchSpec> everywhere;
  if (root["search"]) everywhere = parse_search(root["search"], top.child("search"));
  for (auto& sweep : config.implementations) {
    const YAML::Node entry = root["implementations"][sweep.name];
    const YamlLocation entry_at = top.child("implementations").child(sweep.name);
    const bool own = sweep.search.has_value();
    if (!own && everywhere && combinations_of(sweep) > 1) sweep.search = everywhere;
    if (!sweep.search) {
      list_combinations(sweep, nullptr, entry, entry_at);
      continue;
    }
    const YAML::Node block = own ? entry["search"] : root["search"];
    const YamlLocation at = own ? entry_at.child("search") : top.child("search");
    auto domain = std::make_shared<const SearchDomain>(make_search_domain(
        sweep.axis_list, *sweep.search, block["restrict"], at.child("restrict")));
    if (!sweep.search->measures_everything()) {
      sweep.domain = std::move(domain);
      continue;
    }
    list_combinations(sweep, domain.get(), entry, entry_at);
    if (sweep.search->restrict.empty()) sweep.search.reset();
  }
}

}  // namespace convlab

// What a search walks (docs/search.md): each param with its values, in the config's order, the
// restrictions compiled over them, and the number of variants they leave, counted without listing
// them. A variant is a coordinate, the index of its value on each axis; the restrictions are
// checked on one coordinate at a time, so a space of 10^15 combinations costs no more memory than
// one of ten.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "config/config_error.hpp"
#include "config/search_spec.hpp"
#include "impl/implementation.hpp"

namespace YAML {
class Node;
}

namespace convlab {

struct SearchAxis {
  std::string name;
  std::vector<nlohmann::json> values;  // in the config's order
};

using Coordinate = std::vector<int>;  // per axis, the index of its value

// splitmix64: a small random source with the same sequence on every machine (the standard
// library's distributions differ between implementations), for the count's random variants and
// the strategies' draws.
class SearchRandom {
 public:
  explicit SearchRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  std::uint64_t below(std::uint64_t n);  // uniform in [0, n), n > 0
  double unit();                         // uniform in [0, 1)

 private:
  std::uint64_t state_;
};

// The restrictions of a search compiled over its axes: each name a restriction reads is a column
// of numbers, one per value of its axis (a pair NAME gives NAME_X and NAME_Y, a boolean 1 or 0),
// so checking a coordinate reads numbers, not params.
class SearchRestrictions {
 public:
  SearchRestrictions() = default;
  // Throws ConfigError at `restrict[i]`: a name that is no numeric param (with the closest one), a
  // query or a function.
  SearchRestrictions(const std::vector<SearchAxis>& axes, const std::vector<std::string>& texts,
                     const YAML::Node& restrict_node, const YamlLocation& restrict_at);

  std::size_t size() const { return programs_.size(); }
  // Whether every restriction holds. A restriction that divides by zero for a variant does not
  // hold for it.
  bool hold(const Coordinate& coordinate) const;
  bool holds(std::size_t restriction, const Coordinate& coordinate) const;
  // The axes restriction `i` reads.
  const std::vector<std::size_t>& axes_of(std::size_t restriction) const;

  struct Node;
  struct Program;

 private:
  std::vector<std::shared_ptr<const Program>> programs_;
};

// How many variants a space holds after its restrictions.
struct SpaceSize {
  double combinations = 0.0;  // the product of the axes' sizes
  double variants = 0.0;      // after the restrictions: exact, or an estimate
  bool exact = true;
  double margin = 0.0;  // an estimate's 95 % interval, in variants (0 when exact)
  std::string method;   // how it was found, in words
};

// The walkable space of one implementation's search.
struct SearchDomain {
  std::vector<SearchAxis> axes;
  SearchRestrictions restrictions;
  SpaceSize size;
  // The first variant the restrictions allow in the grid's order (the last axis fastest), found
  // within a bounded number of checks; else the first value of every axis.
  Coordinate first;

  double combinations() const;
  Params params_of(const Coordinate& coordinate) const;
};

// Compiles the restrictions and counts the space: exactly where the restrictions' groups of
// params have few combinations (each group enumerated), else from random variants with the
// method named. Throws ConfigError at `restrict` when no variant is left (or none of the random
// ones holds).
SearchDomain make_search_domain(std::vector<SearchAxis> axes, const SearchSpec& spec,
                                const YAML::Node& restrict_node, const YamlLocation& restrict_at);

// The count in words for validate and --dry-run: "384 variants (counted exactly)", "about
// 3.1e14 variants (estimated: ...)".
std::string space_size_words(const SpaceSize& size);

}  // namespace convlab

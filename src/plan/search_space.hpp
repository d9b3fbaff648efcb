// The variants one search chooses among, walked, never listed (config/search_domain.hpp): a
// variant is a coordinate (the index of its value on each axis), and the space answers whether
// it is allowed (its restrictions hold; for a replay, whether it was measured), its params, the
// grid's order and a random order without repeats, in memory that does not grow with the space.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "config/search_domain.hpp"

namespace convlab {

struct CoordinateHash {
  std::size_t operator()(const Coordinate& coordinate) const;
};

class SearchSpace {
 public:
  // A config's search: its domain, less the variants `impossible` rules out for the problem (a
  // built-in implementation's launch shapes no device accepts), when given.
  explicit SearchSpace(std::shared_ptr<const SearchDomain> domain,
                       std::function<bool(const Params&)> impossible = nullptr);
  // The variants measured before (a replay): only they are allowed, each param's values in the
  // order they first appear, and the grid takes them in the order given.
  static SearchSpace listed(const std::vector<Params>& variants);

  const std::vector<SearchAxis>& axes() const { return domain_->axes; }
  const SpaceSize& size() const { return domain_->size; }
  bool allows(const Coordinate& coordinate) const;
  Params params_of(const Coordinate& coordinate) const { return domain_->params_of(coordinate); }
  // The listed variant at `coordinate` (a replay), nullopt when none is.
  std::optional<std::size_t> listed_index(const Coordinate& coordinate) const;

  // The combinations as whole numbers, the last axis fastest, when there are fewer than 2^62.
  std::optional<std::uint64_t> combination_count() const;
  Coordinate coordinate_at(std::uint64_t index) const;

 private:
  SearchSpace() = default;
  std::shared_ptr<const SearchDomain> domain_;
  std::function<bool(const Params&)> impossible_;
  std::vector<Coordinate> listed_;
  std::unordered_map<Coordinate, std::size_t, CoordinateHash> listed_index_;
};

// The space's variants in the grid's order: the config's (the last axis fastest), or for a
// replay the order they were measured in.
class GridWalk {
 public:
  explicit GridWalk(const SearchSpace& space);
  // The next allowed variant; nullopt at the end, or after `max_checks` combinations in a row
  // that the restrictions do not allow.
  std::optional<Coordinate> next(std::uint64_t max_checks);

 private:
  const SearchSpace& space_;
  std::optional<std::uint64_t> count_;
  std::uint64_t index_ = 0;
  Coordinate odometer_;  // where there are more combinations than whole numbers count
  bool done_ = false;
};

// The space's variants in a random order without repeats, each allowed one once (a keyed
// permutation of the combinations, so nothing is listed); where there are more than 2^62
// combinations, random ones, which may repeat.
class SpaceShuffle {
 public:
  SpaceShuffle(const SearchSpace& space, std::uint64_t seed);
  // nullopt when every variant came, or `max_checks` combinations in a row were not allowed.
  std::optional<Coordinate> next(std::uint64_t max_checks);

 private:
  std::uint64_t permuted(std::uint64_t index) const;

  const SearchSpace& space_;
  SearchRandom random_;
  std::optional<std::uint64_t> count_;
  std::uint64_t keys_[4] = {};
  int half_bits_ = 1;
  std::uint64_t next_ = 0;
};

}  // namespace convlab

#include "plan/search_space.hpp"

#include <algorithm>

namespace convlab {

std::size_t CoordinateHash::operator()(const Coordinate& coordinate) const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (int value : coordinate) {
    hash ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(value));
    hash *= 0x100000001b3ULL;
  }
  return static_cast<std::size_t>(hash);
}

SearchSpace::SearchSpace(std::shared_ptr<const SearchDomain> domain,
                         std::function<bool(const Params&)> impossible)
    : domain_(std::move(domain)), impossible_(std::move(impossible)) {}

SearchSpace SearchSpace::listed(const std::vector<Params>& variants) {
  SearchSpace space;
  auto domain = std::make_shared<SearchDomain>();
  if (!variants.empty())
    for (const auto& [name, value] : variants.front().items()) domain->axes.push_back({name, {}});
  for (const Params& params : variants) {
    Coordinate coordinate;
    for (auto& axis : domain->axes) {
      auto& values = axis.values;
      const nlohmann::json& value = params.at(axis.name);
      auto found = std::find(values.begin(), values.end(), value);
      if (found == values.end()) found = values.insert(values.end(), value);
      coordinate.push_back(static_cast<int>(found - values.begin()));
    }
    space.listed_index_.emplace(coordinate, space.listed_.size());
    space.listed_.push_back(std::move(coordinate));
  }
  domain->size.combinations = 1.0;
  for (const auto& axis : domain->axes) domain->size.combinations *= double(axis.values.size());
  domain->size.variants = double(variants.size());
  domain->size.method = "listed";
  domain->first = space.listed_.empty() ? Coordinate() : space.listed_.front();
  space.domain_ = std::move(domain);
  return space;
}

bool SearchSpace::allows(const Coordinate& coordinate) const {
  if (!listed_.empty()) return listed_index_.count(coordinate) > 0;
  if (!domain_->restrictions.hold(coordinate)) return false;
  return !impossible_ || !impossible_(params_of(coordinate));
}

std::optional<std::size_t> SearchSpace::listed_index(const Coordinate& coordinate) const {
  const auto found = listed_index_.find(coordinate);
  if (found == listed_index_.end()) return std::nullopt;
  return found->second;
}

std::optional<std::uint64_t> SearchSpace::combination_count() const {
  if (!listed_.empty()) return listed_.size();
  std::uint64_t count = 1;
  for (const auto& axis : axes()) {
    if (axis.values.empty() || count > (std::uint64_t(1) << 62) / axis.values.size())
      return std::nullopt;
    count *= axis.values.size();
  }
  return count;
}

Coordinate SearchSpace::coordinate_at(std::uint64_t index) const {
  if (!listed_.empty()) return listed_[static_cast<std::size_t>(index)];
  Coordinate coordinate(axes().size(), 0);
  for (std::size_t a = axes().size(); a-- > 0;) {
    const std::uint64_t size = axes()[a].values.size();
    coordinate[a] = static_cast<int>(index % size);
    index /= size;
  }
  return coordinate;
}

GridWalk::GridWalk(const SearchSpace& space)
    : space_(space),
      count_(space.combination_count()),
      odometer_(space.axes().size(), 0),
      done_(count_ && *count_ == 0) {}

std::optional<Coordinate> GridWalk::next(std::uint64_t max_checks) {
  for (std::uint64_t checks = 0; checks < max_checks && !done_; ++checks) {
    Coordinate coordinate;
    if (count_) {
      coordinate = space_.coordinate_at(index_++);
      done_ = index_ >= *count_;
    } else {
      coordinate = odometer_;
      std::size_t k = odometer_.size();
      while (k > 0 && ++odometer_[k - 1] == static_cast<int>(space_.axes()[k - 1].values.size()))
        odometer_[--k] = 0;
      done_ = k == 0;
    }
    if (space_.allows(coordinate)) return coordinate;
  }
  return std::nullopt;
}

SpaceShuffle::SpaceShuffle(const SearchSpace& space, std::uint64_t seed)
    : space_(space), random_(seed), count_(space.combination_count()) {
  for (auto& key : keys_) key = random_.next();
  if (count_)
    while ((std::uint64_t(1) << (2 * half_bits_)) < *count_) ++half_bits_;
}

// A Feistel network of four rounds over the smallest power of four that holds every index: a
// bijection, so walking it from 0 gives every index once; indices beyond the count are walked
// on (cycle walking), which keeps it a bijection of the indices below the count.
std::uint64_t SpaceShuffle::permuted(std::uint64_t index) const {
  const std::uint64_t mask = (std::uint64_t(1) << half_bits_) - 1;
  do {
    std::uint64_t left = index >> half_bits_, right = index & mask;
    for (std::uint64_t key : keys_) {
      SearchRandom round(right ^ key);
      const std::uint64_t mixed = left ^ (round.next() & mask);
      left = right;
      right = mixed;
    }
    index = (left << half_bits_) | right;
  } while (index >= *count_);
  return index;
}

std::optional<Coordinate> SpaceShuffle::next(std::uint64_t max_checks) {
  for (std::uint64_t checks = 0; checks < max_checks; ++checks) {
    Coordinate coordinate;
    if (count_) {
      if (next_ >= *count_) return std::nullopt;
      coordinate = space_.coordinate_at(permuted(next_++));
    } else {
      for (const auto& axis : space_.axes())
        coordinate.push_back(static_cast<int>(random_.below(axis.values.size())));
    }
    if (space_.allows(coordinate)) return coordinate;
  }
  return std::nullopt;
}

}  // namespace convlab

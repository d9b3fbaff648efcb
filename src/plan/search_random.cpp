// random — the variants in a random order without repeats (a keyed permutation of the space, so
// nothing is listed): the baseline every guided strategy has to beat.
#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

class RandomRun final : public SearchStrategyRun {
 public:
  RandomRun(const SearchSpace& space, std::uint64_t seed) : memory_(space, seed) {}
  std::optional<Coordinate> propose() override { return memory_.propose_fresh_random(); }
  void observe(const Coordinate&, std::optional<double>) override {}

 private:
  SearchMemory memory_;
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_random_search(const StrategyContext& context) {
  return std::make_unique<RandomRun>(context.space, context.seed);
}

}  // namespace convlab

// grid — every variant in the config's order (the last param fastest), or a replay's in the order
// they were measured: the sweep, stopped by a budget.
#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

class GridRun final : public SearchStrategyRun {
 public:
  explicit GridRun(const SearchSpace& space) : walk_(space) {}
  std::optional<Coordinate> propose() override { return walk_.next(kSearchChecks); }
  void observe(const Coordinate&, std::optional<double>) override {}

 private:
  GridWalk walk_;
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_grid_search(const StrategyContext& context) {
  return std::make_unique<GridRun>(context.space);
}

}  // namespace convlab

// The search strategies a config may name (docs/search.md), one row each. A strategy is its file,
// plan/search_<name>.cpp, which makes it (make_<name>_search, declared in
// plan/search_strategy.hpp), and its row here; the config, the schema, `convlab search` and the
// registry read the row. A setting it introduces is one row of the settings table
// (config/search_spec.cpp). The order is the order `convlab search` compares them in.
#pragma once

#define CONVLAB_SEARCH_STRATEGIES(ROW) \
  ROW(grid) ROW(random) ROW(annealing) ROW(genetic) ROW(dual_annealing) ROW(greedy_ils) ROW(tpe)

// The notebook's index: every experiment with its title, machines, commits, a headline figure,
// its status counts and whether its results are stale, in a sortable, filterable table.
#pragma once

#include <string>
#include <vector>

#include "history/history_series.hpp"
#include "notebook/notebook.hpp"

namespace convlab {

struct IndexEntry {
  const ExperimentNotebook* notebook = nullptr;
  std::string page;      // the experiment's page relative to the index
  std::string headline;  // its first figure's SVG relative to the index; empty when none
  std::string study;  // the part of the report's outline it belongs to ("Seed 000"); may be empty
  size_t order = 0;   // its place in the outline's reading order (the study column sorts by it)
  // A history's page: its row names the history's machines and commits and counts the points of
  // every commit's results.
  const History* history = nullptr;
};

struct IndexContext {
  std::string assets = "assets";
  std::string generator;
  bool katex = true;
  // Served by convlab watch --serve: the page may connect to its server (a new experiment is made
  // from it).
  bool live = false;
};

std::string index_page(const std::vector<IndexEntry>& entries, const IndexContext& context);

}  // namespace convlab

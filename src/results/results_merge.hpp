// How one run's work enters a results file that other runs may have changed since it last read
// it: the file on disk is the base, and the run adds what it made since its last write.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/results_file.hpp"

namespace convlab {

struct RunContribution {
  nlohmann::json experiment = nlohmann::json::object();  // name, title, description, baseline
  nlohmann::json run = nlohmann::json::object();         // the run block, matched by its id
  std::vector<nlohmann::json> records;  // each replaces the record it measures again, or is added
  std::vector<nlohmann::json> gallery;  // entries not yet in the file are added
};

// Whether `later` is a new measurement of the point `earlier` holds, on the same machine (so it
// replaces it in place).
bool measures_same_point(const nlohmann::json& earlier, const nlohmann::json& later);

// Merges `contribution` into `results`, keeps only run blocks some record refers to (and the
// contributing run's), and recomputes the derived metrics. Throws ResultsFileError naming `path`
// when the file holds another experiment.
void merge_contribution(ResultsFile& results, const RunContribution& contribution,
                        const std::string& path);

}  // namespace convlab

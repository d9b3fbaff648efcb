// Versions of users' kernels in a results file (docs/own-kernels.md, "Versions never mix"): the
// version a record measured, and the current version of each source, so that readers and derived
// metrics never put two versions' measurements together.
#pragma once

#include <map>
#include <string>

#include "store/record.hpp"
#include "store/results_file.hpp"

namespace convlab {

// The version of the user's kernel a record measured: its snapshot's hash when the source
// includes files of its own, else the source's; empty for convlab's own implementations.
std::string source_version(const Record& record);

// The current version of each user's source, by its path as the config names it: the version the
// latest run that recorded the source read (by order in "runs"). A source edited and then restored
// byte for byte is current again once a run has read it again, even if that run measured nothing.
std::map<std::string, std::string> current_source_versions(const ResultsFile& results);

// Whether `record` is of a source's current version (always, for convlab's own implementations
// and for sources no run block records).
bool of_current_version(const Record& record, const std::map<std::string, std::string>& current);

}  // namespace convlab

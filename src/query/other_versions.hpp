// The records of earlier versions of users' kernels that a results file holds beside the current
// ones (store/source_versions.hpp): readers set them aside (ResultsDocument::other_versions), and
// say so wherever they leave them out.
#pragma once

#include <string>
#include <vector>

#include "query/results_document.hpp"

namespace convlab {

// One user's kernel with records of other versions than its current one.
struct OtherVersions {
  std::string implementation;
  std::string current;                // the current version (short_version)
  std::vector<std::string> versions;  // the others (short_version), in the file's order
  size_t records = 0;                 // their records
};

// Per implementation, in order of first appearance among the set-aside records.
std::vector<OtherVersions> other_versions_of(const ResultsDocument& results);

// "results.json also holds 12 records of another version of my_kernel's source (0a1b2c3d4e5f;
// the current one is 5f4e3d2c1b0a): they are left out of every table, figure and value." One
// sentence per implementation; empty when there are none.
std::string other_versions_words(const std::vector<OtherVersions>& others);

// The derived columns (Record::computed) of `current`'s records, computed for the current version,
// copied to the same records of `all` (loaded with VersionScope::all); the records of other
// versions get none.
void copy_derived_columns(const ResultsDocument& current, ResultsDocument& all);

}  // namespace convlab

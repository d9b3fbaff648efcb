// Which version of each user's kernel the numbers of a results file are of. A results file keeps
// the records of every version of a kernel's source that was measured (an edited source is another
// point, record.point_id), but a number is only ever computed with, compared with or shown beside
// numbers of the same version: readers keep the current version's records
// (query/results_document.hpp) and derived metrics relate records of one version
// (store/derive.hpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "store/results_file.hpp"

namespace convlab {

// The current version of a user's kernel is the version of its source that the latest run
// naming the kernel compiled: runs in the file's order, each naming its kernels' sources in its
// resolved config (or, where it kept none, as the kernels' records name them) and what it compiled
// of each in run.config.sources (KernelSourceText::version). A run
// that found every point measured still names the version it compiled, so a source restored
// byte for byte makes its earlier records current again. Where no run names a kernel (files of
// versions that did not record sources), the current version is the one its records of the
// latest run measured. The implementations built into convlab have no version and are always
// current.
class SourceVersions {
 public:
  explicit SourceVersions(const ResultsFile& results);

  // Whether the record is of the current version of its implementation (a built-in's always is).
  bool is_current(const Record& record) const;
  // The current version of `implementation`; empty for a built-in.
  std::string current(const std::string& implementation) const;

 private:
  std::map<std::string, std::string> current_;  // implementation -> version
};

// Whether the records hold two versions of one user's kernel: listings then name each row's.
bool versions_meet(const std::vector<const Record*>& records);

// What listings, tables and notes show of a version: its first 12 hex digits.
std::string short_version(const std::string& version);

}  // namespace convlab

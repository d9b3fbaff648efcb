#include "query/other_versions.hpp"

#include <algorithm>
#include <map>

#include "core/count_words.hpp"
#include "store/source_versions.hpp"

namespace convlab {

std::vector<OtherVersions> other_versions_of(const ResultsDocument& results) {
  std::vector<OtherVersions> others;
  if (results.other_versions.empty()) return others;
  const SourceVersions versions(results.file);
  for (const Record& record : results.other_versions) {
    auto found = std::find_if(others.begin(), others.end(), [&](const OtherVersions& other) {
      return other.implementation == record.implementation;
    });
    if (found == others.end()) {
      others.push_back(
          {record.implementation, short_version(versions.current(record.implementation)), {}, 0});
      found = others.end() - 1;
    }
    const std::string version = short_version(record.source_version());
    if (std::find(found->versions.begin(), found->versions.end(), version) == found->versions.end())
      found->versions.push_back(version);
    ++found->records;
  }
  return others;
}

std::string other_versions_words(const std::vector<OtherVersions>& others) {
  std::string words;
  for (const OtherVersions& other : others) {
    std::string listed;
    for (const std::string& version : other.versions)
      listed += (listed.empty() ? "" : ", ") + version;
    const bool one = other.versions.size() == 1;
    words += std::string(words.empty() ? "" : " ") + "results.json also holds " +
             count_words(other.records, "record") + " of " +
             (one ? "another version" : std::to_string(other.versions.size()) + " other versions") +
             " of " + other.implementation + "'s source (" + listed + "; the current one is " +
             (other.current.empty() ? std::string("not known") : other.current) +
             "): they are left out of every table, figure and value.";
  }
  return words;
}

void copy_derived_columns(const ResultsDocument& current, ResultsDocument& all) {
  std::map<std::string, const Record*> by_key;
  for (const Record& record : current.file.records) by_key[record.key] = &record;
  for (Record& record : all.file.records)
    if (const auto found = by_key.find(record.key); found != by_key.end())
      record.computed = found->second->computed;
}

}  // namespace convlab

// Numbers quoted in an experiment's discussion (experiments/<name>.tex) come from its results:
// \convlabvalue{<point filter>}{<field>} is resolved at export time against the ok points, so the
// prose follows every re-run. A filter matching no point or several points stops the export.
#pragma once

#include <string>
#include <vector>

#include "results/record.hpp"

namespace convlab {

struct ValueReference {
  std::string filter;
  std::string field;
  int line = 0;  // 1-based, in the discussion file
};

// Every \convlabvalue{...}{...} outside % comments, in order, duplicates included.
std::vector<ValueReference> find_value_references(const std::string& tex);

struct ResolvedValue {
  ValueReference reference;
  std::string text;  // as typeset: 3 significant digits, or the field's words
};

// Throws ExportError naming `file`:line and the reference when a filter matches no point or
// several, or the point has no such field.
std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const std::vector<const Record*>& points,
                                          const std::string& file);

}  // namespace convlab

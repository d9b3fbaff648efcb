// The JSON Schema (draft 2020-12, using only keywords draft 7 shares) of the config language,
// generated from the tables the config reader uses: the key tables (config/config_keys.hpp), the
// filter descriptors (filters/filter_descriptor.hpp), the implementation registry and its axes,
// borders and outputs. `convlab schema` prints it; docs/config.schema.json is its output.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace convlab {

// `sections`: the schemas of the top-level keys a later stage owns (figures, tables), by key.
// Throws std::logic_error when a key of the tables has no schema, so a key cannot be added to the
// reader without being described.
nlohmann::json config_schema(const std::map<std::string, nlohmann::json>& sections);

// The schema of one kernel entry of a filter type, and of one implementation's axes.
nlohmann::json kernel_schema(const std::string& type);
nlohmann::json implementation_schema(const std::string& name);

}  // namespace convlab

// "Did you mean ...?": the known name closest to a misspelt one, for every message that refuses
// an unknown key, field, type or implementation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace convlab {

// Levenshtein distance: insertions, deletions and substitutions of single characters.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The closest of `candidates` to `name` when it is a plausible misspelling (within a third of its
// length, at least 2 edits), else empty.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace convlab

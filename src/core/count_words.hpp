// Counts in words, as a sentence reads them: "1 border", "2 borders".
#pragma once

#include <cstddef>
#include <string>

namespace convlab {

// `count` and the noun, with an "s" unless the count is 1; `plural` for nouns that form it
// otherwise.
inline std::string count_words(std::size_t count, const std::string& noun,
                               const std::string& plural = "") {
  return std::to_string(count) + " " + (count == 1 ? noun : (plural.empty() ? noun + "s" : plural));
}

}  // namespace convlab

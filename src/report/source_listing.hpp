// A kernel source cell (notebook.hpp SourceCell) in the report: the file as the config names it,
// its hash, language and implementations, and its text line by line in typewriter type with every
// character escaped. Not verbatim or listings: a line holding \end{verbatim}, or bytes that are not
// UTF-8, could end or break those; here any text is safe. Characters outside ASCII print as '?',
// tabs as spaces to the next multiple of 8. A long source is cut after kMaxListedLines lines, the
// rest counted (results.json and the notebook hold it whole).
#pragma once

#include <cstddef>
#include <string>

#include "notebook/notebook.hpp"

namespace convlab {

inline constexpr std::size_t kMaxListedLines = 400;

std::string source_latex(const SourceCell& source);

}  // namespace convlab

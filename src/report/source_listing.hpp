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
// A listing of at most this many lines fits a page in the report's small type: it is kept on one
// page, whole. A longer one breaks only at page ends, and no figure or table comes between its
// parts.
inline constexpr std::size_t kLinesKeptTogether = 60;

std::string source_latex(const SourceCell& source);
// The config as written, its path and hash, listed the same way (a discussion placed it).
std::string config_latex(const ConfigCell& config);

}  // namespace convlab

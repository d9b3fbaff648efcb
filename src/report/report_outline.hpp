// The report's reading order and front matter, from report/outline.yaml: parts in the order of the
// seed studies (000 ... 004) and then the extensions, each naming the experiments it holds and
// what the seed claimed; and the figures of the summary, which draw the points of several
// experiments together (the whole ladder against the hardware floor).
#pragma once

#include <string>
#include <vector>

#include "figures/declarations.hpp"

namespace convlab {

struct ReportPart {
  std::string title;                     // "Seed 000: ..." or "Extensions"
  std::string claim;                     // LaTeX: what the seed claimed, on which hardware
  std::vector<std::string> experiments;  // experiment names, in order
  bool extension = false;                // beyond the seeds
};

struct ReportOutline {
  std::vector<ReportPart> parts;
  std::vector<FigureDeclaration> summary_figures;
};

// Throws ConfigError naming the file and key on a malformed outline.
ReportOutline load_report_outline(const std::string& path);

}  // namespace convlab

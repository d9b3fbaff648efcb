// LaTeX for the report: booktabs tables, one notebook-style section per experiment, the values
// the discussion quotes, the gallery, and the front part listing machines and experiments.
// Paths are written as given; the report is compiled from the directory the export ran in.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/discussion_values.hpp"
#include "report/figure_data.hpp"
#include "report/report_summary.hpp"

namespace convlab {

// Escapes TeX specials; "16x16" becomes 16$\times$16.
std::string latex_text(std::string_view text);

// A booktabs tabular (no float), wrapped to fit the text width.
std::string table_latex(const TableData& table);

struct SectionFigure {
  std::string pdf_path;
  std::string caption;
  size_t panels = 1;  // a multi-panel figure may take most of a page
};

struct SectionTable {
  std::string tex_path;
  std::string caption;
};

struct GalleryImage {
  std::string image;
  std::string kernel;
  std::string border;
  std::string input_path;
  std::string output_path;
  // The saved output it was drawn from; empty implementation: drawn from the reference (results
  // of earlier versions).
  std::string implementation;
  std::string output;          // u8 or f32
  std::string mapping;         // straight, signed or magnitude
  std::string fallback;        // why the config's implementation is not shown; empty when it is
  int identical = 0, ran = 0;  // points whose output of this type is byte-identical / that ran
};

// Flags a reader must see before trusting a section's numbers.
struct SectionFlags {
  bool unknown_commit = false;  // some run recorded no commit
  // The config changed since the run: empty when it did not; else what changed, in words.
  std::string config_change;
  // Only the config's text or report declarations changed: a quiet note, not a flag.
  bool config_text_only = false;
};

struct ExperimentSection {
  std::string name;
  std::string title;
  std::string description;
  std::string config_path;  // the config as written (shown in the appendix), empty when gone
  std::string config_sha256;
  SectionFlags flags;
  std::string values_path;
  std::optional<std::string> discussion_path;
  std::vector<SectionFigure> figures;
  std::vector<SectionTable> tables;
  VerificationSummary verification;
  std::vector<Provenance> provenance;
  std::vector<GalleryImage> gallery;
};

std::string section_latex(const ExperimentSection& section);
// A subsection of the report's gallery; empty when the experiment saved no images.
std::string gallery_latex(const ExperimentSection& section);
std::string values_latex(const std::string& experiment, const std::vector<ResolvedValue>& values);

struct IndexExperiment {
  std::string name;
  std::string title;
  std::string section_path;
  std::optional<std::string> gallery_path;
  std::string config_path;  // configs/<name>.yaml as written, empty when gone
  std::vector<Provenance> provenance;
  VerificationSummary verification;
};

// A part of the report: the seed it follows (or the extensions) and its experiments, in order.
struct IndexPart {
  std::string title;
  std::string claim;
  bool extension = false;
  std::vector<IndexExperiment> experiments;
};

struct IndexFront {
  std::string summary_path;            // hand-written summary (report/summary.tex), may be empty
  std::string summary_values_path;     // its \convlabvalueof values
  std::vector<SectionFigure> figures;  // the ladder
};

// The front matter (summary, ladder, machines), the contents, the verification table, the parts
// with their sections, and the appendix of configs as written.
std::string index_latex(const IndexFront& front, const std::vector<IndexPart>& parts);

}  // namespace convlab

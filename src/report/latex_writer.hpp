// The LaTeX renderer of the notebook (notebook/notebook.hpp): one report section per experiment
// with its figures, booktabs tables, discussion, verification and provenance, the gallery, and
// the front part listing machines and experiments. Paths are written as given; the report is
// compiled from the directory the export ran in.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drawing/drawn_figures.hpp"
#include "figures/figure_data.hpp"
#include "notebook/notebook.hpp"

namespace convlab {

// A path as pdflatex may open it under TeX's paranoid file access, which the report's builds turn
// on (openin_any=p): relative to the folder LaTeX runs in, which is the one the export ran in (an
// absolute path under it is made relative), with no parent folder and no part starting with a dot.
// nullopt for a path outside it.
std::optional<std::string> latex_readable_path(const std::string& path);

// Escapes TeX specials; "16x16" becomes 16$\times$16.
std::string latex_text(std::string_view text);

// A booktabs tabular (no float), wrapped to fit the text width.
std::string table_latex(const TableData& table);

// Where the report finds an experiment's files, as \input and \includegraphics name them (the
// report is compiled from the folder the export ran in).
struct LatexLayout {
  std::string export_dir;   // the section, tables and gallery (outputs/<name>/export)
  std::string figures_dir;  // the rendered figures (outputs/<name>/figures/<figure>.pdf)
  // The figures as the figure stage (drawing/figure_stage.hpp) left them, by declaration name:
  // one it did not draw stands as an error box saying why (naming gnuplot's line); a drawn one
  // is included from its picture, and one the stage was not given from figures_dir.
  DrawnFigures figures{};
};

// The section of one experiment, \input by the report's index.
inline constexpr const char* kSectionFile = "section.tex";
// The experiment's subsection of the report's gallery, when it saved pictures.
inline constexpr const char* kGalleryFile = "gallery.tex";

// The files of one experiment's part of the report: the section, one booktabs table per table
// cell (tables/<name>.tex) and the gallery when the notebook has one. Pictures are shown from the
// paths the gallery cell names.
std::vector<RenderedFile> experiment_latex(const ExperimentNotebook& notebook,
                                           const LatexLayout& layout);

struct SectionFigure {
  std::string pdf_path;
  std::string caption;
  size_t panels = 1;  // a multi-panel figure may take most of a page
  std::string name;   // the declaration's
  std::string error;  // why gnuplot did not draw it: an error box stands in its place
};

// The box that stands where figure `name` would be when gnuplot did not draw it: the figure's
// name and why, in red.
std::string undrawn_figure_latex(const std::string& name, const std::string& why);

struct IndexExperiment {
  std::string name;
  std::string title;
  std::string section_path;
  std::optional<std::string> gallery_path;
  // The section of the experiment's history (convlab history), in a report of it alone.
  std::optional<std::string> history_path;
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
  std::string summary_path;            // the summary with its values resolved, may be empty
  std::vector<SectionFigure> figures;  // the ladder
};

// One experiment as a report of its own (make report CONFIG=...): its title, its section (run,
// figures, tables, discussion), its gallery, the machines that measured it, its verification
// table and its config as written. The body of report/experiment.tex.
std::string experiment_document_latex(const IndexExperiment& experiment);

// The front matter (summary, ladder, machines), the contents, the verification table, the parts
// with their sections, and the appendix of configs as written.
std::string index_latex(const IndexFront& front, const std::vector<IndexPart>& parts);

}  // namespace convlab

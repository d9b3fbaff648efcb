// An experiment's notebook, typed: the cells a reader goes through, built once from the config,
// the results and the discussion (notebook_builder.hpp). The LaTeX report (report/) and the HTML
// notebook (html/) are two renderers of it, as nbconvert's exporters are of one notebook; neither
// reads results, configs or discussions itself. Every field holds data or plain text: each
// renderer escapes for its own output.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "figures/figure_data.hpp"
#include "notebook/markdown.hpp"
#include "notebook/query_cell.hpp"
#include "notebook/verification_and_provenance.hpp"
#include "query/results_document.hpp"
#include "tables/summary_table.hpp"

namespace convlab {

// Prose: the config's description (plain text, role description) or the discussion written about
// the results (Markdown with live values, role discussion).
struct MarkdownCell {
  enum class Role { description, discussion };
  Role role = Role::description;
  std::string path;  // the discussion file; empty for the description
  // A discussion that places cells ({{figure: NAME}}) is cut where it places each: its parts in
  // order, each with the whole document's values (its inlines index them).
  size_t part = 0;
  MarkdownDocument document;
  std::vector<ResolvedValue> values;  // one per document.values entry
  std::vector<std::string> value_texts() const;
};

// The config as written, when it is still on disk, and how to run it again.
struct ConfigCell {
  std::string path;             // empty when the file is gone
  std::string text;             // its bytes (the YAML as written)
  std::string sha256;           // of the file on disk now
  std::string recorded_sha256;  // the one the latest run recorded
  bool same_content = false;    // differs from recorded_sha256 only in comments and spacing
  std::string rerun_command;    // e.g. "make experiment CONFIG=configs/x.yaml"
};

// A user's own kernel source (a config's `source:` entry) as the latest run compiled it: the copy
// in results.json (run.config.sources), so that the results file alone shows it.
struct SourceCell {
  std::string path;                          // as the config names it
  std::string sha256;                        // of the text
  std::string language;                      // "CUDA", "C++" or "C", by the file's extension
  std::vector<std::string> implementations;  // the config's names for it
  std::string text;
  // What results.json holds of other versions of its implementations, left out of every table,
  // figure and value (query/other_versions.hpp), in words; empty when it holds none.
  std::string other_versions;
};

// Whether the results still describe the config on disk.
struct Freshness {
  bool config_gone = false;     // the recorded config and configs/<name>.yaml are both missing
  bool config_changed = false;  // the file differs from the one the run recorded
  bool measured_settings_changed = false;  // not only its text (title, description, figures)
  std::string change_words;                // what changed, in words; empty when nothing did
  // Kernel sources the config names (as it names them) whose file differs from the text the run
  // compiled, or is gone; a measured setting too, though the config's own file is unchanged.
  std::vector<std::string> changed_sources;
  bool unmeasured_known = false;                 // the current config could be expanded
  size_t planned_points = 0;                     // points of the current config
  size_t unmeasured_points = 0;                  // of which no record measures
  std::vector<std::string> unmeasured_examples;  // the first few of them, in words
  std::string update_command;                    // what brings the results up to date
  bool unknown_commit = false;                   // some run recorded no commit
};

// A point whose timing varied more than the notebook trusts without a second look.
struct NoisyPoint {
  std::string point;  // point_in_words
  double cv = 0.0;
};

struct RunCell {
  std::vector<Provenance> runs;           // oldest first
  std::vector<std::string> builds;        // build ids of the records, short
  RunCounts latest;                       // kept / ran (latest run) / skipped / failed
  std::string measure;                    // the latest run's measure settings, as YAML-like text
  std::vector<std::string> skip_reasons;  // "45 x no CUDA device"
  std::vector<NoisyPoint> noisy;          // CV above kNoisyCv, worst first
  size_t measured = 0;                    // records with timing
  static constexpr double kNoisyCv = 0.10;
};

struct FigureCell {
  FigureData data;
  std::string caption;  // the declaration's title, as a sentence
};

struct TableCell {
  TableData data;
  std::string caption;
};

// A declared figure or table that selects no point of these results: it stands where the
// figure would have been, saying why it is not there.
struct OmittedCell {
  enum class Kind { figure, table };
  Kind kind = Kind::figure;
  std::string name;     // the declaration's
  std::string caption;  // its title, as a sentence
  std::string reason;   // what the data lacked
};

struct GalleryPicture {
  std::string kernel;
  std::string output_path;     // the picture shown (outputs/<name>/gallery/*.jpg)
  std::string implementation;  // whose saved output it is; empty: drawn from the reference
  std::string output;          // u8 or f32
  std::string mapping;         // straight, signed or magnitude
  std::string fallback;        // why the config's implementation is not shown; empty when it is
  int identical = 0, ran = 0;  // points whose output of this type is byte-identical / that ran
  RichText label;              // kernel, mapping, implementation where not the main one
};

// One photograph: its input and every filter applied to it.
struct GalleryGroup {
  std::string image;
  std::string border;
  std::string input_path;
  std::string main_implementation;
  std::vector<GalleryPicture> pictures;
  RichText caption;
};

struct GalleryCell {
  std::vector<GalleryGroup> groups;
};

struct VerificationCell {
  VerificationSummary summary;
  std::vector<ImplementationVerification> implementations;
};

// A file a renderer writes: its path relative to the folder it renders into, and its text.
struct RenderedFile {
  std::string path;
  std::string content;
};

using NotebookCell = std::variant<MarkdownCell, ConfigCell, SourceCell, RunCell, FigureCell,
                                  TableCell, GalleryCell, VerificationCell, OmittedCell, QueryCell>;

// One callable per cell type, for std::visit over a NotebookCell. A renderer names every
// alternative by its type (no generic catch-all), so a cell type added to the variant without a
// branch in each renderer is a compile error rather than a cell that silently disappears.
template <typename... Branches>
struct CellVisitor : Branches... {
  using Branches::operator()...;
};
template <typename... Branches>
CellVisitor(Branches...) -> CellVisitor<Branches...>;

struct ExperimentNotebook {
  std::string name;
  std::string title;
  std::string results_path;  // the results.json
  Freshness freshness;
  // Flags a page whose results.json holds records of other versions of a user's kernel than the
  // current one (query/other_versions.hpp), in words; empty when it holds none.
  std::string other_versions;
  // In reading order: description, config, kernel sources, run, figures, tables, gallery,
  // verification, discussion. A discussion that places cells ({{figure: NAME}}) leads instead:
  // description, the discussion's parts with the cells it places between them, then the cells
  // it does not place in the order above. A renderer takes them in this order or places the
  // cells not placed as its medium needs.
  std::vector<NotebookCell> cells;
  // With a discussion that places cells: the index of the first cell it does not place (those
  // before are the description, the discussion and its cells); 0 when it places none.
  size_t placed_until = 0;
  std::vector<std::string> notes;  // figures or tables left out for want of data
  // The results with the config's derived columns (derive:) computed, when it declares any:
  // figure cells and values point into its records.
  std::shared_ptr<const ResultsDocument> derived_results;

  template <typename T>
  std::vector<const T*> cells_of() const {
    std::vector<const T*> found;
    for (const auto& cell : cells)
      if (const T* typed = std::get_if<T>(&cell)) found.push_back(typed);
    return found;
  }
  template <typename T>
  const T* first() const {
    for (const auto& cell : cells)
      if (const T* typed = std::get_if<T>(&cell)) return typed;
    return nullptr;
  }
  const MarkdownCell* markdown(MarkdownCell::Role role) const;
};

}  // namespace convlab

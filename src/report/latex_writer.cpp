#include "report/latex_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <variant>

#include "core/count_words.hpp"
#include "core/message_text.hpp"
#include "notebook/freshness.hpp"
#include "query/record_fields.hpp"
#include "query/results_document.hpp"
#include "report/latex_markdown.hpp"
#include "report/query_cell_latex.hpp"
#include "report/source_listing.hpp"

namespace convlab {
namespace {

// A path as messages show it: a line's worth, control characters as escapes.
std::string latex_path_words(const std::string& path) {
  return shortened_path(path);
}

std::string label_name(const std::string& text) {
  std::string label;
  for (char c : text) label += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return label;
}

// Listings and \input need the path verbatim; \detokenize keeps _ and - harmless. TeX reads a
// brace, %, \, # or ^ (and a line's end) before \detokenize sees it, so that a path holding one
// could end the argument and have LaTeX run what follows: such a path is refused, by name.
std::string path_argument(const std::string& given) {
  // Relative to the folder LaTeX runs in where it lies below it, as TeX's paranoid file access
  // (the report's builds) wants; a path elsewhere as given, for a build of one's own.
  const std::string path = latex_readable_path(given).value_or(given);
  const auto unsafe = std::find_if(path.begin(), path.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f ||
           std::string_view("{}%\\#^").find(c) != std::string_view::npos;
  });
  if (unsafe != path.end())
    throw ResultsError(latex_path_words(path) +
                       ": LaTeX cannot be given this path: it holds a brace, %, \\, #, ^ or a "
                       "control character; rename it");
  return "\\detokenize{" + path + "}";
}

// "Measured on AMD EPYC (vm), GPU none, from commit abc123 on 2026-11-22."
void write_provenance_line(std::ostringstream& out, const std::vector<Provenance>& runs) {
  out << "\\noindent\\textbf{Provenance.} ";
  for (size_t i = 0; i < runs.size(); ++i) {
    const Provenance& p = runs[i];
    if (runs.size() > 1) out << "Run " << i + 1 << ": ";
    out << latex_text(p.cpu) << (p.gpu == "none used" ? "" : " with " + latex_text(p.gpu))
        << ", commit ";
    if (p.commit_known)
      out << "\\texttt{" << latex_text(p.commit) << "}";
    else
      out << "\\convlabflag{unknown}";
    out << ", " << latex_text(p.started.substr(0, 10)) << (i + 1 < runs.size() ? "; " : ".");
  }
  out << "\\par\n";
}

void write_verification_line(std::ostringstream& out, const VerificationSummary& v) {
  out << "\\noindent\\textbf{Verification.} " << count_words(v.ok, "point") << " ok, " << v.skipped
      << " skipped, " << v.failed << " failed";
  if (v.has_worst)
    out << "; largest error " << format_number(v.worst_abs_error, 3) << " (tolerance "
        << format_number(v.worst_tolerance, 3) << ")";
  out << " (Table~\\ref{tab:verification}).";
  if (!v.skip_reasons.empty()) {
    out << " Skipped: ";
    const size_t shown = std::min<size_t>(v.skip_reasons.size(), 3);
    for (size_t i = 0; i < shown; ++i) out << (i ? "; " : "") << latex_text(v.skip_reasons[i]);
    if (v.skip_reasons.size() > shown)
      out << "; and " << v.skip_reasons.size() - shown << " more reasons";
    out << ".";
  }
  for (size_t i = 0; i < v.failures.size() && i < 3; ++i)
    out << " \\convlabflag{Failed: " << latex_text(v.failures[i]) << "}";
  out << "\\par\n";
}

}  // namespace

std::optional<std::string> latex_readable_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path relative = fs::path(path).lexically_normal();
  if (relative.is_absolute()) {
    const fs::path here = fs::current_path(error);
    if (error) return std::nullopt;
    relative = relative.lexically_proximate(here);
  }
  const std::string text = relative.generic_string();
  if (text.empty() || relative.is_absolute()) return std::nullopt;
  for (const fs::path& part : relative)
    if (part == ".." || (part.string().size() > 1 && part.string()[0] == '.')) return std::nullopt;
  return text;
}

std::string latex_text(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool times = c == 'x' && i > 0 && i + 1 < text.size() &&
                       std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                       std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (times) {
      out += "$\\times$";
      continue;
    }
    // A power of a number or of K, such as 8000^2 or K^2, is set as one.
    const bool power =
        c == '^' && i > 0 && i + 1 < text.size() &&
        (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == ')') &&
        std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (power) {
      out += "$^{";
      for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
        out += text[i];
      out += "}$";
      --i;
      continue;
    }
    append_latex_escaped(c, out);
  }
  return out;
}

std::string table_latex(const TableData& table) {
  const Grid& grid = table.grid;
  const size_t columns = grid.columns.size();
  std::ostringstream out;
  out << "% " << table.declaration.name << ": " << table.value_label
      << ", generated by convlab export\n";
  out << "\\begin{adjustbox}{max width=\\linewidth}\n";
  out << "\\begin{tabular}{l" << std::string(columns, 'r') << "}\n\\toprule\n";
  out << " & \\multicolumn{" << columns << "}{c}{" << latex_text(table.column_header) << "}\\\\\n";
  out << "\\cmidrule(lr){2-" << columns + 1 << "}\n";
  out << latex_text(table.row_header);
  // A lone parameter heading the columns is named once, in the header: "4x4", not "block 4x4".
  const bool bare_columns = table.declaration.columns.size() == 1 &&
                            table.declaration.columns.front().rfind("params.", 0) == 0;
  for (const auto& column : grid.columns)
    out << " & " << latex_text(bare_columns ? column.tic : column.label);
  out << "\\\\\n\\midrule\n";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    out << latex_text(grid.rows[r].label);
    for (size_t c = 0; c < grid.cells[r].size(); ++c) {
      const auto& cell = grid.cells[r][c];
      out << " & " << (cell ? latex_text(table.cell_text(c, *cell)) : "--");
    }
    out << "\\\\\n";
  }
  out << "\\bottomrule\n\\end{tabular}\n\\end{adjustbox}\n";
  return out.str();
}

namespace {

// Text after a % on one line: a line break in it would end the comment.
std::string comment_text(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') c = ' ';
  return text;
}

std::string caption_text(std::string_view text) {
  return latex_text(text);
}

void write_section_heading(std::ostringstream& out, const ExperimentNotebook& notebook,
                           const std::string& label) {
  out << "% Section of experiment " << comment_text(notebook.name)
      << ", generated by convlab export.\n";
  out << "\\subsection{" << latex_text(notebook.title.empty() ? notebook.name : notebook.title)
      << "}\\label{exp:" << label << "}\n";
  out << "\\noindent{\\small\\textsf{Experiment \\texttt{" << latex_text(notebook.name) << "}";
  const ConfigCell* config = notebook.first<ConfigCell>();
  if (config && !config->path.empty())
    out << ", config \\texttt{" << latex_text(config->path) << "} (sha256 \\texttt{"
        << latex_text(config->sha256.substr(0, 12)) << "}, as written in App.~\\ref{cfg:" << label
        << "})";
  out << "}}\\par\n";
  const Freshness& fresh = notebook.freshness;
  if (fresh.unknown_commit)
    out << "\\noindent\\convlabflag{Measured from an unknown revision: the run recorded no "
           "commit.}\\par\n";
  if (!fresh.change_words.empty())
    out << "\\noindent" << (fresh.measured_settings_changed ? "\\convlabflag{" : "\\convlabnote{")
        << latex_text(fresh.change_words) << "}\\par\n";
  if (!notebook.other_versions.empty())
    out << "\\noindent\\convlabflag{" << latex_text(notebook.other_versions) << "}\\par\n";
  const MarkdownCell* description = notebook.markdown(MarkdownCell::Role::description);
  out << "\\smallskip\n\\noindent\\textbf{What was measured.} "
      << latex_text(description ? plain_text(description->document.blocks.empty()
                                                 ? RichText{}
                                                 : description->document.blocks[0].inlines)
                                : "")
      << "\n\n";
}

std::string table_path(const LatexLayout& layout, const TableCell& table) {
  return layout.export_dir + "/tables/" + table.data.declaration.name + ".tex";
}

// The figure's picture, or the error box that stands in its place.
void write_figure_picture(std::ostringstream& out, const FigureData& data,
                          const LatexLayout& layout) {
  const std::string& name = data.declaration.name;
  const DrawnFigure* drawn = find_drawn(layout.figures, name);
  if (drawn && drawn->state != DrawnFigure::State::drawn) {
    out << undrawn_figure_latex(name, drawn->why);
    return;
  }
  const char* height = data.panels.size() > 2 ? "0.6" : "0.33";
  out << "\\includegraphics[width=\\linewidth,height=" << height << "\\textheight,keepaspectratio]{"
      << path_argument(drawn ? drawn->picture : layout.figures_dir + "/" + name + ".pdf") << "}\n";
}

void write_figure_float(std::ostringstream& out, const FigureData& data, const LatexLayout& layout,
                        const std::string& caption, const std::string& label) {
  out << "\\begin{figure}[htbp]\n\\centering\n";
  write_figure_picture(out, data, layout);
  out << "\\caption{" << latex_text(caption) << "}\\label{" << label << "}\n\\end{figure}\n";
}

// A figure the discussion placed: where the prose has it, not floating away from it.
void write_figure_here(std::ostringstream& out, const FigureData& data, const LatexLayout& layout,
                       const std::string& caption, const std::string& label) {
  out << "\\par\\medskip\\noindent\\begin{minipage}{\\linewidth}\\centering\n";
  write_figure_picture(out, data, layout);
  out << "\\captionof{figure}{" << latex_text(caption) << "}\\label{" << label
      << "}\n\\end{minipage}\\par\\medskip\n";
}

void write_table_float(std::ostringstream& out, const TableCell& table, const LatexLayout& layout) {
  out << "\\begin{table}[htbp]\n\\centering\\footnotesize\n\\caption{" << latex_text(table.caption)
      << "}\n";
  out << "\\input{" << path_argument(table_path(layout, table)) << "}\n\\end{table}\n";
}

void write_table_here(std::ostringstream& out, const TableCell& table, const LatexLayout& layout) {
  out << "\\par\\medskip\\noindent\\begin{minipage}{\\linewidth}\\centering\\footnotesize\n"
      << "\\captionof{table}{" << latex_text(table.caption) << "}\n";
  out << "\\input{" << path_argument(table_path(layout, table))
      << "}\n\\end{minipage}\\par\\medskip\n";
}

void write_omitted(std::ostringstream& out, const OmittedCell& omitted) {
  out << "\\par\\noindent\\convlabnote{"
      << (omitted.kind == OmittedCell::Kind::figure ? "Figure" : "Table") << " \\texttt{"
      << latex_text(omitted.name) << "} (" << latex_text(omitted.caption)
      << ") is left out: " << latex_text(omitted.reason) << ".}\\par\n";
}

void write_discussion(std::ostringstream& out, const MarkdownCell& discussion) {
  if (discussion.part == 0) {
    out << "\n\\FloatBarrier\n\\paragraph{Discussion.}\n";
    out << "% " << comment_text(discussion.path) << "\n";
  }
  out << markdown_latex(discussion.document, discussion.value_texts()) << "\n";
}

void write_source(std::ostringstream& out, const SourceCell& source) {
  out << "\\smallskip\n\\noindent\\textbf{Kernel source.} " << source_latex(source);
}

std::string gallery_latex(const GalleryCell& gallery);

// Each cell the discussion placed, where it placed it (notebook.placed_until).
void write_placed_cells(std::ostringstream& out, const ExperimentNotebook& notebook,
                        const LatexLayout& layout, const std::string& label) {
  size_t figure = 0;
  for (size_t i = 1; i < notebook.placed_until && i < notebook.cells.size(); ++i) {
    std::visit(CellVisitor{
                   [&](const MarkdownCell& text) { write_discussion(out, text); },
                   [&](const FigureCell& f) {
                     write_figure_here(out, f.data, layout, f.caption,
                                       "fig:" + label + "-" + std::to_string(++figure));
                   },
                   [&](const TableCell& table) { write_table_here(out, table, layout); },
                   [&](const OmittedCell& omitted) { write_omitted(out, omitted); },
                   [&](const ConfigCell& config) {
                     out << "\\smallskip\n\\noindent\\textbf{Config.} " << config_latex(config);
                   },
                   [&](const RunCell& run) { write_provenance_line(out, run.runs); },
                   [&](const VerificationCell& verification) {
                     write_verification_line(out, verification.summary);
                   },
                   [&](const GalleryCell& gallery) { out << gallery_latex(gallery); },
                   [&](const SourceCell& source) { write_source(out, source); },
                   [&](const QueryCell& query) { out << query_cell_latex(query); },
               },
               notebook.cells[i]);
  }
}

// Whether a cell of type T comes after the discussion's placed cells (or there are none).
template <typename T>
std::vector<const T*> not_placed(const ExperimentNotebook& notebook) {
  std::vector<const T*> found;
  for (size_t i = notebook.placed_until; i < notebook.cells.size(); ++i)
    if (const T* typed = std::get_if<T>(&notebook.cells[i])) found.push_back(typed);
  return found;
}

std::string section_latex(const ExperimentNotebook& notebook, const LatexLayout& layout) {
  std::ostringstream out;
  const std::string label = label_name(notebook.name);
  write_section_heading(out, notebook, label);
  const bool placed = notebook.placed_until > 0;
  if (placed) write_placed_cells(out, notebook, layout, label);
  // The cells not placed, in the report's order: figures (and those left out where they would
  // have been), tables, the discussion when it places nothing, verification, provenance, sources.
  size_t figure = notebook.cells_of<FigureCell>().size() - not_placed<FigureCell>(notebook).size();
  for (size_t i = notebook.placed_until; i < notebook.cells.size(); ++i) {
    const NotebookCell& cell = notebook.cells[i];
    if (const auto* f = std::get_if<FigureCell>(&cell))
      write_figure_float(out, f->data, layout, f->caption,
                         "fig:" + label + "-" + std::to_string(++figure));
    else if (const auto* omitted = std::get_if<OmittedCell>(&cell);
             omitted && omitted->kind == OmittedCell::Kind::figure)
      write_omitted(out, *omitted);
  }
  for (size_t i = notebook.placed_until; i < notebook.cells.size(); ++i) {
    const NotebookCell& cell = notebook.cells[i];
    if (const auto* table = std::get_if<TableCell>(&cell))
      write_table_float(out, *table, layout);
    else if (const auto* omitted = std::get_if<OmittedCell>(&cell);
             omitted && omitted->kind == OmittedCell::Kind::table)
      write_omitted(out, *omitted);
  }
  // The discussion reads after the figures and tables it speaks of, not between them.
  if (!placed)
    for (const MarkdownCell* discussion : notebook.cells_of<MarkdownCell>())
      if (discussion->role == MarkdownCell::Role::discussion) write_discussion(out, *discussion);
  for (const VerificationCell* verification : not_placed<VerificationCell>(notebook))
    write_verification_line(out, verification->summary);
  for (const RunCell* run : not_placed<RunCell>(notebook)) write_provenance_line(out, run->runs);
  // Users' kernels last: a page of code would part the figures from the text about them.
  for (const SourceCell* source : not_placed<SourceCell>(notebook)) write_source(out, *source);
  out << "\\FloatBarrier\n";
  return out.str();
}

std::string gallery_latex(const GalleryCell& gallery) {
  std::ostringstream out;
  for (const GalleryGroup& group : gallery.groups) {
    // One grid per photograph: its input, then every filter applied to it.
    out << "\\begin{figure}[p]\n\\centering\\scriptsize\n";
    size_t cell = 0;
    const auto place = [&](const std::string& path, const std::string& caption) {
      out << "\\begin{minipage}[t]{0.24\\linewidth}\\centering\n";
      if (path.empty())  // a picture the results file named outside its folder
        out << "\\convlabflag{no picture}";
      else
        out << "\\includegraphics[width=\\linewidth,height=0.16\\textheight,keepaspectratio]{"
            << path_argument(path) << "}";
      out << "\\\\" << caption << "\n\\end{minipage}";
      out << (++cell % 4 == 0 ? "\\par\\medskip\n" : "\\hfill\n");
    };
    place(group.input_path, "input");
    for (const auto& picture : group.pictures)
      place(picture.output_path, rich_text_latex(picture.label, caption_text));
    while (cell % 4 != 0)  // the last row keeps the grid's columns
      out << "\\begin{minipage}[t]{0.24\\linewidth}\\mbox{}\\end{minipage}"
          << (++cell % 4 == 0 ? "\\par\n" : "\\hfill\n");
    out << "\\caption{" << rich_text_latex(group.caption, caption_text) << "}\n\\end{figure}\n";
  }
  return out.str();
}

}  // namespace

std::vector<RenderedFile> experiment_latex(const ExperimentNotebook& notebook,
                                           const LatexLayout& layout) {
  std::vector<RenderedFile> files;
  files.push_back({kSectionFile, section_latex(notebook, layout)});
  for (const TableCell* table : notebook.cells_of<TableCell>())
    files.push_back({"tables/" + table->data.declaration.name + ".tex", table_latex(table->data)});
  // A gallery the discussion placed is in the section already.
  for (const GalleryCell* gallery : not_placed<GalleryCell>(notebook))
    files.push_back({kGalleryFile, gallery_latex(*gallery)});
  return files;
}

namespace {

// One row per host: its CPU-only and GPU runs share it.
std::string machine_row_key(const Provenance& p) {
  return p.hostname + "|" + p.cpu + "|" + p.memory;
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

void write_machines(std::ostringstream& out, const std::vector<IndexPart>& parts) {
  struct Row {
    Provenance run;
    std::vector<std::string> commits;
    std::vector<std::string> experiments;
    std::vector<std::string> gpus;
    std::vector<std::string> compilers;
  };
  std::vector<Row> rows;
  for (const auto& part : parts)
    for (const auto& experiment : part.experiments)
      for (const auto& run : experiment.provenance) {
        auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& row) {
          return machine_row_key(row.run) == machine_row_key(run);
        });
        if (it == rows.end()) it = rows.insert(rows.end(), Row{run, {}, {}, {}, {}});
        if (run.gpu != "none used")
          add_unique(it->gpus,
                     latex_text(run.gpu) +
                         (run.clocks.empty() ? "" : "; " + latex_text(run.clocks)) +
                         (run.driver.empty() ? "" : "; driver/runtime " + latex_text(run.driver)));
        add_unique(it->compilers, latex_text(run.compiler));
        const std::string commit = run.commit_known ? run.commit.substr(0, 7) : "unknown";
        if (std::find(it->commits.begin(), it->commits.end(), commit) == it->commits.end())
          it->commits.push_back(commit);
        if (std::find(it->experiments.begin(), it->experiments.end(), experiment.name) ==
            it->experiments.end())
          it->experiments.push_back(experiment.name);
      }
  out << "\\begin{center}\\scriptsize\n\\captionof{table}{Machines that produced the "
         "results, one row each}\\label{tab:machines}\n";
  out << "\\begin{tabularx}{\\linewidth}{@{}>{\\raggedright}p{3.1cm}>{\\raggedright}p{3.4cm}"
         ">{\\raggedright}p{2.5cm}>{\\raggedright}p{1.7cm}>{\\raggedright\\arraybackslash}X@{}}\n"
         "\\toprule\n";
  out << "CPU & GPU, clocks, driver/runtime & Compiler & Commits & Sections\\\\\n\\midrule\n";
  for (const auto& row : rows) {
    std::string commits, sections;
    for (const auto& commit : row.commits)
      commits += (commits.empty() ? "" : ", ") + (commit == "unknown"
                                                      ? std::string("\\convlabflag{unknown}")
                                                      : "\\texttt{" + latex_text(commit) + "}");
    for (const auto& name : row.experiments)
      sections += (sections.empty() ? "" : ", ") + ("\\ref{exp:" + label_name(name) + "}");
    const Provenance& p = row.run;
    out << latex_text(p.cpu) << (p.memory.empty() ? "" : ", " + latex_text(p.memory)) << " & "
        << (row.gpus.empty() ? std::string("none (CPU only)") : joined(row.gpus, "\\newline "))
        << " & " << joined(row.compilers, "\\newline ") << " & " << commits << " & " << sections
        << "\\\\\n";
  }
  out << "\\bottomrule\n\\end{tabularx}\n\\end{center}\n";
}

void write_verification_table(std::ostringstream& out, const std::vector<IndexPart>& parts,
                              const char* heading = "section") {
  out << "\\" << heading << "{Verification}\n";
  out << "Every timed point's output is compared value by value with an independent "
         "double-precision reference before its time is recorded; a point outside its tolerance "
         "is recorded as failed and never plotted.\n";
  out << "\\begin{table}[h]\n\\centering\\small\n\\caption{Verification of every experiment: "
         "points checked against the double-precision reference}\\label{tab:verification}\n";
  out << "\\begin{tabular}{@{}lrrrrr@{}}\n\\toprule\n";
  out << "Experiment & Sec. & Ok & Skipped & Failed & Largest error (tolerance)\\\\\n\\midrule\n";
  for (const auto& part : parts)
    for (const auto& e : part.experiments) {
      const VerificationSummary& v = e.verification;
      out << "\\texttt{" << latex_text(e.name) << "} & \\ref{exp:" << label_name(e.name) << "} & "
          << v.ok << " & " << v.skipped << " & "
          << (v.failed ? "\\convlabflag{" + std::to_string(v.failed) + "}" : std::string("0"))
          << " & "
          << (v.has_worst ? format_number(v.worst_abs_error, 3) + " (" +
                                format_number(v.worst_tolerance, 3) + ")"
                          : std::string("--"))
          << "\\\\\n";
    }
  out << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
}

void write_config_appendix(std::ostringstream& out, const std::vector<IndexPart>& parts) {
  out << "\n\\clearpage\n\\appendix\n\\section{The configs as written}\\label{app:configs}\n";
  out << "Each experiment's YAML file as it is in the repository (\\texttt{make experiment "
         "CONFIG=...} runs it); a section flags the config when its measured settings changed "
         "since its results were measured, and notes in grey when only its text did.\n";
  out << "\\begin{multicols*}{2}\n";
  for (const auto& part : parts)
    for (const auto& e : part.experiments) {
      if (e.config_path.empty()) continue;
      out << "\\convlabconfig{" << latex_text(e.config_path) << "}{cfg:" << label_name(e.name)
          << "}{" << path_argument(e.config_path) << "}\n";
    }
  out << "\\end{multicols*}\n";
}

}  // namespace

std::string experiment_document_latex(const IndexExperiment& experiment) {
  std::ostringstream out;
  out << "% Generated by convlab export --document: experiment " << comment_text(experiment.name)
      << " as a report of its own.\n";
  out << "\\title{" << latex_text(experiment.title) << "}\n\\author{}\n";
  out << "\\date{Experiment \\texttt{" << latex_text(experiment.name)
      << "}, built on \\today{} from commit \\texttt{\\convlabbuildcommit}}\n";
  out << "\\maketitle\n\\thispagestyle{plain}\n";
  out << "\\input{" << path_argument(experiment.section_path) << "}\n";
  if (experiment.gallery_path)
    out << "\\input{" << path_argument(*experiment.gallery_path) << "}\n";
  if (experiment.history_path)
    out << "\\FloatBarrier\n\\input{" << path_argument(*experiment.history_path) << "}\n";
  const std::vector<IndexPart> parts{IndexPart{"", "", false, {experiment}}};
  out << "\\FloatBarrier\n";
  write_machines(out, parts);
  write_verification_table(out, parts, "subsection");
  if (!experiment.config_path.empty()) {
    out << "\n\\clearpage\n\\appendix\n\\subsection{The config as written}\n";
    out << "\\convlabconfig{" << latex_text(experiment.config_path)
        << "}{cfg:" << label_name(experiment.name) << "}{" << path_argument(experiment.config_path)
        << "}\n";
  }
  return out.str();
}

std::string undrawn_figure_latex(const std::string& name, const std::string& why) {
  return "\\convlabfigureerror{" + latex_text(name) + "}{" + latex_text(why) + "}\n";
}

std::string index_latex(const IndexFront& front, const std::vector<IndexPart>& parts) {
  std::ostringstream out;
  out << "% Generated by convlab export --index: front matter, parts, sections, appendix.\n";
  out << "\\section{Summary}\\label{sec:summary}\n";
  if (!front.summary_path.empty()) out << "\\input{" << path_argument(front.summary_path) << "}\n";
  for (size_t i = 0; i < front.figures.size(); ++i) {
    out << "\\begin{center}\n";
    if (!front.figures[i].error.empty())
      out << undrawn_figure_latex(front.figures[i].name, front.figures[i].error);
    else
      out << "\\includegraphics[width=\\linewidth,height=0.42\\textheight,keepaspectratio]{"
          << path_argument(front.figures[i].pdf_path) << "}\n";
    out << "\\captionof{figure}{" << latex_text(front.figures[i].caption) << "}\\label{fig:summary-"
        << i + 1 << "}\n\\end{center}\n";
  }
  write_machines(out, parts);
  out << "\\FloatBarrier\n{\\small\\tableofcontents}\n";
  write_verification_table(out, parts);
  for (const auto& part : parts) {
    if (part.experiments.empty()) continue;
    out << "\n\\clearpage\n\\section{" << latex_text(part.title) << "}\n";
    if (part.extension) out << "\\noindent\\convlabextension\\par\\smallskip\n";
    if (!part.claim.empty())
      out << "\\noindent\\textbf{What the seed claimed.} " << part.claim << "\n\n";
    for (const auto& experiment : part.experiments) {
      out << "\\input{" << path_argument(experiment.section_path) << "}\n";
      if (experiment.gallery_path)
        out << "\\input{" << path_argument(*experiment.gallery_path) << "}\n";
    }
  }
  write_config_appendix(out, parts);
  return out.str();
}

}  // namespace convlab

// A discussion that places the notebook's cells ({{figure: NAME}}, {{table: NAME}}, {{config}},
// {{run}}, {{verification}}, {{gallery}}, {{sources}}): where they stand in the model, in the HTML
// page and in the LaTeX section, what is not placed, and every mistake with its file and line. A
// figure that selects no point stands where it would have been.
#include <gtest/gtest.h>

#include "html/experiment_page.hpp"
#include "notebook/markdown.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook_test_support.hpp"
#include "query/results_document.hpp"
#include "report/latex_writer.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

const char* const kPlacingDiscussion =
    "Efficiency first: four threads reach "
    "{{efficiency[implementation=openmp,params.threads=4,image.width=1024,kernel.size=7]}}.\n"
    "\n"
    "{{figure: efficiency}}\n"
    "\n"
    "The baseline's times, then the run.\n"
    "{{table: time-by-kernel}}\n"
    "{{run}}\n"
    "And that is all.\n";

struct Built {
  ResultsDocument results;
  ExperimentNotebook notebook;
};

// The fixture experiment with `discussion` as its discussion, and optionally another config.
Built build_with(const std::string& discussion, const fs::path& folder,
                 const std::string& config = "") {
  const fs::path md = folder / "fixture-demo.md";
  write_file(md, discussion);
  std::string config_path = (fixtures() / "configs" / "fixture-demo.yaml").string();
  if (!config.empty()) {
    config_path = (folder / "fixture-demo.yaml").string();
    write_file(config_path, config);
  }
  Built built;
  built.results = load_results_document((fixtures() / "fixture-demo" / "results.json").string());
  built.notebook = build_notebook(
      built.results,
      NotebookSources{notebook_config(config_path, built.results), md.string(), std::nullopt});
  return built;
}

std::string build_error(const std::string& discussion) {
  Scratch scratch("placement");
  try {
    build_with(discussion, scratch.path());
  } catch (const ResultsError& error) {
    return std::regex_replace(error.what(), std::regex(".*fixture-demo.md:"), "x.md:");
  }
  return "no error";
}

// The kind of each cell: its variant's name, a figure's or table's with its name.
std::vector<std::string> layout(const ExperimentNotebook& notebook) {
  std::vector<std::string> kinds;
  for (const auto& cell : notebook.cells) {
    if (const auto* m = std::get_if<MarkdownCell>(&cell))
      kinds.push_back(m->role == MarkdownCell::Role::description
                          ? "description"
                          : "discussion " + std::to_string(m->part));
    else if (const auto* f = std::get_if<FigureCell>(&cell))
      kinds.push_back("figure " + f->data.declaration.name);
    else if (const auto* t = std::get_if<TableCell>(&cell))
      kinds.push_back("table " + t->data.declaration.name);
    else if (std::holds_alternative<ConfigCell>(cell))
      kinds.push_back("config");
    else if (std::holds_alternative<RunCell>(cell))
      kinds.push_back("run");
    else if (std::holds_alternative<GalleryCell>(cell))
      kinds.push_back("gallery");
    else if (std::holds_alternative<VerificationCell>(cell))
      kinds.push_back("verification");
    else if (const auto* o = std::get_if<OmittedCell>(&cell))
      kinds.push_back("omitted " + o->name);
    else
      kinds.push_back("other");
  }
  return kinds;
}

TEST(Placement, PlacedCellsStandInTheDiscussionAndTheRestFollowsInOrder) {
  Scratch scratch("placement");
  const Built built = build_with(kPlacingDiscussion, scratch.path());
  const std::vector<std::string> expected = {"description",           "discussion 0",
                                             "figure efficiency",     "discussion 1",
                                             "table time-by-kernel",  "run",
                                             "discussion 2",          "config",
                                             "figure time-vs-size",   "figure speedup-bars",
                                             "figure transfers",      "figure block-heatmap",
                                             "table speedup-by-size", "gallery",
                                             "verification"};
  EXPECT_EQ(layout(built.notebook), expected);
  EXPECT_EQ(built.notebook.placed_until, 7u);
}

TEST(Placement, ADiscussionPlacingNothingStaysLast) {
  Scratch scratch("placement");
  const Built built =
      build_with("Only prose, and `{{figure: efficiency}}` in code.\n", scratch.path());
  const auto kinds = layout(built.notebook);
  EXPECT_EQ(kinds.front(), "description");
  EXPECT_EQ(kinds.back(), "discussion 0");
  EXPECT_EQ(kinds[1], "config");
  EXPECT_EQ(built.notebook.placed_until, 0u);
}

TEST(Placement, TheHtmlPageFollowsTheModel) {
  Scratch scratch("placement");
  const Built built = build_with(kPlacingDiscussion, scratch.path());
  PageContext context;
  context.generator = "convlab test";
  const std::string html = experiment_page(built.notebook, context).html;
  const std::vector<std::string> ids = {
      "id=\"description\"",   "id=\"discussion\"",  "id=\"cell-figure-1\"", "id=\"discussion-2\"",
      "id=\"cell-table-1\"",  "id=\"run\"",         "id=\"discussion-3\"",  "id=\"config\"",
      "id=\"cell-figure-2\"", "id=\"verification\""};
  size_t at = 0;
  for (const auto& id : ids) {
    const size_t found = html.find(id, at);
    ASSERT_NE(found, std::string::npos) << id << " missing or out of order";
    at = found;
  }
  // The placed figure is the efficiency figure, and the file's path is named once.
  EXPECT_NE(html.find("OpenMP parallel efficiency", html.find("id=\"cell-figure-1\"")),
            std::string::npos);
  EXPECT_LT(html.find("OpenMP parallel efficiency", html.find("id=\"cell-figure-1\"")),
            html.find("id=\"discussion-2\""));
  size_t paths = 0;
  for (size_t p = html.find("fixture-demo.md</p>"); p != std::string::npos;
       p = html.find("fixture-demo.md</p>", p + 1))
    ++paths;
  EXPECT_EQ(paths, 1u);
}

TEST(Placement, TheLatexSectionFollowsTheModel) {
  Scratch scratch("placement");
  const Built built = build_with(kPlacingDiscussion, scratch.path());
  std::string section;
  for (const RenderedFile& file : experiment_latex(built.notebook, {"export", "figures"}))
    if (file.path == "section.tex") section = file.content;
  const size_t discussion = section.find("\\paragraph{Discussion.}");
  const size_t placed_figure = section.find("\\captionof{figure}{OpenMP parallel efficiency.}");
  const size_t then = section.find("The baseline");
  const size_t placed_table = section.find("\\captionof{table}{Median time (ms) of the sequential");
  const size_t provenance = section.find("\\textbf{Provenance.}");
  const size_t all = section.find("And that is all.");
  const size_t floating = section.find("\\begin{figure}[htbp]");
  const size_t verification = section.find("\\textbf{Verification.}");
  for (size_t position :
       {discussion, placed_figure, then, placed_table, provenance, all, floating, verification})
    ASSERT_NE(position, std::string::npos) << section;
  EXPECT_LT(discussion, placed_figure);
  EXPECT_LT(placed_figure, then);
  EXPECT_LT(then, placed_table);
  EXPECT_LT(placed_table, provenance);
  EXPECT_LT(provenance, all);
  EXPECT_LT(all, floating);  // what is not placed follows, as floats
  EXPECT_LT(floating, verification);
  // The placed figure is labelled first; the four not placed float after it.
  EXPECT_NE(section.find("\\label{fig:fixture-demo-1}", placed_figure), std::string::npos);
  size_t floats = 0;
  for (size_t p = section.find("\\begin{figure}[htbp]"); p != std::string::npos;
       p = section.find("\\begin{figure}[htbp]", p + 1))
    ++floats;
  EXPECT_EQ(floats, 4u);
  EXPECT_EQ(section.find("\\textbf{Provenance.}", provenance + 1), std::string::npos);
}

TEST(Placement, MistakesNameTheFileTheLineAndWhy) {
  EXPECT_EQ(build_error("a\n\n{{figure: efficency}}\n"),
            "x.md:3: {{figure: efficency}}: no figure 'efficency' (did you mean 'efficiency'?)");
  EXPECT_EQ(build_error("{{table: nothing-like-it}}\n"),
            "x.md:1: {{table: nothing-like-it}}: no table 'nothing-like-it' (the tables are "
            "speedup-by-size, time-by-kernel)");
  EXPECT_EQ(build_error("{{figure: efficiency}}\n\n{{figure: efficiency}}\n"),
            "x.md:3: {{figure: efficiency}}: placed already, on line 1");
  EXPECT_EQ(build_error("See {{figure: efficiency}} here.\n"),
            "x.md:1: {{figure: efficiency}}: a cell is placed on a line of its own");
  EXPECT_EQ(build_error("- one\n- {{run}}\n"),
            "x.md:2: {{run}}: a cell is placed at the top level of the discussion, not inside a "
            "list or a quote");
  EXPECT_EQ(build_error("# {{config}}\n"),
            "x.md:1: {{config}}: a cell is placed on a line of its own, not in a heading");
  EXPECT_EQ(build_error("{{sources}}\n"),
            "x.md:1: {{sources}}: no kernel source: the config names no kernel of its own "
            "(docs/own-kernels.md)");
}

TEST(Placement, TheReportSummaryPlacesNothing) {
  try {
    find_value_references("{{figure: efficiency}}", ProseSyntax::latex, "summary.tex");
    FAIL() << "expected an error";
  } catch (const ResultsError& error) {
    EXPECT_NE(std::string(error.what()).find("cells are placed in an experiment's discussion"),
              std::string::npos);
  }
}

TEST(Placement, AFigureWithoutPointsStandsWhereItWouldHaveBeen) {
  Scratch scratch("placement");
  std::string config = read_file(fixtures() / "configs" / "fixture-demo.yaml");
  config.replace(config.find("where: \"implementation=openmp\""),
                 std::string("where: \"implementation=openmp\"").size(),
                 "where: \"implementation=openmp,kernel.size=5\"");
  const Built built =
      build_with("Before.\n\n{{figure: efficiency}}\n\nAfter.\n", scratch.path(), config);
  const auto kinds = layout(built.notebook);
  ASSERT_GE(kinds.size(), 4u);
  EXPECT_EQ(kinds[2], "omitted efficiency");
  ASSERT_EQ(built.notebook.notes.size(), 1u);
  PageContext context;
  context.generator = "convlab test";
  const std::string html = experiment_page(built.notebook, context).html;
  const size_t omitted = html.find("id=\"cell-omitted-1\"");
  ASSERT_NE(omitted, std::string::npos);
  EXPECT_LT(html.find("id=\"discussion\""), omitted);
  EXPECT_LT(omitted, html.find("id=\"discussion-2\""));
  EXPECT_NE(html.find("The figure <code>efficiency</code> is left out:", omitted),
            std::string::npos);
  std::string section;
  for (const RenderedFile& file : experiment_latex(built.notebook, {"export", "figures"}))
    if (file.path == "section.tex") section = file.content;
  EXPECT_NE(section.find("\\convlabnote{Figure \\texttt{efficiency} (OpenMP parallel "
                         "efficiency.) is left out:"),
            std::string::npos)
      << section;
}

}  // namespace
}  // namespace convlab

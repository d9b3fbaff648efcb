// The figure stage the notebook and the report share (src/drawing/figure_stage.hpp): what it writes
// where the caller's place says, what it hands over without gnuplot and with it, keyed by
// declaration name and kept to the group it was prepared in; and the renderers finding each figure
// cell's drawing by that name, whatever the order the drawings come in.
#include <gtest/gtest.h>

#include "drawing/figure_stage.hpp"
#include "html/experiment_page.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook_test_support.hpp"
#include "query/results_document.hpp"
#include "report/latex_writer.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

class FigureStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    results_ = load_results_document((fixtures() / "fixture-demo" / "results.json").string());
    notebook_ = build_notebook(
        results_,
        NotebookSources{
            notebook_config((fixtures() / "configs" / "fixture-demo.yaml").string(), results_),
            std::nullopt, std::nullopt});
    figures_ = notebook_.cells_of<FigureCell>();
    ASSERT_GE(figures_.size(), 3u);
  }
  // Every file of the figure in one folder, as the notebook places them.
  FigurePlace place(const FigureCell& figure, const fs::path& folder) const {
    const std::string& name = figure.data.declaration.name;
    return {folder, folder, folder, name, "figures/" + name + ".svg"};
  }
  // The figure element of figure `name` on a page.
  static std::string figure_element(const std::string& html, const std::string& name) {
    const size_t start = html.find("id=\"figure-" + name + "\"");
    if (start == std::string::npos) return "";
    return html.substr(start, html.find("</figure>", start) - start);
  }

  ResultsDocument results_;
  ExperimentNotebook notebook_;
  std::vector<const FigureCell*> figures_;
};

TEST_F(FigureStageTest, TheReportScriptsEveryFigureWithoutGnuplotAndSaysWhyInItsPlace) {
  Scratch scratch("figure-stage");
  const fs::path data = scratch.path() / "data", plots = scratch.path() / "plots",
                 pictures = scratch.path() / "figures";
  FigureStage stage(FigureMedium::report, false);
  for (const FigureCell* figure : figures_) {
    const std::string& name = figure->data.declaration.name;
    stage.prepare(figure->data, {data, plots, pictures, name, "figures/" + name + ".pdf"});
  }
  EXPECT_EQ(stage.draw(), 0u);
  EXPECT_TRUE(stage.failures().empty());
  const DrawnFigures drawn = stage.figures();
  ASSERT_EQ(drawn.size(), figures_.size());
  for (const FigureCell* figure : figures_) {
    const std::string& name = figure->data.declaration.name;
    const DrawnFigure* found = find_drawn(drawn, name);
    ASSERT_NE(found, nullptr) << name;
    EXPECT_EQ(found->state, DrawnFigure::State::not_drawn);
    EXPECT_EQ(found->why, no_gnuplot_words(FigureMedium::report));
    EXPECT_EQ(found->picture, "figures/" + name + ".pdf");
    // The script opens its data and writes its pictures relative to its own folder.
    const std::string script = read_file(plots / (name + ".gp"));
    EXPECT_NE(script.find("../figures/" + name + ".pdf"), std::string::npos) << script;
    EXPECT_NE(script.find("../data/" + name), std::string::npos) << script;
    EXPECT_FALSE(fs::exists(pictures / (name + ".pdf")));
  }
  EXPECT_TRUE(fs::exists(data / (figures_[0]->data.declaration.name + ".tsv")) ||
              fs::exists(data / (figures_[0]->data.declaration.name + "--panel1.tsv")));
}

TEST_F(FigureStageTest, TheNotebookWritesNothingWithoutGnuplot) {
  Scratch scratch("figure-stage");
  const fs::path folder = scratch.path() / "build";
  FigureStage stage(FigureMedium::notebook, false);
  for (const FigureCell* figure : figures_) stage.prepare(figure->data, place(*figure, folder));
  EXPECT_EQ(stage.draw(), 0u);
  EXPECT_FALSE(fs::exists(folder));
  for (const auto& [name, figure] : stage.figures()) {
    EXPECT_EQ(figure.state, DrawnFigure::State::not_drawn) << name;
    EXPECT_EQ(figure.why, no_gnuplot_words(FigureMedium::notebook));
  }
}

TEST_F(FigureStageTest, EachGroupGetsItsOwnFiguresByName) {
  Scratch scratch("figure-stage");
  FigureStage stage(FigureMedium::report, false);
  stage.prepare(figures_[0]->data, place(*figures_[0], scratch.path() / "a"), 0);
  stage.prepare(figures_[1]->data, place(*figures_[1], scratch.path() / "b"), 1);
  stage.prepare(figures_[2]->data, place(*figures_[2], scratch.path() / "a"), 0);
  stage.draw();
  const DrawnFigures first = stage.figures(0), second = stage.figures(1);
  EXPECT_EQ(first.size(), 2u);
  EXPECT_NE(find_drawn(first, figures_[0]->data.declaration.name), nullptr);
  EXPECT_NE(find_drawn(first, figures_[2]->data.declaration.name), nullptr);
  EXPECT_EQ(find_drawn(first, figures_[1]->data.declaration.name), nullptr);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second.begin()->first, figures_[1]->data.declaration.name);
}

TEST_F(FigureStageTest, GnuplotDrawsTheNotebooksSvgOnceAndItIsHandedOverRead) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
  Scratch scratch("figure-stage");
  const fs::path folder = scratch.path() / "build";
  const FigureCell& figure = *figures_[0];
  const std::string& name = figure.data.declaration.name;
  FigureStage stage(FigureMedium::notebook, true);
  stage.prepare(figure.data, place(figure, folder));
  EXPECT_EQ(stage.draw(), 1u);
  const DrawnFigure drawn = stage.figures().at(name);
  ASSERT_EQ(drawn.state, DrawnFigure::State::drawn) << drawn.why;
  EXPECT_EQ(drawn.svg, read_file(folder / (name + ".svg")));
  EXPECT_NE(drawn.svg.find("<svg"), std::string::npos);
  EXPECT_NE(drawn.axes.find("panel 1"), std::string::npos) << drawn.axes;
  EXPECT_EQ(drawn.picture, "figures/" + name + ".svg");
  // Nothing changed: prepared again, it is not drawn again.
  FigureStage again(FigureMedium::notebook, true);
  again.prepare(figure.data, place(figure, folder));
  EXPECT_EQ(again.draw(), 0u);
  EXPECT_EQ(again.figures().at(name).state, DrawnFigure::State::drawn);
}

TEST_F(FigureStageTest, ThePageFindsEachFigureCellsDrawingByName) {
  // Only the third figure has a drawing, and it failed: its own cell says so, the others are
  // not drawn; no drawing lands in another figure's place.
  const std::string& third = figures_[2]->data.declaration.name;
  PageContext context;
  context.generator = "convlab test";
  DrawnFigure failed;
  failed.state = DrawnFigure::State::failed;
  failed.why = "figure '" + third + "': gnuplot stopped at \"x.gp\" line 3: no";
  context.figures[third] = failed;
  const ExperimentPage page = experiment_page(notebook_, context);
  EXPECT_EQ(page.figure_errors, std::vector<std::string>{failed.why});
  const std::string element = figure_element(page.html, third);
  EXPECT_NE(element.find("gnuplot stopped at"), std::string::npos) << element;
  for (const FigureCell* other : {figures_[0], figures_[1]}) {
    const std::string text = figure_element(page.html, other->data.declaration.name);
    EXPECT_NE(text.find("Not drawn: no drawing of it was made"), std::string::npos) << text;
    EXPECT_EQ(text.find("gnuplot stopped at"), std::string::npos) << text;
  }
  EXPECT_TRUE(page.figures.empty());
}

TEST_F(FigureStageTest, TheSectionFindsEachFigureByName) {
  const std::string& first = figures_[0]->data.declaration.name;
  const std::string& second = figures_[1]->data.declaration.name;
  LatexLayout layout{"export", "figures"};
  DrawnFigure failed;
  failed.state = DrawnFigure::State::failed;
  failed.why = "gnuplot stopped";
  layout.figures[first] = failed;
  DrawnFigure drawn;
  drawn.state = DrawnFigure::State::drawn;
  drawn.picture = "elsewhere/" + second + ".pdf";
  layout.figures[second] = drawn;
  std::string section;
  for (const RenderedFile& file : experiment_latex(notebook_, layout))
    if (file.path == kSectionFile) section = file.content;
  EXPECT_NE(section.find("\\convlabfigureerror{" + first + "}{gnuplot stopped}"), std::string::npos)
      << section;
  EXPECT_EQ(section.find("figures/" + first + ".pdf"), std::string::npos);
  EXPECT_NE(section.find("{elsewhere/" + second + ".pdf}"), std::string::npos) << section;
  // A figure the stage was not given is included from the layout's figures folder.
  const std::string& third = figures_[2]->data.declaration.name;
  EXPECT_NE(section.find("{figures/" + third + ".pdf}"), std::string::npos) << section;
}

}  // namespace
}  // namespace convlab

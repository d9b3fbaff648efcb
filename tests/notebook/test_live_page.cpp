// The live render of a page (convlab watch): a static page is what it always was, byte for byte;
// a live one carries the policy that lets it connect to its own server and the meta naming the
// page it follows, the config error and the progress line at the top, and marks exactly the cells
// whose content differs from the previous render.
#include <gtest/gtest.h>

#include "html/experiment_page.hpp"
#include "html/html_text.hpp"
#include "html/page_frame.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook_test_support.hpp"
#include "query/results_document.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

class LivePageRender : public ::testing::Test {
 protected:
  void SetUp() override {
    results_ = load_results_document((fixtures() / "fixture-demo" / "results.json").string());
    notebook_ = build_notebook(
        results_,
        NotebookSources{
            notebook_config((fixtures() / "configs" / "fixture-demo.yaml").string(), results_),
            (fixtures() / "experiments" / "fixture-demo.md").string(), std::nullopt});
    context_.generator = "convlab test";
  }
  ResultsDocument results_;
  ExperimentNotebook notebook_;
  PageContext context_;
};

TEST_F(LivePageRender, AStaticPageHasNoLivePart) {
  const ExperimentPage page = experiment_page(notebook_, context_);
  EXPECT_EQ(page.html.find("connect-src"), std::string::npos);
  EXPECT_EQ(page.html.find("convlab-live"), std::string::npos);
  EXPECT_EQ(page.html.find("cell-error"), std::string::npos);
  EXPECT_EQ(page.html.find("live-progress"), std::string::npos);
  EXPECT_EQ(page.html.find("changed-badge"), std::string::npos);
  EXPECT_EQ(page.html.find(" changed\""), std::string::npos);
  EXPECT_TRUE(page.changed.empty());
  EXPECT_FALSE(page.digests.empty());
  EXPECT_NE(page.html.find("content=\"" + html_escape(kContentSecurityPolicy) + "\""),
            std::string::npos);
}

TEST_F(LivePageRender, ALivePageConnectsOnlyToItsServerAndNamesItsPage) {
  context_.live = LivePage{};
  context_.live->served_as = "fixture-demo.html";
  const std::string html = experiment_page(notebook_, context_).html;
  EXPECT_NE(html.find("connect-src &#39;self&#39;"), std::string::npos) << html.substr(0, 600);
  EXPECT_NE(html.find("<meta name=\"convlab-live\" content=\"fixture-demo.html\" />"),
            std::string::npos);
  // Written for file:// (not served): the policy, but no page to follow.
  context_.live->served_as = "";
  EXPECT_EQ(experiment_page(notebook_, context_).html.find("convlab-live"), std::string::npos);
}

TEST_F(LivePageRender, TheConfigErrorAndTheProgressLineAreAtTheTop) {
  context_.live = LivePage{};
  context_.live->config_error = "c.yaml:6:11: kernels[0].size: <odd> sizes only";
  context_.live->progress = LiveProgress{3, 12, 4.2};
  const std::string html = experiment_page(notebook_, context_).html;
  const size_t error = html.find("id=\"cell-error\" role=\"alert\"");
  ASSERT_NE(error, std::string::npos);
  EXPECT_NE(html.find("c.yaml:6:11: kernels[0].size: &lt;odd&gt; sizes only", error),
            std::string::npos);
  const size_t progress = html.find("sweep running: point 4 of 12, ETA 4.2 s");
  ASSERT_NE(progress, std::string::npos);
  EXPECT_LT(error, html.find("cell-figure"));
  EXPECT_LT(progress, html.find("cell-figure"));
  EXPECT_EQ(live_progress_words({12, 12, 0}), "sweep done: 12 of 12 points");
}

// A kernel that does not compile is not a broken config: the cell says which it is, and how to
// fix it, with the compiler's lines as text.
TEST_F(LivePageRender, AKernelCompileErrorIsLabelledAsOne) {
  context_.live = LivePage{};
  context_.live->compile_error = "k.cu(3): error: identifier \"<undefined>\" is undefined";
  const std::string html = experiment_page(notebook_, context_).html;
  const size_t error = html.find("id=\"cell-error\" role=\"alert\"");
  ASSERT_NE(error, std::string::npos);
  EXPECT_NE(html.find("<div class=\"cell-label\">kernel compile error</div>", error),
            std::string::npos);
  EXPECT_NE(
      html.find("k.cu(3): error: identifier &quot;&lt;undefined&gt;&quot; is undefined", error),
      std::string::npos);
  EXPECT_NE(html.find("Fix the kernel source and save it again.", error), std::string::npos);
  EXPECT_EQ(html.find("config error"), std::string::npos);
}

TEST_F(LivePageRender, OnlyCellsWhoseContentChangedAreMarked) {
  context_.live = LivePage{};
  const ExperimentPage first = experiment_page(notebook_, context_);
  EXPECT_TRUE(first.changed.empty()) << "no previous render: nothing to compare with";
  context_.live->previous_digests = first.digests;
  const ExperimentPage same = experiment_page(notebook_, context_);
  EXPECT_TRUE(same.changed.empty());
  EXPECT_EQ(same.html.find("changed-badge"), std::string::npos);

  notebook_.title = "Another title";  // not a cell
  for (NotebookCell& cell : notebook_.cells)
    if (auto* config = std::get_if<ConfigCell>(&cell)) config->text += "# edited\n";
  const ExperimentPage edited = experiment_page(notebook_, context_);
  EXPECT_EQ(edited.changed, std::vector<std::string>{"config"});
  EXPECT_NE(edited.html.find("<section class=\"cell cell-config changed\" id=\"config\">"),
            std::string::npos);
  EXPECT_EQ(edited.html.find("changed-badge"), edited.html.rfind("changed-badge"));
}

}  // namespace
}  // namespace convlab

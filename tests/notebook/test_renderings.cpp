// The notebook model and its two renderings: the LaTeX section and the HTML page of the fixture
// experiment quote the same numbers, cell by cell; Markdown, math and live values render in both.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "html/experiment_page.hpp"
#include "html/html_markdown.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook_test_support.hpp"
#include "query/results_document.hpp"
#include "report/latex_markdown.hpp"
#include "report/latex_writer.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

ExperimentNotebook fixture_notebook(const ResultsDocument& results) {
  return build_notebook(
      results,
      NotebookSources{
          notebook_config((fixtures() / "configs" / "fixture-demo.yaml").string(), results),
          (fixtures() / "experiments" / "fixture-demo.md").string(), std::nullopt});
}

std::set<std::string> numbers_in(const std::string& text) {
  std::set<std::string> numbers;
  static const std::regex number(R"([0-9]+(\.[0-9]+)?)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
       it != std::sregex_iterator(); ++it)
    numbers.insert(it->str());
  return numbers;
}

// LaTeX as the reader sees it: comments, commands with their options and the arguments that are
// not text (paths, labels, environments) removed.
std::string latex_words(std::string tex) {
  tex = std::regex_replace(tex, std::regex(R"((^|[^\\])%[^\n]*)"), "$1");
  tex = std::regex_replace(tex, std::regex(R"(\$\\times\$)"), " x ");
  tex = std::regex_replace(
      tex,
      std::regex(
          R"(\\(includegraphics|input|label|ref|begin|end|cmidrule|multicolumn)(\[[^\]]*\]|\([^)]*\))?(\{[^}]*\})*)"),
      " ");
  tex = std::regex_replace(tex, std::regex(R"(\\[a-zA-Z]+(\[[^\]]*\])?)"), " ");
  return tex;
}

// HTML as the reader sees it: tags (with their attributes) removed, references decoded.
std::string html_words(std::string html) {
  html = std::regex_replace(html, std::regex(R"(<[^>]*>)"), " ");
  for (const auto& [entity, text] : std::map<std::string, std::string>{{"&#160;", " "},
                                                                       {"&amp;", "&"},
                                                                       {"&lt;", "<"},
                                                                       {"&gt;", ">"},
                                                                       {"&#39;", "'"},
                                                                       {"&quot;", "\""},
                                                                       {"&#183;", " "},
                                                                       {"&#8211;", "-"}})
    html = std::regex_replace(html, std::regex(entity), text);
  return html;
}

// The part of `text` from `begin` to `end` (both searched for in order).
std::string between(const std::string& text, const std::string& begin, const std::string& end,
                    size_t from = 0) {
  const size_t start = text.find(begin, from);
  if (start == std::string::npos) return "";
  const size_t stop = text.find(end, start + begin.size());
  return text.substr(start, stop == std::string::npos ? std::string::npos : stop - start);
}

std::string difference(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::string missing;
  for (const auto& n : a)
    if (!b.count(n)) missing += n + " ";
  return missing;
}

class Renderings : public ::testing::Test {
 protected:
  void SetUp() override {
    results_ = load_results_document((fixtures() / "fixture-demo" / "results.json").string());
    notebook_ = fixture_notebook(results_);
    for (const RenderedFile& file : experiment_latex(notebook_, {"export", "figures"}))
      latex_[file.path] = file.content;
    PageContext context;
    context.generator = "convlab test";
    html_ = experiment_page(notebook_, context).html;
  }
  ResultsDocument results_;
  ExperimentNotebook notebook_;
  std::map<std::string, std::string> latex_;
  std::string html_;
};

TEST_F(Renderings, EveryNumberQuotedInOneAppearsInTheOther) {
  const std::string& section = latex_.at("section.tex");
  struct Part {
    std::string name, latex, html;
    bool both_ways;
  };
  std::vector<Part> parts = {
      {"discussion", between(section, "\\paragraph{Discussion.}", "\\textbf{Verification.}"),
       between(html_, "<section class=\"cell cell-discussion\"", "</section>"), true},
      {"description", between(section, "What was measured.}", "\n\n"),
       between(html_, "<section class=\"cell cell-description\"", "</section>"), true},
      {"verification", between(section, "\\textbf{Verification.}", "\\par"),
       between(html_, "<section class=\"cell cell-verification\"", "</section>"), false},
      {"provenance", between(section, "\\textbf{Provenance.}", "\\par"),
       between(html_, "<section class=\"cell cell-run\"", "</section>"), false},
  };
  // The HTML discussion names its file (a path, whose digits depend on where the tree is), the
  // LaTeX one does not: that line is not a quoted number.
  parts[0].html = std::regex_replace(parts[0].html, std::regex(R"(<p class="meta">[^<]*</p>)"), "");
  // Each figure's caption and each table's numbers, in order.
  size_t at = 0, html_at = 0;
  for (int figure = 0; figure < 5; ++figure) {
    const std::string caption = between(section, "\\caption{", "}\\label", at);
    at = section.find("\\caption{", at) + 1;
    const std::string html_caption = between(html_, "</span> ", "<span class=\"hint\">",
                                             html_.find("<figure class=\"plot", html_at));
    html_at = html_.find("<figure class=\"plot", html_at) + 1;
    parts.push_back({"figure caption " + std::to_string(figure + 1), caption, html_caption, true});
  }
  for (const TableCell* table : notebook_.cells_of<TableCell>()) {
    const std::string& tex = latex_.at("tables/" + table->data.declaration.name + ".tex");
    const std::string html_table =
        between(html_, "<table class=\"sortable data\" id=\"table-", "</table>",
                html_.find("id=\"table-" + table->data.declaration.name + "\""));
    parts.push_back({"table " + table->data.declaration.name,
                     between(tex, "\\\\\n", "\\bottomrule"), html_table, true});
  }
  ASSERT_EQ(parts.size(), 11u);
  for (const Part& part : parts) {
    SCOPED_TRACE(part.name);
    ASSERT_FALSE(part.latex.empty());
    ASSERT_FALSE(part.html.empty());
    const auto latex_numbers = numbers_in(latex_words(part.latex));
    const auto html_numbers = numbers_in(html_words(part.html));
    if (part.name.rfind("figure caption", 0) != 0 && part.name != "description") {
      EXPECT_FALSE(latex_numbers.empty());
    }
    EXPECT_EQ(difference(latex_numbers, html_numbers), "") << "quoted in LaTeX, not in HTML";
    if (part.both_ways) {
      EXPECT_EQ(difference(html_numbers, latex_numbers), "") << "quoted in HTML, not in LaTeX";
    }
  }
  // The discussion's live values are the results' numbers, in both.
  for (const char* value : {"56.5", "15.8", "0.920", "180", "113"}) {
    EXPECT_NE(parts[0].latex.find(value), std::string::npos) << value;
    EXPECT_NE(html_words(parts[0].html).find(value), std::string::npos) << value;
  }
}

TEST_F(Renderings, DiscussionMathAndTiesInBothOutputs) {
  const std::string& section = latex_.at("section.tex");
  EXPECT_NE(section.find("$1024\\times1024$"), std::string::npos);
  EXPECT_NE(section.find("56.5~ms"), std::string::npos) << section;
  EXPECT_NE(html_.find("<span class=\"math\">1024\\times1024</span>"), std::string::npos);
  EXPECT_NE(html_.find(">56.5</span>&#160;ms"), std::string::npos);
  // The value names its query and point for a reader who hovers it.
  EXPECT_NE(html_.find("title=\"{{median_ms[implementation=sequential,image.width=1024,"
                       "kernel.size=7]}}"),
            std::string::npos);
}

TEST(Markdown, BlocksInlinesMathValuesAndRawHtml) {
  const std::string text =
      "# Heading\n\nText with *emphasis*, **strong**, `code_x {{not}}`, $a_b$ and $$x^2$$,\n"
      "costs $5 and $6, \"quotes\" -- dashes, 4.5--6\xC3\x97 and "
      "{{speedup[implementation=openmp]}} "
      "ms.\n\n- one\n- two\n\n3. three\n\n> quoted\n\n```\n{{in code}} $x$\n```\n\n"
      "<!-- a comment -->\n<div>raw</div>\n\n[web](https://example.org) [bad](javascript:x)\n";
  const MarkdownDocument doc = parse_markdown(text, "t.md");
  ASSERT_EQ(doc.values.size(), 1u);
  EXPECT_EQ(doc.values[0].field, "speedup");
  EXPECT_EQ(doc.values[0].line, 4);
  ResolvedValue value{doc.values[0], "3.60", nullptr, std::nullopt};
  const std::string latex = markdown_latex(doc, {"3.60"});
  for (const char* expected :
       {"\\subsubsection*{Heading}", "\\emph{emphasis}", "\\textbf{strong}",
        "\\texttt{code\\_x \\{\\{not\\}\\}}", "$a_b$", "\\[x^2\\]", "costs \\$5 and \\$6",
        "``quotes'' -- dashes, 4.5--6$\\times$", "3.60~ms", "\\begin{itemize}", "\\item one",
        "\\begin{enumerate}", "\\setcounter{enumi}{2}", "\\begin{quote}",
        "\\{\\{in\\ code\\}\\}\\ \\$x\\$", "\\textless{}div\\textgreater{}raw",
        "web (\\texttt{https://example.org})"})
    EXPECT_NE(latex.find(expected), std::string::npos) << expected << "\n" << latex;
  EXPECT_EQ(latex.find("a comment"), std::string::npos);
  const std::string html = markdown_html(doc, {value});
  for (const char* expected :
       {"<h3>Heading</h3>", "<em>emphasis</em>", "<strong>strong</strong>",
        "<code>code_x {{not}}</code>", "<span class=\"math\">a_b</span>",
        "<span class=\"math display\">x^2</span>", "costs $5 and $6",
        "\xE2\x80\x9Cquotes\xE2\x80\x9D \xE2\x80\x93 dashes", ">3.60</span>&#160;ms", "<ul>",
        "<ol start=\"3\">", "<blockquote>", "<pre><code>{{in code}} $x$\n</code></pre>",
        "&lt;div&gt;raw&lt;/div&gt;", "<a href=\"https://example.org\">web</a>"})
    EXPECT_NE(html.find(expected), std::string::npos) << expected << "\n" << html;
  EXPECT_EQ(html.find("javascript"), std::string::npos);
  EXPECT_EQ(html.find("a comment"), std::string::npos);
  EXPECT_EQ(html.find("<div>"), std::string::npos);
}

TEST(Markdown, AValueMatchingSeveralPointsStopsWithFileLineAndQuery) {
  Scratch scratch("values");
  const fs::path discussion = scratch.path() / "x.md";
  write_file(discussion,
             "Fine line.\n\nOpenMP takes {{median_ms[implementation=openmp,"
             "kernel.size=7]}} ms.\n");
  const ResultsDocument results =
      load_results_document((fixtures() / "fixture-demo" / "results.json").string());
  try {
    build_notebook(results, NotebookSources{nullptr, discussion.string(), std::nullopt});
    FAIL() << "expected an error";
  } catch (const ResultsError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(discussion.generic_string() +
                           ":3: {{median_ms[implementation=openmp,kernel.size=7]}}: the filter "
                           "matches 6 ok points, it must match one"),
              std::string::npos)
        << message;
  }
}

TEST(NotebookModel, CellsInReadingOrderAndTheGalleryCaptionHasNoLatex) {
  const ResultsDocument results =
      load_results_document((fixtures() / "fixture-demo" / "results.json").string());
  const ExperimentNotebook notebook = fixture_notebook(results);
  std::vector<size_t> kinds;
  for (const auto& cell : notebook.cells) kinds.push_back(cell.index());
  // description, config, run, 5 figures, 2 tables, gallery, verification, discussion (variant
  // indices; no kernel source: the fixture runs convlab's own implementations only)
  const std::vector<size_t> expected = {0, 1, 3, 4, 4, 4, 4, 4, 5, 5, 6, 7, 0};
  EXPECT_EQ(kinds, expected);
  const GalleryCell* gallery = notebook.first<GalleryCell>();
  ASSERT_NE(gallery, nullptr);
  ASSERT_FALSE(gallery->groups.empty());
  const std::string caption = plain_text(gallery->groups[0].caption);
  EXPECT_EQ(caption.find('\\'), std::string::npos) << caption;
  EXPECT_EQ(caption.find('$'), std::string::npos) << caption;
  EXPECT_NE(caption.find("noise-512x512-c1-s1: the input and every filter"), std::string::npos);
  // The same caption as LaTeX spells the name as the report always did.
  const std::string latex = rich_text_latex(gallery->groups[0].caption, latex_text);
  EXPECT_NE(latex.find("noise-512$\\times$512-c1-s1"), std::string::npos) << latex;
}

}  // namespace
}  // namespace convlab

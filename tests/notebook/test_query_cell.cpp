// Query cells (notebook/query_cell.hpp): a value or a comparison asked of an experiment's results,
// as the served page's query cells ask it and as a discussion places it ({{query: --compare
// params.threads}}): the value is the discussion's own, the tables are show's, both renderings
// hold them where the discussion places them, and every mistake names the file, the line and why.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "core/message_text.hpp"
#include "html/experiment_page.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook/query_cell.hpp"
#include "notebook_test_support.hpp"
#include "query/record_queries.hpp"
#include "report/latex_writer.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

ResultsDocument fixture_results() {
  return load_results_document((fixtures() / "fixture-demo" / "results.json").string());
}

QueryCell ask(const std::string& query) {
  static const ResultsDocument results = fixture_results();
  const ValueContext context{latest_ok_points(results), latest_points(results), {}};
  return query_cell(query, results, context, "query", 1);
}

std::string refusal(const std::string& query) {
  try {
    ask(query);
  } catch (const ResultsError& error) {
    return error.what();
  }
  return "no error";
}

TEST(QueryCell, AnExpressionIsTheDiscussionsValue) {
  const QueryCell cell =
      ask("median_ms[implementation=openmp,params.threads=1,image.width=1024,kernel.size=7] / "
          "median_ms[implementation=openmp,params.threads=4,image.width=1024,kernel.size=7] | .2f");
  EXPECT_FALSE(cell.is_table());
  ASSERT_TRUE(cell.number.has_value());
  EXPECT_GT(*cell.number, 1.0);
  EXPECT_TRUE(std::regex_match(cell.value, std::regex("[0-9]+\\.[0-9]{2}"))) << cell.value;
  EXPECT_EQ(discussion_text_of(cell),
            "{{ median_ms[implementation=openmp,params.threads=1,image.width=1024,kernel.size=7] "
            "/ median_ms[implementation=openmp,params.threads=4,image.width=1024,kernel.size=7] "
            "| .2f }}");
  EXPECT_EQ(ask("count(median_ms[])").value,
            std::to_string(latest_ok_points(fixture_results()).size()));
}

TEST(QueryCell, ComparisonsAreShowsTables) {
  const QueryCell compare = ask("--compare params.threads --filter implementation=openmp");
  ASSERT_TRUE(compare.is_table());
  EXPECT_NE(std::find(compare.table.columns.begin(), compare.table.columns.end(), "params.threads"),
            compare.table.columns.end());
  EXPECT_FALSE(compare.table.rows.empty());
  EXPECT_EQ(discussion_text_of(compare),
            "{{query: --compare params.threads --filter implementation=openmp}}");
  const QueryCell best = ask("--best --by kernel.size");
  ASSERT_TRUE(best.is_table());
  // One row per group and kernel size: both sizes of the fixture are there.
  const auto column =
      std::find(best.table.columns.begin(), best.table.columns.end(), "kernel.size");
  ASSERT_NE(column, best.table.columns.end()) << testing::PrintToString(best.table.columns);
  std::set<std::string> sizes;
  for (const auto& row : best.table.rows)
    sizes.insert(row[static_cast<size_t>(column - best.table.columns.begin())]);
  EXPECT_EQ(sizes, (std::set<std::string>{"3", "7"}));
  // The fastest of each row is marked, not written in Markdown's asterisks.
  size_t strong = 0;
  for (size_t r = 0; r < best.table.rows.size(); ++r)
    for (size_t c = 0; c < best.table.rows[r].size(); ++c) {
      EXPECT_EQ(best.table.rows[r][c].find("**"), std::string::npos) << best.table.rows[r][c];
      strong += is_strong(best, r, c) ? 1 : 0;
    }
  EXPECT_EQ(strong, best.table.rows.size());
  EXPECT_TRUE(ask("--best").is_table());
  // Every implementation against openmp, as `show --vs openmp` writes it: the named one's rows
  // first, then each other one's with its ratio and verdict.
  const QueryCell versus = ask("--vs openmp --by kernel.size");
  ASSERT_TRUE(versus.is_table());
  EXPECT_EQ(versus.title, "every implementation against openmp by kernel.size");
  EXPECT_EQ(discussion_text_of(versus), "{{query: --vs openmp --by kernel.size}}");
  const auto implementation =
      std::find(versus.table.columns.begin(), versus.table.columns.end(), "implementation");
  ASSERT_NE(implementation, versus.table.columns.end())
      << testing::PrintToString(versus.table.columns);
  std::set<std::string> named;
  for (const auto& row : versus.table.rows)
    named.insert(row[static_cast<size_t>(implementation - versus.table.columns.begin())]);
  EXPECT_TRUE(named.count("openmp")) << testing::PrintToString(named);
  EXPECT_TRUE(named.count("sequential")) << testing::PrintToString(named);
  // What show writes around its table comes along: the legend of the ratio, below 1 faster.
  bool legend = false;
  for (const std::string& note : versus.notes) {
    EXPECT_NE(note.front(), '|') << note;
    legend = legend || note.find("below 1 is faster") != std::string::npos;
  }
  EXPECT_TRUE(legend) << testing::PrintToString(versus.notes);
}

TEST(QueryCell, MistakesNameTheQueryAndWhy) {
  EXPECT_EQ(refusal("  "), "query:1: {{query: }}: the query is empty");
  EXPECT_EQ(refusal("--compre params.threads"),
            "query:1: {{query: --compre params.threads}}: unknown option '--compre' (did you mean "
            "'--compare'?); a query is an expression, --compare params.X, --best [--by FIELD] or "
            "--vs IMPL [--by FIELD]");
  EXPECT_EQ(refusal("--compare kernel.size"),
            "query:1: {{query: --compare kernel.size}}: --compare takes a params field, such as "
            "params.threads");
  EXPECT_EQ(refusal("--by kernel.size"),
            "query:1: {{query: --by kernel.size}}: a comparison is one of --compare params.X, "
            "--best [--by FIELD] and --vs IMPL [--by FIELD]");
  EXPECT_EQ(refusal("--vs openmp --best"),
            "query:1: {{query: --vs openmp --best}}: a comparison is one of --compare params.X, "
            "--best [--by FIELD] and --vs IMPL [--by FIELD]");
  EXPECT_NE(refusal("--vs opnemp").find("openmp"), std::string::npos) << refusal("--vs opnemp");
  // A long query is quoted a line's worth, not whole.
  const std::string long_filter = "--best --filter " + std::string(3000, 'x');
  EXPECT_LE(refusal(long_filter).size(), 4 * kQuotedValueBytes + 3) << refusal(long_filter);
  EXPECT_NE(refusal(long_filter).find("' is not field=value"), std::string::npos)
      << refusal(long_filter);
  EXPECT_NE(refusal("median_sm[implementation=openmp]").find("did you mean 'median_ms'"),
            std::string::npos);
  EXPECT_NE(refusal("median_ms[implementation=openmp]")
                .find("the filter matches 12 ok points, it must match one"),
            std::string::npos)
      << refusal("median_ms[implementation=openmp]");
  EXPECT_EQ(refusal("1 }} {{ 2"), "query:1: {{query: 1 }} {{ 2}}: a query holds no {{ or }}");
  EXPECT_EQ(refusal(std::string(5000, '1')), "query:1: a query has at most 4096 bytes");
}

TEST(QueryCell, ADiscussionPlacesAComparisonInBothRenderings) {
  Scratch scratch("query-cell");
  const fs::path md = scratch.path() / "fixture-demo.md";
  write_file(md,
             "The threads against each other:\n\n"
             "{{query: --compare params.threads --filter implementation=openmp}}\n\n"
             "That is all.\n");
  const ResultsDocument results = fixture_results();
  const std::string config = (fixtures() / "configs" / "fixture-demo.yaml").string();
  const ExperimentNotebook notebook = build_notebook(
      results, NotebookSources{notebook_config(config, results), md.string(), std::nullopt});
  ASSERT_EQ(notebook.cells_of<QueryCell>().size(), 1u);
  PageContext context;
  context.generator = "convlab test";
  const std::string html = experiment_page(notebook, context).html;
  const size_t before = html.find("The threads against each other");
  const size_t table = html.find("id=\"cell-query-1\"");
  const size_t after = html.find("That is all.");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(before, table);
  EXPECT_LT(table, after);
  EXPECT_NE(html.find("<th scope=\"col\" aria-sort=\"none\"><button type=\"button\" "
                      "class=\"sort\">params.threads</button></th>",
                      table),
            std::string::npos);
  std::string section;
  for (const RenderedFile& file : experiment_latex(notebook, {"export", "figures"}))
    if (file.path == "section.tex") section = file.content;
  const size_t latex_table = section.find("\\captionof{table}{the values of params.threads");
  ASSERT_NE(latex_table, std::string::npos) << section;
  EXPECT_LT(section.find("The threads against each other"), latex_table);
  EXPECT_LT(latex_table, section.find("That is all."));
  EXPECT_NE(section.find("\\midrule", latex_table), std::string::npos)
      << section.substr(latex_table, 1500);

  // A query that cannot be answered stops the build at its line, as a value does.
  write_file(md, "One.\n\n{{query: --compare params.thread}}\n");
  try {
    build_notebook(results,
                   NotebookSources{notebook_config(config, results), md.string(), std::nullopt});
    ADD_FAILURE() << "no error";
  } catch (const ResultsError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("fixture-demo.md:3: {{query: --compare "
                        "params.thread}}"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace convlab

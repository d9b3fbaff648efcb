// Computed values of a discussion and derived columns of a config (notebook/value_references.hpp,
// notebook/value_format.hpp, query/record_expressions.hpp, query/derived_columns.hpp) over the
// fixture results: precedence, formats, units, how status counts, and every error with its file,
// line and value.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "config/config_error.hpp"
#include "figures/declarations.hpp"
#include "figures/figure_data.hpp"
#include "measure/mann_whitney.hpp"
#include "notebook/value_format.hpp"
#include "notebook/value_references.hpp"
#include "query/derived_columns.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

using report_test::fixture_results;

// The OpenMP point of `threads` threads on the 512x512 image with the 3x3 Gaussian.
std::string openmp(int threads) {
  return "median_ms[implementation=openmp,params.threads=" + std::to_string(threads) +
         ",image.width=512,kernel.size=3]";
}

const Record& record_of(const ResultsDocument& results, const std::string& implementation,
                        const std::string& params, int width, int size) {
  for (const Record& record : results.file.records)
    if (record.implementation == implementation && record.params.dump() == params &&
        record.image.width == width && record.kernel.size == size)
      return record;
  throw std::runtime_error("no such fixture record");
}

class ComputedValues : public ::testing::Test {
 protected:
  void SetUp() override {
    results_ = load_results_document(fixture_results().string());
    context_ = ValueContext{latest_ok_points(results_), latest_points(results_), {}};
  }

  std::string value(const std::string& markdown) {
    const auto references = find_value_references(markdown, ProseSyntax::markdown, "x.md");
    if (references.size() != 1) throw std::runtime_error("expected one value in " + markdown);
    return resolve_value(references[0], context_, "x.md").text;
  }

  std::string error(const std::string& markdown) {
    try {
      value(markdown);
    } catch (const ResultsError& error) {
      return error.what();
    }
    return "no error";
  }

  double median(const std::string& implementation, const std::string& params) {
    return record_of(results_, implementation, params, 512, 3).median_ms();
  }

  ResultsDocument results_;
  ValueContext context_;
};

TEST_F(ComputedValues, ALoneQueryReadsAsItAlwaysDid) {
  EXPECT_EQ(value("{{median_ms[implementation=sequential,image.width=512,kernel.size=3]}}"),
            "2.60");
  EXPECT_EQ(value("{{kernel.name[implementation=sequential,image.width=512,kernel.size=3]}}"),
            "gaussian3");
}

TEST_F(ComputedValues, ArithmeticFollowsPrecedence) {
  const double one = median("openmp", R"({"schedule":"static","threads":1})");
  const double two = median("openmp", R"({"schedule":"static","threads":2})");
  EXPECT_EQ(value("{{ " + openmp(1) + " / (2 * " + openmp(2) + ") | .4f }}"),
            format_fixed(one / (2 * two), 4));
  // Left to right at one level: a / 2 * b is (a / 2) * b.
  EXPECT_EQ(value("{{ " + openmp(1) + " / 2 * " + openmp(2) + " | .4f }}"),
            format_fixed(one / 2 * two, 4));
  EXPECT_EQ(value("{{ " + openmp(1) + " - " + openmp(2) + " * 2 | .4f }}"),
            format_fixed(one - two * 2, 4));
  EXPECT_EQ(value("{{ 2 ^ 3 ^ 2 }}"), "512");
  EXPECT_EQ(value("{{ -2 ^ 2 }}"), "-4");
}

TEST_F(ComputedValues, FormatsWriteDigitsPercentagesAndRatios) {
  const double ratio = median("openmp", R"({"schedule":"static","threads":1})") /
                       median("openmp", R"({"schedule":"static","threads":4})");
  const std::string q = openmp(1) + " / " + openmp(4);
  EXPECT_EQ(value("{{ " + q + " }}"), format_number(ratio, 3));
  EXPECT_EQ(value("{{ " + q + " | .5g }}"), format_number(ratio, 5));
  EXPECT_EQ(value("{{ " + q + " | .1f }}"), format_fixed(ratio, 1));
  EXPECT_EQ(value("{{ " + q + " | x }}"), format_number(ratio, 3) + "x");
  EXPECT_EQ(value("{{ " + q + " | .2x }}"), format_fixed(ratio, 2) + "x");
  EXPECT_EQ(value("{{ 1 / (" + q + ") | % }}"), format_number(100 / ratio, 3) + " %");
  EXPECT_EQ(value("{{ 1 / (" + q + ") | .1% }}"), format_fixed(100 / ratio, 1) + " %");
  EXPECT_EQ(value("{{ " + q + " | d }}"), format_fixed(std::round(ratio), 0));
}

TEST_F(ComputedValues, AggregatesTakeEveryPointTheFilterSelects) {
  double product = 1, count = 0;
  for (const Record* point : context_.points)
    if (point->implementation == "cuda_shared") {
      product *= *point->derived.speedup;
      ++count;
    }
  EXPECT_EQ(value("{{ geomean(speedup[implementation=cuda_shared]) | .4g }}"),
            format_number(std::pow(product, 1 / count), 4));
  // A count is a whole number without a format: 12, not 12.0.
  EXPECT_EQ(value("{{ count(median_ms[implementation=openmp]) }}"), "12");
  EXPECT_EQ(value("{{ count(median_ms[implementation=nothing]) }}"), "0");
  EXPECT_EQ(value("{{ max(median_ms[implementation=openmp,image.width=512,kernel.size=3]) / "
                  "min(median_ms[implementation=openmp,image.width=512,kernel.size=3]) | .3g }}"),
            format_number(median("openmp", R"({"schedule":"static","threads":1})") /
                              median("openmp", R"({"schedule":"static","threads":4})"),
                          3));
}

TEST_F(ComputedValues, PvalueIsTheMannWhitneyTestOfTwoPointsSamples) {
  const auto samples = [&](const std::string& params) {
    return record_of(results_, "openmp", params, 512, 3).timing->compute.samples_ms;
  };
  const double p = mann_whitney_u(samples(R"({"schedule":"static","threads":1})"),
                                  samples(R"({"schedule":"static","threads":2})"))
                       .p_value;
  EXPECT_EQ(value("{{ pvalue(" + openmp(1) + ", " + openmp(2) + ") | .4g }}"), format_number(p, 4));
  // A plain number: compared, and written as a percentage.
  EXPECT_EQ(value("{{ pvalue(" + openmp(1) + ", " + openmp(2) + ") < 0.05 }}"),
            p < 0.05 ? "1" : "0");
  EXPECT_NE(error("{{ pvalue(" + openmp(1) + ", 2) }}")
                .find("pvalue() takes two queries of median_ms, median_ms[filter] each"),
            std::string::npos);
  EXPECT_NE(error("{{ pvalue(gb_per_s[implementation=sequential], " + openmp(2) + ") }}")
                .find("pvalue() takes two queries of median_ms"),
            std::string::npos);
  EXPECT_NE(error("{{ pvalue(median_ms[implementation=openmp], " + openmp(2) + ") }}")
                .find("median_ms[implementation=openmp]: 12 points match where one is needed"),
            std::string::npos)
      << error("{{ pvalue(median_ms[implementation=openmp], " + openmp(2) + ") }}");
  EXPECT_NE(error("{{ pvalue(median_ms[implementation=nothing], " + openmp(2) + ") }}")
                .find("median_ms[implementation=nothing]: no point matches"),
            std::string::npos);
}

TEST_F(ComputedValues, AFilterNamingStatusSeesEveryStatus) {
  // The fixture has 32 ok points and 4 skipped ones (CUDA without a device).
  EXPECT_EQ(value("{{ count(status[]) }}"), "32");
  EXPECT_EQ(value("{{ count(status[status=skipped]) | d }}"), "4");
  EXPECT_EQ(value("{{ count(status[status=ok|skipped]) }}"), "36");
  EXPECT_EQ(value("{{ count(median_ms[status=skipped]) }}"), "0");  // no time
}

TEST_F(ComputedValues, UnitsMustAgree) {
  const std::string a = openmp(1);
  EXPECT_NE(
      error("{{ " + a + " + gb_per_s[implementation=sequential,image.width=512,kernel.size=3] }}")
          .find("adds GB/s to ms"),
      std::string::npos);
  EXPECT_NE(
      error("{{ " + a + " | x }}").find("'| x' writes a ratio or a share, and the value is in ms"),
      std::string::npos);
  EXPECT_NE(error("{{ " + a + " | % }}").find("the value is in ms"), std::string::npos);
  EXPECT_NE(error("{{ log(" + a + ") }}").find("log() of a value in ms"), std::string::npos);
  EXPECT_NE(error("{{ " + a +
                  " < speedup[implementation=openmp,params.threads=4,image.width=512,"
                  "kernel.size=3] }}")
                .find("compares ms with a plain number"),
            std::string::npos);
  // A number written in the expression takes the unit it is added to; a ratio is plain.
  EXPECT_EQ(error("{{ " + a + " - 0.5 | .2f }}"), "no error");
  EXPECT_EQ(error("{{ log(" + a + " / " + openmp(2) + ") | .2f }}"), "no error");
  EXPECT_EQ(error("{{ sqrt(" + a + " * " + a + ") | .3g }}"), "no error");
}

TEST_F(ComputedValues, ErrorsNameFileLineValueAndWhy) {
  EXPECT_NE(error("a\n\n{{ median_ms[implementation=nothing] * 2 }}")
                .find("x.md:3: {{median_ms[implementation=nothing] * 2}}: "
                      "median_ms[implementation=nothing]: no point matches"),
            std::string::npos);
  const std::string several = error("{{ median_ms[implementation=openmp,kernel.size=3] * 2 }}");
  EXPECT_NE(several.find("6 points match where one is needed"), std::string::npos) << several;
  EXPECT_NE(several.find("\n  OpenMP, 1 thread, static schedule | noise-512x512"),
            std::string::npos)
      << several;
  EXPECT_NE(error("{{ " + openmp(1) + " / (" + openmp(2) + " - " + openmp(2) + ") }}")
                .find(": division by zero"),
            std::string::npos);
  EXPECT_NE(error("{{ median_sm[implementation=sequential] * 2 }}")
                .find("unknown field 'median_sm'; did you mean 'median_ms'?"),
            std::string::npos);
  EXPECT_NE(error("{{ geomaen(median_ms[implementation=sequential]) }}")
                .find("unknown function 'geomaen'; did you mean 'geomean'?"),
            std::string::npos);
  EXPECT_NE(error("{{ median_ms[kernel.sise=3] * 1 }}")
                .find("median_ms[kernel.sise=3]: unknown field 'kernel.sise'; did you mean "
                      "'kernel.size'?"),
            std::string::npos);
  EXPECT_NE(
      error("{{ mean(kernel.name[implementation=sequential]) }}").find("'kernel.name' is text"),
      std::string::npos);
  EXPECT_NE(error("{{ derive.eff[implementation=sequential] * 1 }}")
                .find("unknown field 'derive.eff': the config derives no column"),
            std::string::npos);
}

TEST(DiscussionValues, ExpressionsAreCheckedWhereTheyAreFound) {
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"{{ median_ms * 2 }}",
            "x.md:1: {{median_ms * 2}}: 'median_ms' alone names no point: write a query"},
           {"{{ median_ms[a=1] | .2z }}", "'| .2z' is not a format"},
           {"{{ median_ms[a=1] / (2 * median_ms[a=2] }}", "expected ')'"},
           {"{{ | .2f }}", "no expression"},
       }) {
    try {
      find_value_references(text, ProseSyntax::markdown, "x.md");
      ADD_FAILURE() << "expected an error for " << text;
    } catch (const ResultsError& error) {
      EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
    }
  }
  // A bar inside a filter's brackets is an alternative, not a format; || is logic.
  const auto references = find_value_references(
      "{{ count(median_ms[implementation=openmp|sequential]) | d }} {{ 1 || 0 }}",
      ProseSyntax::markdown, "x.md");
  ASSERT_EQ(references.size(), 2u);
  EXPECT_EQ(references[0].expression, "count(median_ms[implementation=openmp|sequential])");
  EXPECT_EQ(references[0].format, "d");
  EXPECT_EQ(references[1].expression, "1 || 0");
  EXPECT_EQ(references[1].format, "");
}

TEST(ValueFormat, EveryFormatAndNone) {
  const auto format = [](const std::string& text, double value) {
    std::string error;
    const auto parsed = parse_value_format(text, &error);
    return parsed ? format_value(value, *parsed) : "error: " + error;
  };
  EXPECT_EQ(format("", 0.87312), "0.873");
  EXPECT_EQ(format("", 269), "269");
  EXPECT_EQ(format(".3g", 269), "269");
  EXPECT_EQ(format(".4g", 0.87312), "0.8731");
  EXPECT_EQ(format(".2f", 0.87312), "0.87");
  EXPECT_EQ(format(".0f", 2.6), "3");
  EXPECT_EQ(format("d", 268.7), "269");
  EXPECT_EQ(format("%", 0.87312), "87.3 %");
  EXPECT_EQ(format(".1%", 0.87312), "87.3 %");
  EXPECT_EQ(format("x", 2.3141), "2.31x");
  EXPECT_EQ(format(".1x", 2.3141), "2.3x");
  for (const char* bad : {"f", ".g", ".0g", ".2", "2f", ".123f", "xx", "%%"})
    EXPECT_NE(format(bad, 1).find("is not a format"), std::string::npos) << bad;
}

// derive: parsed from YAML as a config writes it.
std::vector<DerivedColumn> derive(const std::string& yaml) {
  return parse_report_declarations(YAML::Load(yaml), YamlLocation{"c.yaml", ""}).derive;
}

TEST(DerivedColumns, ARecordReadsItsOwnValuesAndQueriesItsProblem) {
  ResultsDocument results = load_results_document(fixture_results().string());
  compute_derived_columns(
      results, derive("derive:\n"
                      "  eff: 'median_ms[params.threads=1] / (params.threads * median_ms)'\n"
                      "  of_best: 'median_ms / min(median_ms[])'\n"
                      "  vs_sequential: 'median_ms[implementation=sequential] / median_ms'\n"
                      "  eff_pct: 'derive.eff * 100'\n"
                      "  one_thread: 'median_ms[params.threads=1]'\n"));
  const Record& two = record_of(results, "openmp", R"({"schedule":"static","threads":2})", 1024, 7);
  const Record& one = record_of(results, "openmp", R"({"schedule":"static","threads":1})", 1024, 7);
  const Record& sequential = record_of(results, "sequential", "{}", 1024, 7);
  ASSERT_TRUE(two.computed_value("eff"));
  EXPECT_DOUBLE_EQ(*two.computed_value("eff"), one.median_ms() / (2 * two.median_ms()));
  EXPECT_DOUBLE_EQ(*two.computed_value("eff_pct"), 100 * *two.computed_value("eff"));
  EXPECT_DOUBLE_EQ(*two.computed_value("vs_sequential"), sequential.median_ms() / two.median_ms());
  // The sequential point has no threads: no efficiency, and no error.
  EXPECT_FALSE(sequential.computed_value("eff"));
  // Nor a one-thread time: the filter names no implementation, and the sequential loops have no
  // one-thread point of their own (OpenMP's is not theirs).
  EXPECT_FALSE(sequential.computed_value("one_thread"));
  EXPECT_DOUBLE_EQ(*two.computed_value("one_thread"), one.median_ms());
  EXPECT_DOUBLE_EQ(*sequential.computed_value("vs_sequential"), 1.0);
  // Per problem: the fastest point of each problem is 1, none is below.
  double fastest = 1e300;
  for (const Record* point : latest_ok_points(results))
    if (point->image.width == 1024 && point->kernel.size == 7)
      fastest = std::min(fastest, *point->computed_value("of_best"));
  EXPECT_DOUBLE_EQ(fastest, 1.0);
  // The field of figures, tables and filters.
  const auto field = field_value(two, "derive.eff");
  ASSERT_TRUE(field);
  EXPECT_DOUBLE_EQ(field->number, *two.computed_value("eff"));
  FigureDeclaration figure;
  figure.name = "eff";
  figure.title = "Efficiency";
  figure.x = "params.threads";
  figure.y = {"derive.eff"};
  figure.series = {"image.size"};
  figure.panel = {"kernel.name"};
  figure.where = "implementation=openmp";
  const FigureData data = extract_figure(figure, latest_ok_points(results), "test");
  EXPECT_EQ(data.panels.size(), 2u);
}

TEST(DerivedColumns, AQueryOfSeveralPointsWhereOneIsNeededStopsNamingTheRecord) {
  ResultsDocument results = load_results_document(fixture_results().string());
  try {
    compute_derived_columns(
        results, derive("derive: {shared: 'median_ms[implementation=cuda_shared] / median_ms'}"));
    FAIL() << "expected an error";
  } catch (const ResultsError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("derive.shared: for the point "), std::string::npos) << message;
    EXPECT_NE(message.find("3 points match where one is needed"), std::string::npos) << message;
    EXPECT_NE(message.find("(they differ in params)"), std::string::npos) << message;
  }
}

TEST(DerivedColumns, ValidateChecksEachExpressionAtItsKey) {
  const auto message = [](const std::string& yaml) -> std::string {
    try {
      parse_report_declarations(YAML::Load(yaml), YamlLocation{"c.yaml", ""});
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "no error";
  };
  EXPECT_NE(message("derive:\n  eff: 'median_sm / 2'\n")
                .find("c.yaml:2:8: derive.eff: unknown field 'median_sm'; did you mean "
                      "'median_ms'?"),
            std::string::npos)
      << message("derive:\n  eff: 'median_sm / 2'\n");
  EXPECT_NE(message("derive: {e: 'median_ms / (2'}").find("derive.e: expected ')'"),
            std::string::npos);
  EXPECT_NE(message("derive: {e: 'median_ms + gb_per_s'}").find("derive.e: adds GB/s to ms"),
            std::string::npos);
  EXPECT_NE(message("derive: {e: 'geomaen(median_ms[])'}").find("did you mean 'geomean'?"),
            std::string::npos);
  EXPECT_NE(message("derive: {2x: 'median_ms'}").find("derive.2x: a derived column's name"),
            std::string::npos);
  // A column reads the ones declared before it, not after.
  EXPECT_NE(message("derive: {a: 'derive.b * 2', b: 'median_ms'}")
                .find("derive.a: unknown field 'derive.b': the config derives no column"),
            std::string::npos);
  EXPECT_EQ(message("derive: {b: 'median_ms', a: 'derive.b * 2'}"), "no error");
  // A figure or table naming a column the config does not derive.
  EXPECT_NE(message("derive: {eff: 'median_ms'}\nfigures:\n  - {x: image.size, y: derive.ef}\n")
                .find("figures[0].y: unknown field 'derive.ef' (did you mean 'derive.eff'?)"),
            std::string::npos)
      << message("derive: {eff: 'median_ms'}\nfigures:\n  - {x: image.size, y: derive.ef}\n");
  EXPECT_NE(message("tables:\n  - {rows: image.size, columns: kernel.name, value: derive.x}\n")
                .find("tables[0].value: unknown field 'derive.x': the config derives no column"),
            std::string::npos);
}

// show and export --format print each derived column the config on disk declares, as derive.NAME.
TEST(DerivedColumns, ShowAndExportPrintThem) {
  using report_test::read_file;
  using report_test::ScratchDirectory;
  using report_test::write_file;
  namespace fs = std::filesystem;
  ScratchDirectory root("derived-columns-cli");
  fs::create_directories(root.path() / "outputs");
  fs::copy(report_test::fixtures() / "fixture-demo", root.path() / "outputs" / "fixture-demo",
           fs::copy_options::recursive);
  const std::string config = read_file(report_test::fixtures() / "configs" / "fixture-demo.yaml");
  write_file(root.path() / "configs" / "fixture-demo.yaml",
             config + "derive:\n  of_best: \"median_ms / min(median_ms[])\"\n");
  const auto run = [&](const std::string& arguments) {
    const std::string command = "cd '" + root.path().string() + "' && '" CONVLAB_EXECUTABLE "' " +
                                arguments + " > out.txt 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << read_file(root.path() / "out.txt");
    return read_file(root.path() / "out.txt");
  };
  const std::string shown = run("show outputs/fixture-demo");
  EXPECT_NE(shown.find("| derive.of_best |"), std::string::npos) << shown;
  EXPECT_NE(shown.find("| 1.000 |"), std::string::npos) << "the fastest point of a problem is 1";
  const std::string csv = run("export outputs/fixture-demo --format csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find("derive.of_best"), std::string::npos) << header;
}

}  // namespace
}  // namespace convlab

namespace convlab {
namespace {

// Every value a computed value gives is a finite number: log(0), sqrt(-1) and an overflow are
// refused as 1/0 is, naming the file, the line and what gave it, never printed as -inf or NaN.
TEST_F(ComputedValues, NonFiniteResultsAreRefusedLikeADivisionByZero) {
  const std::string q = "median_ms[implementation=sequential,image.width=512,kernel.size=3]";
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"{{ log(0) }}", "log() gives -infinity, not a finite value"},
           {"{{ log(0) | x }}", "log() gives -infinity, not a finite value"},
           {"{{ sqrt(-1) }}", "sqrt() gives no number (NaN), not a finite value"},
           {"{{ 1e308 * 10 }}", "'*' gives infinity, not a finite value"},
           {"{{ exp(1000) | .2f }}", "exp() gives infinity, not a finite value"},
           {"{{ 2 ^ 5000 }}", "'^' gives infinity, not a finite value"},
           {"{{ " + q + " / 0 }}", "division by zero"},
           {"{{ log(" + q + " / " + q + " - 1) }}", "log() gives -infinity"},
       }) {
    const std::string message = error(text);
    EXPECT_EQ(message.rfind("x.md:1: {{", 0), 0u) << message;
    EXPECT_NE(message.find(why), std::string::npos) << text << "\n" << message;
    EXPECT_EQ(message.find("inf}}"), std::string::npos) << message;
  }
  // Finite values still read as they did.
  EXPECT_EQ(value("{{ log(1) }}"), "0");
  EXPECT_EQ(value("{{ sqrt(4) | .1f }}"), "2.0");
}

// A message quotes a line's worth of what it refuses, with where, however long the input: a 10 MB
// expression gives a message of a few hundred bytes.
TEST(DiscussionValues, ErrorsQuoteALinesWorthOfALongInput) {
  const std::string long_sum = [] {
    std::string text = "1";
    while (text.size() < (size_t(10) << 20)) text += " + 1";
    return text;
  }();
  const auto short_enough = [](const std::string& message) {
    EXPECT_LT(message.size(), 600u) << message.substr(0, 600);
  };
  // Too long to be an expression: said with a line's worth of it.
  try {
    find_value_references("{{ " + long_sum + " + ) }}", ProseSyntax::markdown, "x.md");
    ADD_FAILURE() << "expected an error";
  } catch (const ResultsError& error) {
    const std::string message = error.what();
    short_enough(message);
    EXPECT_EQ(message.rfind("x.md:1: {{1 + 1 + 1", 0), 0u) << message.substr(0, 300);
    EXPECT_NE(message.find("...}}: longer than 4096 characters"), std::string::npos) << message;
  }
  // Within the limit, the place of the error is named with a line of the text from there.
  try {
    find_value_references("{{ " + long_sum.substr(0, 3997) + " + ) }}", ProseSyntax::markdown,
                          "x.md");
    ADD_FAILURE() << "expected an error";
  } catch (const ResultsError& error) {
    short_enough(error.what());
    EXPECT_NE(std::string(error.what()).find("unexpected ')' (at byte 4001 of 4001, ')')"),
              std::string::npos)
        << error.what();
  }
  // A name 1 MB long, and a format as long.
  for (const std::string& text :
       {"{{ " + std::string(1 << 20, 'a') + " }}", "{{ 1 | " + std::string(1 << 20, 'f') + " }}"}) {
    try {
      find_value_references(text, ProseSyntax::markdown, "x.md");
      ADD_FAILURE() << "expected an error";
    } catch (const ResultsError& error) {
      short_enough(error.what());
    }
  }
  // A lone query whose filter is 1 MB long and matches no point.
  const ResultsDocument results = load_results_document(fixture_results().string());
  const ValueContext context{latest_ok_points(results), latest_points(results), {}};
  const auto references = find_value_references(
      "{{median_ms[image.name=" + std::string(1 << 20, 'x') + "]}}", ProseSyntax::markdown, "x.md");
  ASSERT_EQ(references.size(), 1u);
  try {
    resolve_value(references[0], context, "x.md");
    ADD_FAILURE() << "expected an error";
  } catch (const ResultsError& error) {
    short_enough(error.what());
  }
}

}  // namespace
}  // namespace convlab

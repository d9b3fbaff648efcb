// The expression language of search restrictions and computed values (core/expression.hpp):
// precedence, truth values, functions over queries, and every error with its position.
#include "core/expression.hpp"

#include <gtest/gtest.h>

#include <map>

namespace convlab {
namespace {

double eval(const std::string& text, const std::map<std::string, double>& names = {}) {
  ExpressionScope scope;
  scope.name = [&](const std::string& name) -> std::optional<double> {
    auto found = names.find(name);
    if (found == names.end()) return std::nullopt;
    return found->second;
  };
  scope.query = [](const std::string& field, const std::string& filter) {
    if (field == "median_ms" && filter == "threads=1") return std::vector<double>{8.0};
    if (field == "median_ms" && filter == "threads=2") return std::vector<double>{5.0};
    if (field == "median_ms" && filter == "all") return std::vector<double>{2.0, 8.0, 4.0};
    return std::vector<double>{};
  };
  return evaluate(Expression::parse(text), scope);
}

std::string error_of(const std::string& text, std::size_t* position = nullptr) {
  try {
    eval(text, {{"TILE", 16}, {"BLOCK_X", 32}});
  } catch (const ExpressionError& error) {
    if (position) *position = error.position();
    return error.what();
  }
  return "";
}

TEST(Expression, PrecedenceFollowsArithmetic) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("10 - 4 - 3"), 3);   // left-associative
  EXPECT_EQ(eval("2 ^ 3 ^ 2"), 512);  // right-associative
  EXPECT_EQ(eval("-2 ^ 2"), -4);
  EXPECT_EQ(eval("17 % 5"), 2);
  EXPECT_DOUBLE_EQ(eval("7.5 % 2"), 1.5);
  EXPECT_EQ(eval("1 + 2 < 4 && 3 > 2 || 0"), 1);
  EXPECT_EQ(eval("!(1 < 2)"), 0);
  EXPECT_EQ(eval("1.5e3 / 3"), 500);
}

TEST(Expression, NamesAreTheCallersToAnswer) {
  const std::map<std::string, double> params{{"BLOCK_X", 32}, {"BLOCK_Y", 8}, {"TILE", 64}};
  EXPECT_EQ(eval("BLOCK_X * BLOCK_Y <= 1024", params), 1);
  EXPECT_EQ(eval("TILE % BLOCK_X == 0", params), 1);
  EXPECT_EQ(eval("TILE % BLOCK_Y != 0", params), 0);
  const Expression e = Expression::parse("BLOCK_X * BLOCK_Y <= 1024 && TILE % BLOCK_X == 0");
  EXPECT_EQ(e.names(), (std::vector<std::string>{"BLOCK_X", "BLOCK_Y", "TILE"}));
}

TEST(Expression, QueriesAndAggregates) {
  EXPECT_DOUBLE_EQ(eval("median_ms[threads=1] / (2 * median_ms[threads=2])"), 0.8);
  EXPECT_EQ(eval("min(median_ms[all])"), 2);
  EXPECT_EQ(eval("max(median_ms[all])"), 8);
  EXPECT_EQ(eval("count(median_ms[all])"), 3);
  EXPECT_NEAR(eval("mean(median_ms[all])"), 14.0 / 3, 1e-12);
  EXPECT_NEAR(eval("geomean(median_ms[all])"), 4.0, 1e-12);
  EXPECT_EQ(eval("median(median_ms[all])"), 4);
  EXPECT_EQ(eval("max(1, 5, 3)"), 5);
  const Expression e = Expression::parse("median_ms[threads=1] / geomean(median_ms[all])");
  EXPECT_EQ(e.queries(), (std::vector<std::string>{"median_ms"}));
  EXPECT_EQ(e.functions(), (std::vector<std::string>{"geomean"}));
}

TEST(Expression, ErrorsSayWhatAndWhere) {
  std::size_t at = 0;
  EXPECT_EQ(error_of("TILEX * 2", &at), "unknown name 'TILEX'");
  EXPECT_EQ(at, 0u);
  EXPECT_EQ(error_of("TILE / (BLOCK_X - 32)", &at), "division by zero");
  EXPECT_EQ(at, 5u);
  EXPECT_EQ(error_of("TILE = 16", &at), "'=' compares as '=='");
  EXPECT_EQ(at, 5u);
  EXPECT_EQ(error_of("(TILE + 1", &at), "expected ')'");
  EXPECT_EQ(error_of("TILE +", &at), "the expression ends too early");
  EXPECT_EQ(error_of("TILE $ 2", &at), "unexpected '$'");
  EXPECT_EQ(at, 5u);
  EXPECT_EQ(error_of("median_ms[threads=3]"), "median_ms[threads=3]: no point matches");
  EXPECT_NE(error_of("median_ms[all]").find("3 points match where one is needed"),
            std::string::npos);
  EXPECT_NE(error_of("frobnicate(1)").find("unknown function 'frobnicate'"), std::string::npos);
  EXPECT_NE(error_of("sqrt(1, 2)").find("takes 1 value(s), got 2"), std::string::npos);
  EXPECT_EQ(error_of("median_ms[threads=1"), "'[' is not closed by ']'");
  EXPECT_EQ(error_of("1 < 2 < 3", &at), "unexpected '<'");
  EXPECT_NE(error_of(std::string(5000, '1')).find("longer than 4096"), std::string::npos);
}

}  // namespace
}  // namespace convlab

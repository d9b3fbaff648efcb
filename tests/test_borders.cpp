#include <gtest/gtest.h>

#include <string>

#include "core/border.hpp"

namespace convlab {
namespace {

// Maps p in [-3, n+3) for n = 8 and spells the result with letters a..h ('0' for outside),
// exactly as OpenCV's documentation draws its borders.
std::string spell(Border border, int n = 8, int pad = 3) {
  std::string text;
  for (int p = -pad; p < n + pad; ++p) {
    if (p == 0 || p == n) text += '|';
    const int i = map_border_index(p, n, border);
    text += i == kOutsideImage ? '0' : static_cast<char>('a' + i);
  }
  return text;
}

TEST(Borders, MatchOpenCvDrawings) {
  EXPECT_EQ(spell(Border::zero), "000|abcdefgh|000");
  EXPECT_EQ(spell(Border::replicate), "aaa|abcdefgh|hhh");
  EXPECT_EQ(spell(Border::reflect), "dcb|abcdefgh|gfe");
  EXPECT_EQ(spell(Border::symmetric), "cba|abcdefgh|hgf");
  EXPECT_EQ(spell(Border::wrap), "fgh|abcdefgh|abc");
}

TEST(Borders, FarOutsideRepeatsTheRule) {
  // A kernel larger than the image reads several periods away.
  EXPECT_EQ(spell(Border::reflect, 3, 6), "cbabcb|abc|babcba");
  EXPECT_EQ(spell(Border::symmetric, 3, 6), "abccba|abc|cbaabc");
  EXPECT_EQ(spell(Border::wrap, 3, 6), "abcabc|abc|abcabc");
  EXPECT_EQ(spell(Border::replicate, 3, 4), "aaaa|abc|cccc");
}

TEST(Borders, SinglePixelImages) {
  for (Border b : {Border::replicate, Border::reflect, Border::symmetric, Border::wrap})
    for (int p = -40; p <= 40; ++p)
      EXPECT_EQ(map_border_index(p, 1, b), 0) << to_string(b) << " p=" << p;
  EXPECT_EQ(map_border_index(-1, 1, Border::zero), kOutsideImage);
  EXPECT_EQ(map_border_index(0, 1, Border::zero), 0);
}

TEST(Borders, TwoPixelReflect) {
  EXPECT_EQ(spell(Border::reflect, 2, 3), "bab|ab|aba");
  EXPECT_EQ(spell(Border::symmetric, 2, 3), "bba|ab|baa");
}

TEST(Borders, NamesRoundTrip) {
  for (Border b : all_borders()) EXPECT_EQ(parse_border(to_string(b)), b);
  EXPECT_FALSE(parse_border("mirror").has_value());
}

}  // namespace
}  // namespace convlab

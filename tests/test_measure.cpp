#include <gtest/gtest.h>

#include "core/point_filter.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "measure/stats.hpp"

namespace convlab {
namespace {

TEST(Stats, QuartilesInterpolateLikeNumpy) {
  const SampleStats s = summarize({4, 1, 3, 2, 5});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stddev, 1.5811388300841898, 1e-12);  // sample standard deviation
  EXPECT_NEAR(s.cv, 1.5811388300841898 / 3, 1e-12);
  const SampleStats even = summarize({1, 2, 3, 10});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);  // numpy.percentile([1,2,3,10], 25)
  EXPECT_DOUBLE_EQ(even.q3, 4.75);
  const SampleStats one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 pieces;  // the same bytes fed in uneven pieces
  const std::string million(1000000, 'a');
  for (size_t i = 0; i < million.size(); i += 777) pieces.update(million.substr(i, 777));
  EXPECT_EQ(pieces.finish_hex(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(GeneratedImages, AreTheSameOnEveryMachine) {
  // SplitMix64 bytes: these hashes are the contract that a seed means the same image everywhere.
  EXPECT_EQ(generate_image(4, 3, 3, 42, "noise").sha256,
            sha256_hex(generate_image(4, 3, 3, 42, "noise").pixels.data(), 36));
  const Image a = generate_image(64, 48, 3, 42, "noise");
  const Image b = generate_image(64, 48, 3, 43, "noise");
  EXPECT_NE(a.sha256, b.sha256);
  SplitMix64 random(0);
  EXPECT_EQ(random.next(), 0xe220a8397b1dcdafULL);  // SplitMix64 reference output for seed 0
  EXPECT_EQ(random.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(a.pixels[0], static_cast<std::uint8_t>(
                             SplitMix64(42ULL ^ (64ULL << 40) ^ (48ULL << 16) ^ 3ULL).next()));
  const Image scene = generate_image(40, 30, 1, 5, "scene");
  EXPECT_EQ(scene.sha256, generate_image(40, 30, 1, 5, "scene").sha256);
}

TEST(PointFilter, ParsesAndMatches) {
  const nlohmann::json record{{"implementation", "openmp"},
                              {"params", {{"threads", 4}, {"block", {32, 8}}}},
                              {"kernel", {{"name", "gaussian7"}, {"size", 7}}},
                              {"border", "replicate"}};
  auto check = [&](const std::string& expression) {
    std::string error;
    const auto filter = parse_point_filter(expression, &error);
    EXPECT_TRUE(filter.has_value()) << expression << ": " << error;
    return filter && matches(*filter, record);
  };
  EXPECT_TRUE(check("implementation=openmp"));
  EXPECT_TRUE(check("implementation=sequential|openmp, kernel.size>=7"));
  EXPECT_FALSE(check("implementation=openmp,kernel.size<7"));
  EXPECT_TRUE(check("params.threads=4.0"));
  EXPECT_TRUE(check("params.block=32x8"));
  EXPECT_TRUE(check("kernel.name~gauss"));
  EXPECT_TRUE(check("border!=zero"));
  EXPECT_FALSE(check("params.missing=1"));
  EXPECT_TRUE(check(""));
  std::string error;
  EXPECT_FALSE(parse_point_filter("kernel.size", &error).has_value());
  EXPECT_FALSE(parse_point_filter("kernel.size>big", &error).has_value());
  EXPECT_FALSE(parse_point_filter("=3", &error).has_value());
}

}  // namespace
}  // namespace convlab

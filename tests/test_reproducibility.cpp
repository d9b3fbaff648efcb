// "The same seed gives the same bytes on every machine" is checked, not assumed: the SHA-256 of
// a few generated images is pinned (computed once and checked against coreutils' sha256sum of the
// raw pixel bytes). A change to SplitMix64, the patterns or the pixel layout fails here; so does a
// compiler or library whose arithmetic would make the images differ.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/sha256.hpp"
#include "images/image_source.hpp"

namespace convlab {
namespace {

struct Pinned {
  int width, height, channels;
  std::uint64_t seed;
  const char* pattern;
  const char* sha256;
};

const Pinned kPinned[] = {
    {1, 1, 1, 0, "noise", "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"},
    {13, 7, 1, 42, "noise", "bc2e2fa5f88052ea84784db2d842614276b8fa5caf54a01c2b2f33c65f0d7a58"},
    {64, 48, 3, 7, "noise", "f602b0453e9839993bc05a8f9151786288ff028c06cc7832bcd998e4531a3ba6"},
    {97, 31, 3, 3, "scene", "64755ca2087e516d22427722d288825677efeadcc1dde7224f72bdedc9134044"},
    {256, 256, 1, 1, "scene", "7d91cb5f9578b4e3cf1614b5a71ff98547fa59fb471d40e9823833da81acc8d8"},
};

TEST(Reproducibility, GeneratedImagesHaveTheirPinnedSha256) {
  for (const auto& pin : kPinned) {
    const Image image = generate_image(pin.width, pin.height, pin.channels, pin.seed, pin.pattern);
    const std::string what = std::string(pin.pattern) + " " + std::to_string(pin.width) + "x" +
                             std::to_string(pin.height) + "x" + std::to_string(pin.channels) +
                             " seed " + std::to_string(pin.seed);
    ASSERT_EQ(image.pixels.size(), size_t(pin.width) * pin.height * pin.channels) << what;
    EXPECT_EQ(image.sha256, pin.sha256) << what;
    // The recorded hash is the hash of the bytes (what results.json names).
    EXPECT_EQ(sha256_hex(image.pixels.data(), image.pixels.size()), pin.sha256) << what;
  }
}

TEST(Reproducibility, Sha256MatchesKnownVectors) {
  // FIPS 180-2 examples.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

}  // namespace
}  // namespace convlab

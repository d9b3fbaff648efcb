// A test suite over one notebook, built once with `convlab notebook` in a scratch folder, and one
// headless Chromium shared by its tests (webdriver.hpp). A test is skipped, with the reason, where
// no browser can be started; it fails where the notebook did not build.
//
//   struct MyFixtures {
//     static constexpr const char* kScratch = "notebook-mine";
//     static void add(const fs::path& root);  // configs, results and discussions under root
//   };
//   class MyTest : public BrowserSuite<MyFixtures> {};
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "notebook_test_support.hpp"
#include "webdriver.hpp"

namespace convlab::notebook_test {

template <typename Fixtures>
class BrowserSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = new Scratch(Fixtures::kScratch);
    Fixtures::add(scratch_->path());
    build_ = convlab(scratch_->path(), "notebook");
    try {
      browser_ = Browser::start().release();
    } catch (const BrowserUnavailable& error) {
      unavailable_ = error.what();
    }
  }
  static void TearDownTestSuite() {
    delete browser_;
    browser_ = nullptr;
    delete scratch_;
    scratch_ = nullptr;
  }
  void SetUp() override {
    ASSERT_EQ(build_.exit_code, 0) << build_.output;
    if (!browser_) GTEST_SKIP() << "no browser: " << unavailable_;
  }

  static inline Scratch* scratch_ = nullptr;
  static inline CommandRun build_;
  static inline Browser* browser_ = nullptr;
  static inline std::string unavailable_;
};

}  // namespace convlab::notebook_test

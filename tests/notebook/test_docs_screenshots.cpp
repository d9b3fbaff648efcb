// The screenshots of docs/notebook.md, taken through the same WebDriver harness as the browser
// tests. Disabled: run them on purpose, then copy the files from CONVLAB_SCREENSHOTS to
// docs/images/:
//   build/tests/notebook/convlab_notebook_tests --gtest_also_run_disabled_tests
//     --gtest_filter='DocsScreenshots.*'
// (the page half-way through a sweep comes from LiveBrowserTest: live-half-way.png; the pages of
// "Writing and running in the page" from PageEditing: editing-*.png, copied as
// notebook-editing-*.png).
#include <gtest/gtest.h>

#include "notebook_test_support.hpp"

#ifdef CONVLAB_HAVE_HTTPLIB
#include "webdriver.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

// The top of the npp_peer page, made from the committed results and config of this tree.
TEST(DocsScreenshots, DISABLED_NppPeerPage) {
  std::unique_ptr<Browser> browser;
  try {
    browser = Browser::start(1200, 820);
  } catch (const BrowserUnavailable& error) {
    GTEST_SKIP() << "no browser: " << error.what();
  }
  const Scratch scratch("docs-screenshots");
  const fs::path out = scratch.path() / "notebook";
  const CommandRun made = convlab(CONVLAB_SOURCE_TREE,
                                  "notebook outputs/npp_peer --quiet --out '" + out.string() + "'");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  browser->open("file://" + (out / "npp_peer.html").string());
  fs::create_directories(CONVLAB_SCREENSHOTS);
  write_file(fs::path(CONVLAB_SCREENSHOTS) / "notebook-page.png", browser->screenshot_png());
}

}  // namespace
}  // namespace convlab
#endif

// `convlab notebook` end to end: the pages of the fixture and of a hostile variant are safe and
// well-formed, identical inputs give identical bytes, a change to one experiment redoes only its
// page, and a page says when its results are stale against the config on disk.
#include <gtest/gtest.h>

#include <regex>

#include "notebook_test_support.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

// The names of a start tag's attributes (every value is double-quoted and escaped).
std::vector<std::string> attribute_names(const std::string& tag) {
  std::vector<std::string> names;
  static const std::regex attribute(R"re(\s([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*"[^"]*")re");
  for (auto it = std::sregex_iterator(tag.begin(), tag.end(), attribute);
       it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1].str());
  return names;
}

// The start tags of a page or figure, each as written.
std::vector<std::string> start_tags(const std::string& markup) {
  std::vector<std::string> tags;
  static const std::regex tag(R"(<[a-zA-Z][^>]*>)");
  for (auto it = std::sregex_iterator(markup.begin(), markup.end(), tag);
       it != std::sregex_iterator(); ++it)
    tags.push_back(it->str());
  return tags;
}

class NotebookPages : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = new Scratch("notebook-pages");
    add_fixture(scratch_->path());
    add_hostile_fixture(scratch_->path());
    // In the C locale, what a shell with no LANG has, whatever the caller's: the pages and
    // figures must not depend on it (TheSameInputsGiveTheSameBytes builds again in the caller's).
    build_ = run_in(scratch_->path(),
                    "env -u LANG -u LANGUAGE LC_ALL=C '" CONVLAB_EXECUTABLE "' notebook");
  }
  static void TearDownTestSuite() {
    delete scratch_;
    scratch_ = nullptr;
  }
  static fs::path notebook() { return scratch_->path() / "outputs" / "notebook"; }
  static Scratch* scratch_;
  static CommandRun build_;
};
Scratch* NotebookPages::scratch_ = nullptr;
CommandRun NotebookPages::build_;

TEST_F(NotebookPages, IndexAndOnePagePerExperiment) {
  ASSERT_EQ(build_.exit_code, 0) << build_.output;
  EXPECT_NE(build_.output.find("2 experiments (2 pages made"), std::string::npos) << build_.output;
  for (const char* file : {"index.html", "fixture-demo.html", "hostile.html", "assets/notebook.js",
                           "assets/notebook.css", "figures/fixture-demo/time-vs-size.svg"})
    EXPECT_TRUE(fs::exists(notebook() / file)) << file;
  const std::string index = read_file(notebook() / "index.html");
  EXPECT_NE(index.find("href=\"fixture-demo.html\""), std::string::npos);
  // The headline figure: the first of one panel.
  EXPECT_NE(index.find("<img src=\"figures/fixture-demo/speedup-bars.svg\""), std::string::npos);
  const std::string page = read_file(notebook() / "fixture-demo.html");
  for (const char* part :
       {"<section class=\"cell cell-description\"", "<section class=\"cell cell-config\"",
        "<section class=\"cell cell-run\"", "<section class=\"cell cell-figure\"",
        "<section class=\"cell cell-table\"", "<section class=\"cell cell-gallery\"",
        "<section class=\"cell cell-verification\"", "<section class=\"cell cell-discussion\"",
        "make experiment CONFIG=configs/fixture-demo.yaml", "class=\"sortable data\"",
        "<script type=\"application/json\" class=\"figure-data\">", "class=\"hover-target\"",
        "class=\"key-entry\"", "src=\"pictures/fixture-demo/"})
    EXPECT_NE(page.find(part), std::string::npos) << part;
  // Cells in the order a reader goes through them.
  EXPECT_LT(page.find("cell-config"), page.find("cell-run"));
  EXPECT_LT(page.find("cell-run"), page.find("cell-figure"));
  EXPECT_LT(page.find("cell-verification"), page.find("cell-discussion"));
}

TEST_F(NotebookPages, EveryPageAndFigureIsWellFormed) {
  ASSERT_EQ(build_.exit_code, 0) << build_.output;
  if (!have_program("xmllint"))
    GTEST_SKIP() << "xmllint is not installed (scripts/install-deps.sh test installs it)";
  const auto files = files_with(notebook(), {".html", ".svg"});
  ASSERT_GE(files.size(), 13u);  // index, 2 pages, 2 x 5 figures
  for (const auto& file : files) {
    const CommandRun check = run_in(scratch_->path(), "xmllint --noout '" + file.string() + "'");
    EXPECT_EQ(check.exit_code, 0) << file << "\n" << check.output;
  }
}

// gnuplot drew every figure without a word in its log, although the notebook was built in the C
// locale, where a script that says `set encoding utf8` made gnuplot warn "iconv failed to convert
// degree sign" until convlab ran it in a UTF-8 locale of its own.
TEST_F(NotebookPages, GnuplotSaysNothingInAnyLocale) {
  ASSERT_EQ(build_.exit_code, 0) << build_.output;
  if (!have_program("gnuplot"))
    GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh notebook installs it)";
  const auto logs = files_with(notebook() / ".build", {".log"});
  EXPECT_GE(logs.size(), 10u);  // 2 x 5 figures
  for (const auto& log : logs) EXPECT_EQ(read_file(log), "") << log;
}

TEST_F(NotebookPages, HostileStringsShowAsTextAndRunNothing) {
  ASSERT_EQ(build_.exit_code, 0) << build_.output;
  for (const char* file : {"hostile.html", "index.html"}) {
    const std::string page = read_file(notebook() / file);
    SCOPED_TRACE(file);
    size_t scripts = 0, json = 0;
    for (const std::string& tag : start_tags(page)) {
      // No event handler, no inline style, no link to a script anywhere.
      for (const std::string& name : attribute_names(tag)) {
        EXPECT_NE(name.rfind("on", 0), 0u) << tag;
        EXPECT_NE(name, "style") << tag;
      }
      EXPECT_EQ(tag.find("javascript:"), std::string::npos) << tag;
      if (tag.rfind("<img", 0) == 0) {
        EXPECT_NE(tag.find("src=\""), std::string::npos) << tag;
        EXPECT_EQ(tag.find("src=\"x\""), std::string::npos) << tag;
      }
      if (tag.rfind("<script", 0) == 0) {
        const bool data = tag == "<script type=\"application/json\" class=\"figure-data\">";
        const bool own = std::regex_match(
            tag,
            std::regex(R"(<script src="assets/(notebook|katex/katex\.min)\.js" defer="defer">)"));
        EXPECT_TRUE(data || own) << tag;
        (data ? json : scripts) += 1;
      }
      EXPECT_NE(tag.rfind("<style", 0), 0u) << tag;
    }
    EXPECT_LE(scripts, 2u);
    // The text is there, escaped, wherever it came from.
    EXPECT_EQ(page.find("<script>alert"), std::string::npos);
    EXPECT_EQ(page.find("</style>"), std::string::npos);
    EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(page.find("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
    if (std::string(file) == "hostile.html") {
      EXPECT_NE(page.find("{{ constructor }}"), std::string::npos);
      EXPECT_GE(json, 5u);
      EXPECT_NE(page.find("&lt;script&gt;alert(3)&lt;/script&gt;"), std::string::npos);
      EXPECT_NE(page.find("&lt;style&gt;body { display: none }&lt;/style&gt;"), std::string::npos);
      EXPECT_NE(page.find("&#39;single&#39;"), std::string::npos);
      // The JSON the figures carry cannot close its element.
      EXPECT_NE(page.find("\\u003cscript\\u003e"), std::string::npos);
    }
  }
  // Files outside the results folder are neither copied nor linked.
  EXPECT_FALSE(fs::exists(notebook() / "pictures" / "hostile" / "passwd"));
  EXPECT_FALSE(fs::exists(notebook() / "pictures" / "hostile" / "hostname.jpg"));
  const std::string hostile = read_file(notebook() / "hostile.html");
  EXPECT_NE(hostile.find("<div class=\"missing\">picture not found"), std::string::npos);
  EXPECT_EQ(hostile.find("etc/passwd"), std::string::npos);
  // The kernel source cell: path, hash and text as text, highlighted spans and all.
  const size_t source = hostile.find("<section class=\"cell cell-source\" id=\"cell-source-1\">");
  ASSERT_NE(source, std::string::npos);
  const size_t end = hostile.find("</section>", source);
  const std::string cell = hostile.substr(source, end - source);
  EXPECT_NE(cell.find("<code>kernels/&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos)
      << cell;
  EXPECT_NE(cell.find("sha256 <code>&lt;script&gt;aler</code>"), std::string::npos) << cell;
  EXPECT_NE(cell.find("<span class=\"c-com\">// &lt;script&gt;alert(1)&lt;/script&gt;"),
            std::string::npos)
      << cell;
  EXPECT_NE(cell.find("<span class=\"c-kw\">__global__</span>"), std::string::npos) << cell;
  EXPECT_EQ(cell.find("<script"), std::string::npos);
  EXPECT_EQ(cell.find("<img"), std::string::npos);
  // Figures carry hostile labels as text too, in SVG.
  for (const auto& svg : files_with(notebook() / "figures" / "hostile", {".svg"})) {
    const std::string text = read_file(svg);
    EXPECT_EQ(text.find("<script"), std::string::npos) << svg;
    for (const std::string& tag : start_tags(text))
      for (const std::string& name : attribute_names(tag))
        EXPECT_NE(name.rfind("on", 0), 0u) << tag;
  }
}

TEST_F(NotebookPages, TheSameInputsGiveTheSameBytes) {
  ASSERT_EQ(build_.exit_code, 0) << build_.output;
  const CommandRun again = convlab(scratch_->path(), "notebook --out outputs/again");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const fs::path other = scratch_->path() / "outputs" / "again";
  size_t compared = 0;
  for (const auto& file : files_with(notebook(), {".html", ".svg", ".js", ".css", ".jpg"})) {
    const fs::path relative = fs::relative(file, notebook());
    ASSERT_TRUE(fs::exists(other / relative)) << relative;
    EXPECT_TRUE(read_file(file) == read_file(other / relative)) << relative << " differs";
    ++compared;
  }
  EXPECT_GE(compared, 15u);
}

TEST(NotebookIncremental, AChangedExperimentRedoesOnlyItsPage) {
  Scratch scratch("notebook-incremental");
  add_fixture(scratch.path(), "first");
  add_fixture(scratch.path(), "second");
  const CommandRun build = convlab(scratch.path(), "notebook");
  ASSERT_EQ(build.exit_code, 0) << build.output;
  const fs::path out = scratch.path() / "outputs" / "notebook";
  const auto first_time = fs::last_write_time(out / "first.html");
  const auto second_time = fs::last_write_time(out / "second.html");

  const CommandRun same = convlab(scratch.path(), "notebook");
  ASSERT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("0 pages made, 0 changed, 2 up to date), 0 figures drawn"),
            std::string::npos)
      << same.output;

  // A new median for one point of the second experiment.
  const fs::path results = scratch.path() / "outputs" / "second" / "results.json";
  auto json = nlohmann::json::parse(read_file(results));
  for (auto& record : json["records"])
    if (record["implementation"] == "sequential") {
      record["timing"]["stats"]["median"] = 123.456;
      break;
    }
  write_file(results, json.dump(1));
  const CommandRun changed = convlab(scratch.path(), "notebook");
  ASSERT_EQ(changed.exit_code, 0) << changed.output;
  EXPECT_NE(changed.output.find("1 pages made, 1 changed, 1 up to date"), std::string::npos)
      << changed.output;
  EXPECT_EQ(fs::last_write_time(out / "first.html"), first_time);
  EXPECT_NE(fs::last_write_time(out / "second.html"), second_time);

  // One experiment named: its page is made, and the index still lists the other.
  fs::remove(out / "first.html");
  const auto second_before = fs::last_write_time(out / "second.html");
  const CommandRun one = convlab(scratch.path(), "notebook outputs/first");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_TRUE(fs::exists(out / "first.html"));
  EXPECT_EQ(fs::last_write_time(out / "second.html"), second_before);
  const std::string index = read_file(out / "index.html");
  EXPECT_NE(index.find("href=\"first.html\""), std::string::npos);
  EXPECT_NE(index.find("href=\"second.html\""), std::string::npos);
}

TEST(NotebookIndex, FollowsTheReportOutlineAndNamesEachStudy) {
  Scratch scratch("notebook-outline");
  add_fixture(scratch.path(), "first");
  add_fixture(scratch.path(), "second");
  add_fixture(scratch.path(), "third");
  const fs::path out = scratch.path() / "outputs" / "notebook";
  const CommandRun alphabetical = convlab(scratch.path(), "notebook");
  ASSERT_EQ(alphabetical.exit_code, 0) << alphabetical.output;
  std::string index = read_file(out / "index.html");
  EXPECT_LT(index.find("href=\"first.html\""), index.find("href=\"second.html\""));
  EXPECT_EQ(index.find(">Study</button>"), std::string::npos);

  write_file(scratch.path() / "report" / "outline.yaml",
             "parts:\n"
             "  - {title: \"Seed 004: the second study\", claim: x, experiments: [second]}\n"
             "  - {title: Extensions, claim: y, experiments: [first]}\n");
  const CommandRun ordered = convlab(scratch.path(), "notebook");
  ASSERT_EQ(ordered.exit_code, 0) << ordered.output;
  index = read_file(out / "index.html");
  const size_t second = index.find("href=\"second.html\"");
  const size_t first = index.find("href=\"first.html\"");
  const size_t third = index.find("href=\"third.html\"");
  ASSERT_NE(third, std::string::npos);
  EXPECT_LT(second, first);
  EXPECT_LT(first, third);  // not in the outline: last
  EXPECT_NE(index.find(">Study</button>"), std::string::npos);
  EXPECT_NE(index.find("<td data-sort=\"0\">Seed 004</td>"), std::string::npos);
  EXPECT_NE(index.find("<td data-sort=\"1\">Extensions</td>"), std::string::npos);

  // A broken outline is named, as the report names it.
  write_file(scratch.path() / "report" / "outline.yaml", "parts: [1, 2\n");
  const CommandRun broken = convlab(scratch.path(), "notebook");
  EXPECT_EQ(broken.exit_code, 2) << broken.output;
  EXPECT_NE(broken.output.find("outline.yaml"), std::string::npos) << broken.output;
}

TEST(NotebookFreshness, AnEditedConfigMakesThePageStaleWithTheCommandThatUpdatesIt) {
  Scratch scratch("notebook-fresh");
  const fs::path root = scratch.path();
  write_file(root / "configs" / "tiny.yaml",
             "name: tiny\ntitle: Tiny\ndescription: Two kernels on one small image.\n"
             "images:\n  - {type: generated, sizes: [64], channels: 1, seed: 3}\n"
             "kernels:\n  - {type: gaussian, size: 3}\n  - {type: box, size: 5}\n"
             "border: replicate\noutput: u8\nimplementations:\n  sequential: {}\n"
             "baseline: sequential\nmeasure: {warmup: 0, min_reps: 3, max_reps: 3}\n");
  const CommandRun run = convlab(root, "run configs/tiny.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const CommandRun fresh = convlab(root, "notebook");
  ASSERT_EQ(fresh.exit_code, 0) << fresh.output;
  const std::string page = read_file(root / "outputs" / "notebook" / "tiny.html");
  EXPECT_EQ(page.find("class=\"banner stale\""), std::string::npos);
  EXPECT_NE(read_file(root / "outputs" / "notebook" / "index.html").find("up to date"),
            std::string::npos);

  // A third kernel: its point is not measured, and the config changed.
  std::string config = read_file(root / "configs" / "tiny.yaml");
  config = std::regex_replace(config, std::regex("  - \\{type: box, size: 5\\}\n"),
                              "  - {type: box, size: 5}\n  - {type: sharpen}\n");
  write_file(root / "configs" / "tiny.yaml", config);
  const CommandRun stale = convlab(root, "notebook");
  ASSERT_EQ(stale.exit_code, 0) << stale.output;
  const std::string stale_page = read_file(root / "outputs" / "notebook" / "tiny.html");
  EXPECT_NE(stale_page.find("<strong>stale:</strong> configs/tiny.yaml changed since these "
                            "results were measured: kernels differ"),
            std::string::npos)
      << stale_page.substr(0, 3000);
  EXPECT_NE(stale_page.find("1 of 3 points of the current config are not measured."),
            std::string::npos);
  EXPECT_NE(stale_page.find("<code id=\"update-command\">make experiment CONFIG=configs/tiny.yaml"
                            "</code>"),
            std::string::npos);
  EXPECT_NE(read_file(root / "outputs" / "notebook" / "index.html").find("stale"),
            std::string::npos);

  // Only its text edited: a quiet note, not a stale banner.
  write_file(root / "configs" / "tiny.yaml",
             std::regex_replace(read_file(root / "configs" / "tiny.yaml"),
                                std::regex("  - \\{type: sharpen\\}\n"), ""));
  write_file(root / "configs" / "tiny.yaml",
             std::regex_replace(read_file(root / "configs" / "tiny.yaml"),
                                std::regex("title: Tiny"), "title: Tiny, edited"));
  const CommandRun text = convlab(root, "notebook");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  const std::string text_page = read_file(root / "outputs" / "notebook" / "tiny.html");
  EXPECT_EQ(text_page.find("class=\"banner stale\""), std::string::npos);
  EXPECT_NE(text_page.find("class=\"banner note\">The config&#39;s text"), std::string::npos);
  EXPECT_NE(text_page.find("<h1>Tiny, edited</h1>"), std::string::npos);

  // Only a comment and spacing changed: the content is what the run recorded, no note at all.
  write_file(root / "configs" / "tiny.yaml",
             std::regex_replace(read_file(root / "configs" / "tiny.yaml"),
                                std::regex("title: Tiny, edited"), "title: Tiny"));
  write_file(root / "configs" / "tiny.yaml",
             "# yaml-language-server: $schema=../docs/config.schema.json\n\n" +
                 read_file(root / "configs" / "tiny.yaml"));
  const CommandRun comment = convlab(root, "notebook");
  ASSERT_EQ(comment.exit_code, 0) << comment.output;
  const std::string comment_page = read_file(root / "outputs" / "notebook" / "tiny.html");
  EXPECT_EQ(comment_page.find("class=\"banner stale\""), std::string::npos);
  EXPECT_EQ(comment_page.find("class=\"banner note\""), std::string::npos);
  EXPECT_NE(comment_page.find("<h1>Tiny</h1>"), std::string::npos);
  EXPECT_NE(comment_page.find("which differs in comments or spacing only"), std::string::npos);
  EXPECT_EQ(comment_page.find("<span class=\"bad\">the run recorded"), std::string::npos);
}

TEST(NotebookErrors, BadInputExitsTwoNamingTheFile) {
  Scratch scratch("notebook-errors");
  add_fixture(scratch.path());
  write_file(scratch.path() / "experiments" / "fixture-demo.md",
             "A value without its filter: {{median_ms}}.\n");
  const CommandRun bad_value = convlab(scratch.path(), "notebook");
  EXPECT_EQ(bad_value.exit_code, 2);
  EXPECT_NE(bad_value.output.find("experiments/fixture-demo.md:1: {{median_ms}}: 'median_ms' alone "
                                  "names no point: write a query, median_ms[filter]"),
            std::string::npos)
      << bad_value.output;
  const CommandRun missing = convlab(scratch.path(), "notebook outputs/nothing");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("outputs/nothing"), std::string::npos) << missing.output;
  const CommandRun option = convlab(scratch.path(), "notebook --bogus");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.output.find("unknown option '--bogus'"), std::string::npos);
}

}  // namespace
}  // namespace convlab

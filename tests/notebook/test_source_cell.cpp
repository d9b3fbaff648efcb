// Users' own kernels in the notebook: a kernel source cell per source the run compiled, after the
// config, from the copy in results.json alone (the file need not exist); its text highlighted as
// C/C++/CUDA in HTML and listed in LaTeX, hostile text shown as text in both; and the freshness of
// a page whose source changed on disk after the run, naming the source.
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "core/sha256.hpp"
#include "html/cpp_highlight.hpp"
#include "html/experiment_page.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook_test_support.hpp"
#include "query/results_document.hpp"
#include "report/latex_writer.hpp"
#include "report/source_listing.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using nlohmann::json;

// Without its spans and with its references decoded, highlighted HTML is the text it shows.
std::string shown_text(const std::string& html) {
  std::string text = std::regex_replace(html, std::regex("<[^>]*>"), "");
  for (const auto& [entity, character] :
       std::vector<std::pair<std::string, std::string>>{{"&lt;", "<"},
                                                        {"&gt;", ">"},
                                                        {"&quot;", "\""},
                                                        {"&#39;", "'"},
                                                        {"&#13;", "\r"},
                                                        {"&amp;", "&"}})
    text = std::regex_replace(text, std::regex(entity), character);
  return text;
}

const std::string kKernel = R"kernel(// Tiled <b>kernel</b> & friends
#include <convlab/kernel.h>
#define TILE_W (TILE + 2 * 8) /* halo */ \
  + 0
  #  pragma unroll
CONVLAB_CONTRACT(1);
__global__ void tiled(const convlab_problem p, float* out) {
  __shared__ float tile[TILE][TILE + 1];
  const char* s = "a \"quoted\" </code></pre><script>alert(1)</script>";
  const char c = '\'';
  const float x = 1.5e-3f + 0x1Fu + 1'000'000 + .5;
  auto raw = R"x(raw ")" still raw)x";
  /* a comment
     over lines */ int after = threadIdx.x;
}
)kernel";

TEST(CppHighlight, KeepsTheTextAndMarksCommentsStringsKeywordsDirectivesAndNumbers) {
  const std::string html = cpp_html(kKernel);
  EXPECT_EQ(shown_text(html), kKernel);
  for (const char* part : {
           "<span class=\"c-com\">// Tiled &lt;b&gt;kernel&lt;/b&gt; &amp; friends</span>",
           "<span class=\"c-pre\">#include &lt;convlab/kernel.h&gt;</span>",
           "<span class=\"c-pre\">#define TILE_W (TILE + 2 * 8) </span><span "
           "class=\"c-com\">/* halo */</span>",
           "\n  <span class=\"c-pre\">#  pragma unroll</span>",
           "<span class=\"c-kw\">__global__</span> <span class=\"c-kw\">void</span>",
           "<span class=\"c-kw\">__shared__</span> <span class=\"c-kw\">float</span>",
           "<span class=\"c-str\">&quot;a \\&quot;quoted\\&quot; "
           "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;</span>",
           "<span class=\"c-str\">&#39;\\&#39;&#39;</span>",
           "<span class=\"c-num\">1.5e-3f</span>",
           "<span class=\"c-num\">0x1Fu</span>",
           "<span class=\"c-num\">1&#39;000&#39;000</span>",
           "<span class=\"c-num\">.5</span>",
           "<span class=\"c-str\">R&quot;x(raw &quot;)&quot; still raw)x&quot;</span>",
           "<span class=\"c-com\">/* a comment\n     over lines */</span>",
           "<span class=\"c-kw\">threadIdx</span>",
       })
    EXPECT_NE(html.find(part), std::string::npos) << part << "\n" << html;
  // The continued directive's second line is the directive's too.
  EXPECT_NE(html.find("<span class=\"c-pre\"> \\\n  + 0</span>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("</code>"), std::string::npos);
  // Nothing is lost at the end of an unclosed comment or string, or on broken bytes.
  for (const std::string& odd : {std::string("int a; /* never closed"), std::string("\"open"),
                                 std::string("x = 'a"), std::string("#define X \\")})
    EXPECT_EQ(shown_text(cpp_html(odd)), odd) << odd;
  EXPECT_EQ(cpp_html("/* \xff\xfe */").find('\xff'), std::string::npos);
}

// The fixture's results with the text of a user's kernel in its run block, as a run of a config
// naming kernels/<name> writes them.
json results_with_source(const std::string& path, const std::string& text) {
  json results = json::parse(read_file(fixtures() / "fixture-demo" / "results.json"));
  results["run"]["config"]["sources"] = {
      {{"path", path}, {"sha256", sha256_hex(text)}, {"text", text}}};
  results["run"]["config"]["resolved"]["implementations"] = {
      {"sequential", json::object()},
      {"my_tiled", {{"source", path}, {"sha256", sha256_hex(text)}, {"params", json::object()}}}};
  return results;
}

ExperimentNotebook notebook_of(const Scratch& scratch, const json& results) {
  write_file(scratch.path() / "results.json", results.dump(1));
  const ResultsDocument document =
      load_results_document((scratch.path() / "results.json").string());
  return build_notebook(document, NotebookSources{nullptr, std::nullopt, std::nullopt});
}

TEST(SourceCell, ComesAfterTheConfigFromTheResultsFileAlone) {
  Scratch scratch("source-cell");
  const ExperimentNotebook notebook =
      notebook_of(scratch, results_with_source("kernels/shared_tiled.cu", kKernel));
  std::vector<size_t> kinds;
  for (const auto& cell : notebook.cells) kinds.push_back(cell.index());
  ASSERT_GE(kinds.size(), 4u);
  EXPECT_EQ(kinds[1], 1u);  // config
  EXPECT_EQ(kinds[2], 2u);  // the kernel source
  EXPECT_EQ(kinds[3], 3u);  // run
  const SourceCell* source = notebook.first<SourceCell>();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->path, "kernels/shared_tiled.cu");
  EXPECT_EQ(source->sha256, sha256_hex(kKernel));
  EXPECT_EQ(source->language, "CUDA");
  EXPECT_EQ(source->implementations, std::vector<std::string>{"my_tiled"});
  EXPECT_EQ(source->text, kKernel);

  PageContext context;
  context.generator = "convlab test";
  const std::string html = experiment_page(notebook, context).html;
  const size_t cell = html.find(
      "<section class=\"cell cell-source\" id=\"cell-source-1\">\n<div "
      "class=\"cell-label\">kernel source</div>");
  ASSERT_NE(cell, std::string::npos) << html;
  EXPECT_LT(html.find("id=\"config\""), cell);
  EXPECT_LT(cell, html.find("id=\"run\""));
  EXPECT_NE(html.find("<code>kernels/shared_tiled.cu</code> &#183; sha256 <code>" +
                          sha256_hex(kKernel).substr(0, 12) +
                          "</code> &#183; CUDA &#183; implementation <code>my_tiled</code>",
                      cell),
            std::string::npos);
  EXPECT_NE(html.find("data-copy=\"source-text-1\""), std::string::npos);
  EXPECT_NE(html.find("<pre class=\"source\"><code id=\"source-text-1\">" + cpp_html(kKernel) +
                      "</code></pre>"),
            std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
}

// LaTeX that a source's text cannot take over: no command of the text survives as a command.
TEST(SourceCell, IsListedInTheReportWithEveryCharacterEscaped) {
  Scratch scratch("source-latex");
  const std::string hostile =
      "\\end{flushleft}\\input{/etc/passwd} % $x$ #1 ~^_{}&\n\ttab\r\n\xC3\xA9t\xC3\xA9 "
      "\x01\n[[nodiscard]] int f();\n*p = 0;\n";
  const ExperimentNotebook notebook =
      notebook_of(scratch, results_with_source("kernels/evil_$1.c", hostile));
  const auto files = experiment_latex(notebook, {"export", "figures"});
  ASSERT_FALSE(files.empty());
  const std::string& section = files.front().content;
  const size_t at = section.find("\\textbf{Kernel source.}");
  ASSERT_NE(at, std::string::npos) << section;
  const std::string listing = section.substr(at);
  EXPECT_NE(listing.find("\\texttt{kernels/evil\\_\\$1.c} (sha256 \\texttt{" +
                         sha256_hex(hostile).substr(0, 12) +
                         "}, C, implementation \\texttt{my\\_tiled})"),
            std::string::npos)
      << listing;
  EXPECT_NE(listing.find("\\textbackslash{}end\\{flushleft\\}\\textbackslash{}input\\{/etc/"
                         "passwd\\}\\ \\%\\ \\$x\\$\\ \\#1\\ \\textasciitilde{}\\textasciicircum{}"
                         "\\_\\{\\}\\&"),
            std::string::npos)
      << listing;
  EXPECT_NE(listing.find("\\\\\n\\ \\ \\ \\ \\ \\ \\ \\ tab\\\\\n?t?\\ ?\\\\\n{}[[nodiscard]]\\ "
                         "int\\ f();\\\\\n{}*p\\ =\\ 0;\n\\end{flushleft}"),
            std::string::npos)
      << listing;
  EXPECT_EQ(listing.find("\\end{flushleft}\\input"), std::string::npos);
  EXPECT_EQ(listing.find('\r'), std::string::npos);
  // And TeX agrees: the listing compiles and prints the text.
  if (have_program("pdflatex")) {
    write_file(scratch.path() / "listing.tex",
               "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}"
               "\\usepackage{lmodern}\\usepackage{xcolor}\\usepackage{placeins}\\newcommand{"
               "\\convlabnote}[1]{#1}"
               "\\begin{document}\n" +
                   listing + "\\end{document}\n");
    const CommandRun tex =
        run_in(scratch.path(), "pdflatex -interaction=nonstopmode -halt-on-error listing.tex");
    EXPECT_EQ(tex.exit_code, 0) << tex.output;
  }

  // A long source is cut, and says how much is left out.
  std::string text;
  for (size_t i = 0; i < kMaxListedLines + 5; ++i) text += "int line" + std::to_string(i) + ";\n";
  const ExperimentNotebook longer = notebook_of(scratch, results_with_source("k.c", text));
  const std::string cut = experiment_latex(longer, {"export", "figures"}).front().content;
  EXPECT_NE(cut.find("line" + std::to_string(kMaxListedLines - 1) + ";"), std::string::npos);
  EXPECT_EQ(cut.find("line" + std::to_string(kMaxListedLines) + ";"), std::string::npos);
  EXPECT_NE(cut.find("5 more lines, in results.json and the notebook."), std::string::npos);
}

// A run of a config naming a user's kernel, then its source edited, deleted and put back: the page
// says which source changed and how many points are not measured, without the config having
// changed.
TEST(SourceCell, APageWhoseSourceChangedAfterItsRunIsStaleNamingTheSource) {
  Scratch scratch("source-fresh");
  const fs::path root = scratch.path();
  const std::string kernel =
      "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"
      "CONVLAB_CPU_ENTRY(const convlab_problem* p) {\n"
      "  for (int y = 0; y < p->height; ++y)\n"
      "    for (int x = 0; x < p->width * p->channels; ++x) {\n"
      "      float sum = 0.f;\n"
      "      for (int k = 0; k < p->ksize * p->ksize; ++k) {\n"
      "        const int sy = convlab_border_index(y + k / p->ksize - p->ksize / 2, p->height, "
      "p->border);\n"
      "        const int sx = convlab_border_index(x + k % p->ksize - p->ksize / 2, p->width, "
      "p->border);\n"
      "        if (sy >= 0 && sx >= 0) sum += p->weights[k] * p->in[sy * p->in_pitch + sx];\n"
      "      }\n"
      "      convlab_store(p->out, (long long)y * p->width + x, p->output, sum);\n"
      "    }\n"
      "  return 0;\n}\n";
  write_file(root / "kernels" / "mine.c", kernel);
  write_file(root / "configs" / "tiny.yaml",
             "name: tiny\ntitle: Tiny\n"
             "images:\n  - {type: generated, sizes: [32], channels: 1, seed: 3}\n"
             "kernels:\n  - {type: gaussian, size: [3, 5]}\n"
             "implementations:\n  sequential: {}\n  mine: {source: ../kernels/mine.c}\n"
             "measure: {warmup: 0, min_reps: 2, max_reps: 2}\n");
  const std::string convlab_command =
      "CONVLAB_KERNEL_CACHE='" + (root / "cache").string() + "' '" + CONVLAB_EXECUTABLE + "' ";
  const CommandRun run = run_in(root, convlab_command + "run configs/tiny.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto page = [&] {
    const CommandRun made = run_in(root, convlab_command + "notebook --quiet");
    EXPECT_EQ(made.exit_code, 0) << made.output;
    return read_file(root / "outputs" / "notebook" / "tiny.html");
  };
  const std::string fresh = page();
  EXPECT_EQ(fresh.find("class=\"banner stale\""), std::string::npos) << fresh.substr(0, 3000);
  EXPECT_NE(fresh.find("id=\"cell-source-1\""), std::string::npos);

  write_file(root / "kernels" / "mine.c", kernel + "// faster, maybe\n");
  const std::string edited = page();
  EXPECT_NE(edited.find("<strong>stale:</strong> ../kernels/mine.c changed since the run. The "
                        "numbers are of the source the run compiled. 2 of 4 points of the "
                        "current config are not measured."),
            std::string::npos)
      << edited.substr(0, 4000);
  // The cell shows the text the run compiled, not the file as it is now.
  EXPECT_EQ(edited.find("faster, maybe"), std::string::npos);

  fs::remove(root / "kernels" / "mine.c");
  const std::string gone = page();
  EXPECT_NE(gone.find("../kernels/mine.c is gone since the run."), std::string::npos)
      << gone.substr(0, 4000);

  write_file(root / "kernels" / "mine.c", kernel);
  EXPECT_EQ(page().find("class=\"banner stale\""), std::string::npos);
}

}  // namespace
}  // namespace convlab

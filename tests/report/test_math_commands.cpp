// A discussion's math goes to KaTeX and to pdflatex: only commands both set as math pass
// (notebook/math_commands.hpp); \input, \write18, \openin, \immediate, \catcode, \def, \csname and
// the rest are refused with file:line before either renderer sees them, and pdflatex runs without
// shell escape and with TeX's paranoid file access as a second wall. A PDF with safe formulas is
// built; a discussion with a refused one makes no page and no PDF, while the other experiments'
// pages are made.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "notebook/markdown.hpp"
#include "notebook/math_commands.hpp"
#include "query/results_document.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using report_test::fixtures;
using report_test::read_file;
using report_test::ScratchDirectory;
using report_test::write_file;

bool have(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// What the report of these tests puts in a discussion: every kind of safe formula.
const char* const kSafeDiscussion =
    "The efficiency is $E = \\frac{T_1}{P \\cdot T_P} \\le 1$ and the cost\n"
    "$\\mathcal{O}(N^2 K^2)$ falls to $\\mathcal{O}(N^2 K)$ when separable, with\n"
    "$\\sqrt{\\sigma^2 + \\epsilon}$, $\\sum_{i=1}^{n} x_i$, $\\lVert x \\rVert_\\infty$,\n"
    "$\\text{median}(t) \\approx 1.2\\,\\mathrm{ms}$ and $\\alpha \\in \\mathbb{R}$.\n"
    "\n"
    "$$\\begin{aligned} T(P) &= \\frac{T(1)}{P} + c \\\\ S &= \\left( \\frac{T(1)}{T(P)} "
    "\\right) \\end{aligned}$$\n"
    "\n"
    "$$\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix} \\quad \\begin{cases} a & x > 0 \\\\ b & "
    "\\text{otherwise} \\end{cases}$$\n";

std::string refusal_of(const std::string& markdown) {
  try {
    parse_markdown(markdown, "experiments/x.md");
  } catch (const ResultsError& error) {
    return error.what();
  }
  return "";
}

TEST(MathCommands, SafeFormulasPass) {
  EXPECT_EQ(refusal_of(kSafeDiscussion), "");
  for (const char* tex :
       {"x^2", "a_{ij}", "\\{a, b\\}", "\\% \\# \\& \\_ \\$", "a \\, b \\; c \\! d \\quad e",
        "\\left. \\frac{a}{b} \\right|_{x=0}", "\\hat{x} \\bar{y} \\vec{v} \\widetilde{ab}",
        "\\operatorname{argmin}_x f(x)",
        "\\begin{array}{cc} a & b \\\\ \\hline c & d \\end{array}"})
    EXPECT_EQ(math_refusal(tex), "") << tex;
}

// Each refused with what it is: a command outside the list, or TeX that is not math.
TEST(MathCommands, DangerousTeXIsRefusedWithFileAndLine) {
  for (const auto& [tex, why] : std::vector<std::pair<std::string, std::string>>{
           {"\\input{/etc/hostname}", "\\input is not allowed in math"},
           {"\\include{x}", "\\include is not allowed in math"},
           {"\\immediate\\write18{touch pwned}", "\\immediate is not allowed in math"},
           {"\\write18{touch pwned}", "\\write is not allowed in math"},
           {"\\openin1=/etc/passwd", "\\openin is not allowed in math"},
           {"\\read1 to \\x", "\\read is not allowed in math"},
           {"\\catcode`\\@=11", "\\catcode is not allowed in math"},
           {"\\def\\x{y}", "\\def is not allowed in math"},
           {"\\gdef\\x{y}", "\\gdef is not allowed in math"},
           {"\\let\\x\\y", "\\let is not allowed in math"},
           {"\\newcommand{\\x}{y}", "\\newcommand is not allowed in math"},
           {"\\csname input\\endcsname{x}", "\\csname is not allowed in math"},
           {"\\expandafter\\x", "\\expandafter is not allowed in math"},
           {"\\lstinputlisting{/etc/passwd}", "\\lstinputlisting is not allowed in math"},
           {"\\href{javascript:alert(1)}{x}", "\\href is not allowed in math"},
           {"\\url{x}", "\\url is not allowed in math"},
           {"\\verb|x|", "\\verb is not allowed in math"},
           {"\\end{document}", "the environment 'document' is not allowed"},
           {"\\begin{filecontents}{x}", "the environment 'filecontents' is not allowed"},
           {"^^5cinput{/etc/hostname}", "^^ is TeX's notation for a character by its code"},
           {"a % comment", "% starts a TeX comment"},
           {"#1", "# is TeX's parameter character"},
           {"a } b", "a } without its {"},
           {"{ a", "a { is not closed"},
           {"\\begin{matrix} a", "\\begin{matrix} is not closed"},
           {"a & b", "& separates the columns of an environment"},
           {"a \\\\ b", "\\\\ starts a new row of an environment"},
           {"\\@x", "\\@ is not allowed in math"},
           {"\xCE\xB1", "a character outside ASCII"},
           {"\\sigmma", "\\sigmma is not allowed in math (did you mean \\sigma?)"},
       }) {
    EXPECT_NE(math_refusal(tex).find(why), std::string::npos) << tex << " -> " << math_refusal(tex);
    // In a discussion: the file, the line and the formula.
    const std::string message = refusal_of("Some prose.\n\nThe value $" + tex + "$ here.\n");
    EXPECT_EQ(message.rfind("experiments/x.md:3: $", 0), 0u) << tex << " -> " << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
  // Display math too, on the line it starts.
  const std::string display = refusal_of("A\n\n$$\n\\immediate\\write18{id}\n$$\n");
  EXPECT_EQ(display.rfind("experiments/x.md:3: $$", 0), 0u) << display;
  EXPECT_NE(display.find("\\immediate is not allowed in math"), std::string::npos) << display;
}

// Every allowed command is one pdflatex sets (with amsmath and amssymb, as the report loads them)
// and one KaTeX sets (libjs-katex names it in its functions or symbols).
TEST(MathCommands, EveryAllowedCommandIsSetByPdflatexAndKatex) {
  const std::vector<std::string>& commands = allowed_math_commands();
  EXPECT_GT(commands.size(), 300u);
  for (const char* refused : {"input", "write", "def", "csname", "catcode", "immediate", "openin",
                              "href", "char", "verb", "color", "hspace"})
    EXPECT_FALSE(std::binary_search(commands.begin(), commands.end(), std::string(refused)))
        << refused;
  const std::string katex = read_file("/usr/share/javascript/katex/katex.js");
  if (katex.empty()) GTEST_SKIP() << "libjs-katex is not installed";
  for (const std::string& command : commands)
    EXPECT_NE(katex.find("\"\\\\" + command + "\""), std::string::npos)
        << "\\" << command << " is not named in KaTeX";
  if (!have("pdflatex")) GTEST_SKIP() << "pdflatex is not installed";
  // Each in a formula of its own, in a document set as the report sets math.
  ScratchDirectory dir("math-commands");
  std::string body;
  for (const std::string& c : commands) {
    std::string formula = "\\" + c + "{a}{b}";
    if (c == "left" || c == "right" || c == "middle") formula = "\\left( a \\middle| b \\right)";
    if (c.rfind("big", 0) == 0 || c.rfind("Big", 0) == 0) formula = "\\" + c + "( a \\" + c + ")";
    if (c == "limits" || c == "nolimits") formula = "\\sum\\" + c + "_{i} a";
    if (c == "not") formula = "a \\not= b";
    if (c == "hline") formula = "\\begin{array}{c} a \\\\ \\hline b \\end{array}";
    if (c == "begin" || c == "end") formula = "\\begin{matrix} a & b \\end{matrix}";
    if (c == "substack") formula = "\\sum_{\\substack{i \\\\ j}} a";
    body += "$" + formula + "$\\par\n";
  }
  for (const std::string& environment : allowed_math_environments()) {
    const std::string argument = environment == "alignedat" ? "{2}"
                                 : environment == "array"   ? "{cc}"
                                                            : "";
    const std::string rows = environment == "gathered" ? "a \\\\ b" : "a & b \\\\ c & d";
    body += "$\\begin{" + environment + "}" + argument + " " + rows + " \\end{" + environment +
            "}$\\par\n";
  }
  write_file(dir.path() / "math.tex",
             "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
             "\\usepackage{lmodern}\n\\usepackage{xcolor}\n\\usepackage{amsmath}\n"
             "\\usepackage{amssymb}\n\\begin{document}\n" +
                 body + "\\end{document}\n");
  const std::string command = "cd '" + dir.path().string() +
                              "' && pdflatex -no-shell-escape -interaction=nonstopmode "
                              "-halt-on-error math.tex > latex.log 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << read_file(dir.path() / "latex.log");
}

// The fixture experiment as a project, its discussion replaced by `discussion`.
void fixture_project(const fs::path& root, const std::string& discussion) {
  fs::create_directories(root / "outputs");
  fs::copy(fixtures() / "fixture-demo", root / "outputs" / "fixture-demo",
           fs::copy_options::recursive);
  fs::copy(fixtures() / "configs", root / "configs", fs::copy_options::recursive);
  write_file(root / "experiments" / "fixture-demo.md", discussion);
}

int run_in(const fs::path& root, const std::string& command) {
  const int status =
      std::system(("cd '" + root.string() + "' && " + command + " > run.log 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(MathCommands, ARefusedFormulaStopsItsPageAndItsExport) {
  ScratchDirectory root("math-refused");
  fixture_project(root.path(), "A formula: $\\input{/etc/hostname}$ and more.\n");
  EXPECT_EQ(run_in(root.path(), "'" CONVLAB_EXECUTABLE "' export outputs/fixture-demo --discussion "
                                "experiments/fixture-demo.md"),
            2);
  const std::string exported = read_file(root.path() / "run.log");
  EXPECT_NE(exported.find("experiments/fixture-demo.md:1: $\\input{/etc/hostname}$: \\input is "
                          "not allowed in math"),
            std::string::npos)
      << exported;
  EXPECT_FALSE(fs::exists(root.path() / "outputs/fixture-demo/export/section.tex"));
  // The notebook: no page for it, the message says why, status 2.
  EXPECT_EQ(run_in(root.path(), "'" CONVLAB_EXECUTABLE "' notebook --out nb"), 2);
  const std::string notebook = read_file(root.path() / "run.log");
  EXPECT_NE(notebook.find("experiments/fixture-demo.md:1: $\\input{/etc/hostname}$"),
            std::string::npos)
      << notebook;
  EXPECT_FALSE(fs::exists(root.path() / "nb/fixture-demo.html"));
}

TEST(MathCommands, APdfIsBuiltWithSafeFormulas) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex", "pdftotext"})
    if (!have(tool)) GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report)";
  ScratchDirectory root("math-pdf");
  fixture_project(root.path(), kSafeDiscussion);
  ASSERT_EQ(run_in(root.path(),
                   "'" CONVLAB_REPORT_SCRIPTS "/build-experiment-report.sh' '" CONVLAB_EXECUTABLE
                   "' outputs/fixture-demo"),
            0)
      << read_file(root.path() / "run.log");
  const fs::path pdf = root.path() / "outputs/fixture-demo/report.pdf";
  ASSERT_TRUE(fs::exists(pdf));
  ASSERT_EQ(run_in(root.path(), "pdftotext '" + pdf.string() + "' report.txt"), 0);
  const std::string text = read_file(root.path() / "report.txt");
  EXPECT_NE(text.find("The efficiency is"), std::string::npos);
  EXPECT_NE(text.find("otherwise"), std::string::npos);
}

// The second wall: were TeX that reads a file, writes one or runs a command ever to reach the
// report, the report's LaTeX build (latex-build.sh, as build-report.sh runs it) would refuse it.
TEST(MathCommands, TheReportsLatexReadsWritesAndRunsNothingOutsideItsFolder) {
  if (!have("latexmk") || !have("pdflatex")) GTEST_SKIP() << "latexmk is not installed";
  ScratchDirectory root("latex-walls");
  std::string hostname = read_file("/etc/hostname");
  while (!hostname.empty() && hostname.back() == '\n') hostname.pop_back();
  if (hostname.size() < 6) hostname = "no hostname to find";
  for (const auto& [name, tex] : std::vector<std::pair<std::string, std::string>>{
           {"input", "\\input{/etc/hostname}"},
           {"parent", "\\input{../outside.tex}"},
           {"openin", "\\newread\\r\\openin\\r=/etc/hostname \\read\\r to\\x \\x"},
           {"openout",
            "\\newwrite\\w\\immediate\\openout\\w=/tmp/convlab-wall-written.tex "
            "\\immediate\\write\\w{x}\\immediate\\closeout\\w x"},
           {"shell", "\\immediate\\write18{touch ran-shell}x"}}) {
    write_file(root.path() / "outside.tex", "the-text-outside\n");
    const fs::path folder = root.path() / name;
    write_file(folder / "template.tex",
               "\\documentclass{article}\n\\begin{document}\n" + tex + "\n\\end{document}\n");
    const std::string build = "cd '" + folder.string() +
                              "' && . '" CONVLAB_REPORT_SCRIPTS
                              "/latex-build.sh' && latex_build build doc template.tex";
    const int status = run_in(folder, build);
    const std::string log = read_file(folder / "build/doc.log");
    EXPECT_FALSE(fs::exists(folder / "ran-shell")) << name;
    EXPECT_FALSE(fs::exists("/tmp/convlab-wall-written.tex")) << name;
    if (name == "shell") {
      // Without shell escape \write18 writes its text to the log, and runs nothing.
      EXPECT_NE(log.find("runsystem(touch ran-shell)...disabled"), std::string::npos) << log;
    } else {
      EXPECT_NE(status, 0) << name << "\n" << log;
      EXPECT_EQ(log.find(name == "parent" ? "the-text-outside" : hostname), std::string::npos)
          << log;
    }
  }
  std::error_code ignored;
  fs::remove("/tmp/convlab-wall-written.tex", ignored);
}

}  // namespace
}  // namespace convlab

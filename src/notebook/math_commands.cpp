#include "notebook/math_commands.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/closest_name.hpp"
#include "core/message_text.hpp"

namespace convlab {
namespace {

// Each name is set by KaTeX and by pdflatex with amsmath and amssymb (the report loads both).
// Left out on purpose, though KaTeX has them: definitions (\def, \newcommand, \let, \global),
// \char, \verb, links and pictures (\href, \url, \includegraphics), HTML (\htmlClass ...), colours
// and lengths (\color, \hspace, \kern), labels and tags, \over and \choose; every TeX primitive
// that reads, writes or changes catcodes KaTeX never had.
const char* const kCommands[] = {
    // Greek
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta",
    "iota", "kappa", "varkappa", "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho",
    "sigma", "varsigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta",
    "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega", "digamma",
    // binary operators
    "pm", "mp", "times", "div", "cdot", "ast", "star", "circ", "bullet", "oplus", "ominus",
    "otimes", "oslash", "odot", "cup", "cap", "sqcup", "sqcap", "vee", "wedge", "lor", "land",
    "setminus", "smallsetminus", "amalg", "dagger", "ddagger", "wr", "diamond", "bigcirc",
    "triangleleft", "triangleright", "uplus",
    // relations
    "le", "leq", "ge", "geq", "ne", "neq", "approx", "approxeq", "sim", "simeq", "cong", "equiv",
    "propto", "ll", "gg", "lll", "ggg", "subset", "supset", "subseteq", "supseteq", "subsetneq",
    "supsetneq", "in", "notin", "ni", "mid", "nmid", "parallel", "nparallel", "perp", "prec",
    "succ", "preceq", "succeq", "asymp", "doteq", "models", "vdash", "dashv", "bowtie", "smile",
    "frown", "leqslant", "geqslant", "lesssim", "gtrsim", "nless", "ngtr", "nleq", "ngeq",
    "sqsubseteq", "sqsupseteq", "triangleq",
    // arrows
    "to", "gets", "rightarrow", "leftarrow", "Rightarrow", "Leftarrow", "leftrightarrow",
    "Leftrightarrow", "longrightarrow", "longleftarrow", "Longrightarrow", "Longleftarrow",
    "longleftrightarrow", "Longleftrightarrow", "mapsto", "longmapsto", "hookrightarrow",
    "hookleftarrow", "uparrow", "downarrow", "Uparrow", "Downarrow", "updownarrow", "Updownarrow",
    "nearrow", "searrow", "swarrow", "nwarrow", "implies", "impliedby", "iff", "rightharpoonup",
    "leftharpoonup", "rightleftharpoons", "leadsto",
    // big operators
    "sum", "prod", "coprod", "int", "iint", "iiint", "oint", "bigcup", "bigcap", "bigsqcup",
    "bigvee", "bigwedge", "bigoplus", "bigotimes", "bigodot", "biguplus", "limits", "nolimits",
    // functions
    "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "coth", "exp", "log", "ln", "lg", "lim", "liminf", "limsup", "sup", "inf", "max", "min", "arg",
    "det", "dim", "gcd", "hom", "ker", "deg", "Pr", "bmod", "pmod", "pod", "mod", "operatorname",
    // fractions and roots
    "frac", "dfrac", "tfrac", "cfrac", "binom", "dbinom", "tbinom", "sqrt",
    // accents
    "hat", "widehat", "tilde", "widetilde", "bar", "overline", "underline", "vec", "overrightarrow",
    "overleftarrow", "dot", "ddot", "acute", "grave", "breve", "check", "mathring", "overbrace",
    "underbrace",
    // fonts and text
    "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathcal", "mathbb", "mathfrak", "mathnormal",
    "boldsymbol", "text", "textrm", "textbf", "textit", "textsf", "texttt", "textnormal",
    // delimiters and their sizes
    "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
    "biggl", "biggr", "Biggl", "Biggr", "langle", "rangle", "lfloor", "rfloor", "lceil", "rceil",
    "lvert", "rvert", "lVert", "rVert", "vert", "Vert", "lbrace", "rbrace", "backslash",
    // spaces and dots
    "quad", "qquad", "thinspace", "enspace", "medspace", "thickspace", "negthinspace", "ldots",
    "cdots", "vdots", "ddots", "dots", "dotsc", "dotsb", "dotsm", "dotsi",
    // symbols
    "infty", "partial", "nabla", "forall", "exists", "nexists", "neg", "lnot", "emptyset",
    "varnothing", "ell", "hbar", "hslash", "imath", "jmath", "Re", "Im", "wp", "aleph", "beth",
    "prime", "backprime", "angle", "measuredangle", "triangle", "square", "Box", "checkmark",
    "surd", "top", "bot", "flat", "natural", "sharp", "clubsuit", "diamondsuit", "heartsuit",
    "spadesuit", "therefore", "because", "colon",
    // layout
    "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle", "overset", "underset",
    "stackrel", "substack", "boxed", "not", "phantom", "hphantom", "vphantom", "smash", "hline",
    "begin", "end"};

const char* const kEnvironments[] = {"matrix",  "pmatrix",  "bmatrix",     "Bmatrix",
                                     "vmatrix", "Vmatrix",  "smallmatrix", "cases",
                                     "aligned", "gathered", "alignedat",   "array"};

// Control symbols: \, \; \: \! \> and a control space (spaces), escaped specials, and \\ (a new row
// of an environment).
const std::string_view kControlSymbols = ",;:!> {}|#%&_$\\";

const std::set<std::string>& command_set() {
  static const std::set<std::string> set(std::begin(kCommands), std::end(kCommands));
  return set;
}

bool is_environment(const std::string& name) {
  return std::find(std::begin(kEnvironments), std::end(kEnvironments), name) !=
         std::end(kEnvironments);
}

class MathCheck {
 public:
  explicit MathCheck(std::string_view tex) : tex_(tex) {}

  std::string refusal() {
    while (at_ < tex_.size() && why_.empty()) step();
    if (!why_.empty()) return why_;
    if (!environments_.empty())
      return "\\begin{" + environments_.back() + "} is not closed: write \\end{" +
             environments_.back() + "}";
    if (braces_ > 0) return "a { is not closed by a }";
    return "";
  }

 private:
  void step() {
    const char c = tex_[at_];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80)
      return refuse(
          "a character outside ASCII: the report's pdflatex sets none in math; write "
          "it as a command (\\alpha, not \xCE\xB1)");
    if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f)
      return refuse("a control character");
    if (c == '\\') return command();
    ++at_;
    switch (c) {
      case '%':
        return refuse("% starts a TeX comment: write \\% for a percent sign");
      case '#':
        return refuse("# is TeX's parameter character: write \\# for the sign");
      case '$':
        return refuse("$ inside math: a formula is $...$ or $$...$$ and holds no other");
      case '^':
        if (at_ < tex_.size() && tex_[at_] == '^')
          return refuse("^^ is TeX's notation for a character by its code: write x^{y^z}");
        return;
      case '&':
        if (environments_.empty())
          return refuse("& separates the columns of an environment (aligned, matrix, array)");
        return;
      case '{':
        ++braces_;
        return;
      case '}':
        if (braces_ == 0) return refuse("a } without its {");
        --braces_;
        return;
      default:
        return;
    }
  }

  void command() {
    const size_t start = ++at_;
    if (at_ >= tex_.size()) return refuse("a \\ at the end");
    if (!std::isalpha(static_cast<unsigned char>(tex_[at_]))) {
      const char symbol = tex_[at_++];
      if (kControlSymbols.find(symbol) == std::string_view::npos)
        return refuse("\\" + clipped(std::string(1, symbol)) + " is not allowed in math");
      if (symbol == '\\' && environments_.empty())
        return refuse("\\\\ starts a new row of an environment (aligned, gathered, matrix)");
      return;
    }
    while (at_ < tex_.size() && std::isalpha(static_cast<unsigned char>(tex_[at_]))) ++at_;
    const std::string name(tex_.substr(start, at_ - start));
    if (!command_set().count(name)) {
      const std::string close = closest_name(name, allowed_math_commands());
      return refuse("\\" + clipped(name, 40) + " is not allowed in math" +
                    (close.empty() ? "" : " (did you mean \\" + close + "?)") +
                    "; math may use the commands KaTeX and LaTeX both set (docs/notebook.md)");
    }
    if (name == "begin" || name == "end") environment(name == "begin");
  }

  // \begin{NAME} or \end{NAME}: an allowed environment, each end closing the last begin.
  void environment(bool begin) {
    while (at_ < tex_.size() && tex_[at_] == ' ') ++at_;
    const size_t close = tex_.find('}', at_);
    if (at_ >= tex_.size() || tex_[at_] != '{' || close == std::string_view::npos)
      return refuse(std::string(begin ? "\\begin" : "\\end") + " without {environment}");
    const std::string name(tex_.substr(at_ + 1, close - at_ - 1));
    at_ = close + 1;
    if (!is_environment(name))
      return refuse("the environment '" + clipped(name, 40) +
                    "' is not allowed in math (matrix, pmatrix, bmatrix, cases, aligned, "
                    "gathered, array, ...)");
    if (begin) {
      environments_.push_back(name);
      return;
    }
    if (environments_.empty() || environments_.back() != name)
      return refuse("\\end{" + name + "} closes no \\begin{" + name + "}");
    environments_.pop_back();
  }

  void refuse(const std::string& why) { why_ = why; }

  std::string_view tex_;
  size_t at_ = 0;
  size_t braces_ = 0;
  std::vector<std::string> environments_;
  std::string why_;
};

}  // namespace

std::string math_refusal(std::string_view tex) {
  return MathCheck(tex).refusal();
}

const std::vector<std::string>& allowed_math_commands() {
  static const std::vector<std::string> names(command_set().begin(), command_set().end());
  return names;
}

const std::vector<std::string>& allowed_math_environments() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> sorted(std::begin(kEnvironments), std::end(kEnvironments));
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }();
  return names;
}

}  // namespace convlab

#include "notebook/ties.hpp"

#include <cctype>
#include <set>

namespace convlab {
namespace {

const std::set<std::string>& units() {
  static const std::set<std::string> names = {"ms",     "s",      "ns", "ps",   "us",   "\xC2\xB5s",
                                              "MB",     "GB",     "KB", "kB",   "TB",   "KiB",
                                              "MiB",    "GiB",    "B",  "GB/s", "TB/s", "GMAC/s",
                                              "TFMA/s", "Mpixel", "MP", "MHz",  "GHz",  "W"};
  return names;
}

// Words a number follows as its name: "seed 000", "Table 5", "RTX 3060".
const std::set<std::string>& numbered() {
  static const std::set<std::string> names = {"seed",    "Seed", "Table", "Figure",
                                              "Section", "RTX",  "GTX",   "Sec."};
  return names;
}

bool word_char(char c) {
  return c != ' ' && c != '\n' && c != '\t';
}

// The word after a space at `at`, without trailing punctuation: "ms" of "ms,".
std::string word_after(const std::string& text, size_t at) {
  size_t end = at + 1;
  while (end < text.size() && word_char(text[end])) ++end;
  std::string word = text.substr(at + 1, end - at - 1);
  while (!word.empty() && std::string(",.;:)").find(word.back()) != std::string::npos &&
         !units().count(word))
    word.pop_back();
  return word;
}

// The word before a space at `at`, without leading punctuation: "seed" of "(seed".
std::string word_before(const std::string& text, size_t at) {
  size_t begin = at;
  while (begin > 0 && word_char(text[begin - 1])) --begin;
  while (begin < at && std::string("([\"'").find(text[begin]) != std::string::npos) ++begin;
  return text.substr(begin, at - begin);
}

}  // namespace

const char* const kNoBreakSpace = "\xC2\xA0";

bool ends_in_number(const std::string& text) {
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text.back()));
}

std::string tie_spaces(const std::string& text, bool after_number) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != ' ') {
      out += text[i];
      continue;
    }
    const std::string before = word_before(text, i);
    const std::string after = word_after(text, i);
    const bool number_before = before.empty() ? (i == 0 && after_number) : ends_in_number(before);
    const bool unit = number_before && units().count(after) > 0;
    const bool named = numbered().count(before) > 0 && !after.empty() &&
                       std::isdigit(static_cast<unsigned char>(after[0]));
    out += unit || named ? kNoBreakSpace : " ";
  }
  return out;
}

}  // namespace convlab

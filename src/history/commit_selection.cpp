#include "history/commit_selection.hpp"

#include <set>
#include <sstream>

namespace convlab {
namespace {

constexpr char kFieldSeparator = '\x1f';

void check_revision(const std::string& revision, const std::string& argument) {
  if (revision.empty()) throw HistoryError("COMMITS: '" + argument + "' names an empty revision");
  if (revision.front() == '-')
    throw HistoryError("COMMITS: '" + argument + "': a revision cannot start with '-'");
  for (const char c : revision)
    if (static_cast<unsigned char>(c) <= ' ' || c == '\x7f')
      throw HistoryError("COMMITS: '" + argument +
                         "': a revision holds no space or control character");
}

CommitSelection::Part parse_part(const std::string& text, const std::string& argument) {
  if (text.find("...") != std::string::npos)
    throw HistoryError("COMMITS: '" + argument +
                       "': A...B (the symmetric difference) is not a history; give A..B");
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) {
    check_revision(text, argument);
    return {false, "", text};
  }
  CommitSelection::Part part{true, text.substr(0, dots), text.substr(dots + 2)};
  check_revision(part.from, argument);
  check_revision(part.to, argument);
  return part;
}

}  // namespace

CommitSelection parse_commit_selection(const std::vector<std::string>& arguments) {
  CommitSelection selection;
  for (const std::string& argument : arguments) {
    std::istringstream items(argument);
    std::string item;
    bool any = false;
    while (std::getline(items, item, ',')) {
      selection.parts.push_back(parse_part(item, argument));
      any = true;
    }
    if (!any || argument.back() == ',')
      throw HistoryError("COMMITS: '" + argument + "' names an empty revision");
  }
  if (selection.parts.empty()) throw HistoryError("COMMITS: no commit given");
  return selection;
}

std::vector<std::string> part_ids_argv(const CommitSelection::Part& part) {
  if (part.range)
    return {"git", "rev-list", "--first-parent", "--reverse", part.from + ".." + part.to, "--"};
  return {"git", "rev-parse", "--verify", "--end-of-options", part.to + "^{commit}"};
}

std::vector<std::string> commit_facts_argv(const std::vector<std::string>& ids) {
  std::vector<std::string> argv{"git", "show", "--no-patch", "--no-walk=unsorted",
                                "--format=%H%x1f%ct%x1f%cI%x1f%s"};
  argv.insert(argv.end(), ids.begin(), ids.end());
  argv.push_back("--");
  return argv;
}

HistoryCommit commit_from_show_line(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t end = line.find(kFieldSeparator, start);
    if (end == std::string::npos)
      throw HistoryError("git show printed an unexpected line: " + line);
    fields.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  HistoryCommit commit;
  commit.id = fields[0];
  try {
    commit.time = std::stoll(fields[1]);
  } catch (const std::exception&) {
    throw HistoryError("git show printed an unexpected line: " + line);
  }
  commit.date = fields[2];
  commit.subject = line.substr(start);
  if (commit.id.size() < 40) throw HistoryError("git show printed an unexpected line: " + line);
  return commit;
}

std::vector<std::string> every_nth(const std::vector<std::string>& ids, int every) {
  if (every <= 1) return ids;
  std::vector<std::string> kept;
  const std::size_t step = static_cast<std::size_t>(every);
  for (std::size_t i = 0; i < ids.size(); ++i)
    if ((ids.size() - 1 - i) % step == 0) kept.push_back(ids[i]);
  return kept;
}

std::vector<std::string> unique_in_order(const std::vector<std::string>& ids) {
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (const std::string& id : ids)
    if (seen.insert(id).second) unique.push_back(id);
  return unique;
}

}  // namespace convlab

// Which commits `convlab history run` measures: the COMMITS arguments as git reads them. A range
// A..B is git's (B and its first-parent ancestors that A does not reach: A itself is left out,
// as `git log A..B` leaves it out); a list A,B,C or several arguments names commits one by one;
// --every N keeps every Nth of them counted back from the newest, which is always kept. Only
// argument vectors are made here; app/ runs git (no shell reads any of it).
#pragma once

#include <string>
#include <vector>

#include "history/history_index.hpp"

namespace convlab {

struct CommitSelection {
  struct Part {
    bool range = false;
    std::string from, to;  // a range: from..to; a commit: `to`
  };
  std::vector<Part> parts;  // in the order given
};

// Parses COMMITS arguments; throws HistoryError for an empty one, "A...B", a revision that
// starts with '-' (git would take it for an option) or holds a space or control character.
CommitSelection parse_commit_selection(const std::vector<std::string>& arguments);

// `git rev-list --first-parent --reverse FROM..TO` or `git rev-parse --verify REV^{commit}`: the
// ids of the part, oldest first, one a line.
std::vector<std::string> part_ids_argv(const CommitSelection::Part& part);

// `git show --no-patch --format=... IDS`: one line per commit, read by commit_from_show_line.
std::vector<std::string> commit_facts_argv(const std::vector<std::string>& ids);
// A line of commit_facts_argv's output: id, committer time, date and subject, separated by 0x1f.
// Throws HistoryError for a line of another shape.
HistoryCommit commit_from_show_line(const std::string& line);

// Every `every`th id counted back from the last (newest), which is kept: with every 3, ids
// 1..7 keep 1, 4 and 7. every 1 keeps all; the order is kept.
std::vector<std::string> every_nth(const std::vector<std::string>& ids, int every);

// The ids of several parts in order, each once (its first place).
std::vector<std::string> unique_in_order(const std::vector<std::string>& ids);

}  // namespace convlab

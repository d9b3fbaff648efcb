#include "store/results_journal.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/file_io.hpp"
#include "store/results_merge.hpp"
#include "store/results_schema.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

const char* kind_name(JournalLine::Kind kind) {
  switch (kind) {
    case JournalLine::Kind::experiment:
      return "experiment";
    case JournalLine::Kind::run:
      return "run";
    case JournalLine::Kind::record:
      return "record";
    case JournalLine::Kind::gallery:
      return "gallery";
    case JournalLine::Kind::part:
      return "part";
  }
  return "";
}

std::optional<JournalLine::Kind> kind_named(const std::string& name) {
  for (auto kind : {JournalLine::Kind::experiment, JournalLine::Kind::run,
                    JournalLine::Kind::record, JournalLine::Kind::gallery, JournalLine::Kind::part})
    if (name == kind_name(kind)) return kind;
  return std::nullopt;
}

// Checks a line's value as results.json's checks would check it there, naming the journal line.
void check_line(const JournalLine& line, const std::string& where) {
  json document = json::object();
  switch (line.kind) {
    case JournalLine::Kind::experiment:
      document["experiment"] = line.value;
      break;
    case JournalLine::Kind::run:
      document["run"] = line.value;
      break;
    case JournalLine::Kind::record:
      document["records"] = json::array({line.value});
      break;
    case JournalLine::Kind::gallery:
      document["gallery"] = json::array({line.value});
      break;
    case JournalLine::Kind::part:
      try {
        part_block_from_json(line.value);
      } catch (const std::invalid_argument& error) {
        throw ResultsFileError(where + ": part." + error.what());
      }
      break;
  }
  check_results_types(document, where);
  // What fold_journal reads of the line, read once here so that folding cannot fail on it.
  try {
    switch (line.kind) {
      case JournalLine::Kind::record:
        record_from_json(line.value);
        break;
      case JournalLine::Kind::run:
        run_block_from_json(line.value);
        break;
      case JournalLine::Kind::experiment:
      case JournalLine::Kind::gallery:
        for (const char* key : {"name", "image", "kernel", "border"}) line.value.value(key, "");
        break;
      case JournalLine::Kind::part:
        break;  // read above
    }
  } catch (const std::exception& error) {
    throw ResultsFileError(where + ": " + kind_name(line.kind) + "." + error.what());
  }
}

// The line as a journal line, or why it is not one.
std::optional<JournalLine> parse_line(const std::string& content, std::string& reason) {
  JsonTextScan scan(kMaxResultsNesting, kMaxResultsWhiteSpace);
  if (const std::string problem = scan.take(content); !problem.empty()) {
    reason = problem.substr(0, problem.find(", which"));
    return std::nullopt;
  }
  const json parsed = json::parse(content, nullptr, false);
  if (parsed.is_discarded()) {
    reason = "not JSON; a write cut short, or an edit";
    return std::nullopt;
  }
  if (!parsed.is_object() || parsed.size() != 1 || !kind_named(parsed.begin().key())) {
    reason = "expected one of experiment, run, record, gallery or part";
    return std::nullopt;
  }
  JournalLine line{*kind_named(parsed.begin().key()), parsed.begin().value()};
  try {
    check_line(line, "journal");
  } catch (const ResultsFileError& error) {
    // "journal: records[0].key: ..." as results.json's checks word it: "record.key: ...".
    reason = std::string(error.what()).substr(std::string("journal: ").size());
    for (const char* list : {"records[0]", "gallery[0]"})
      if (reason.rfind(list, 0) == 0)
        reason = kind_name(line.kind) + reason.substr(std::string(list).size());
    reason = reason.substr(0, reason.find(" (docs/results-schema.md;"));  // advice for a file
    return std::nullopt;
  }
  return line;
}

}  // namespace

std::string journal_path_for(const std::string& results_path) {
  return std::filesystem::path(results_path).replace_extension(".journal").string();
}

std::string rejected_path_for(const std::string& journal_path) {
  return journal_path + ".rejected";
}

void append_journal(const std::string& journal_path, const std::vector<JournalLine>& lines) {
  std::string text;
  for (const auto& line : lines) text += json{{kind_name(line.kind), line.value}}.dump() + "\n";
  try {
    AppendFile journal(journal_path);
    // A line cut short by a crash is ended first, so that it stays one ignorable line.
    const auto last = journal.last_byte();
    if (last && *last != '\n') text.insert(0, "\n");
    journal.write(text);
    journal.flush_to_disk();
    journal.close();
  } catch (const FileError& error) {
    throw ResultsFileError(error.what());
  }
}

JournalContents read_journal_contents(const std::string& journal_path) {
  JournalContents contents;
  std::optional<std::string> read;
  try {
    // A journal is read whole: its size is held to a results file's bound first.
    struct stat info {};
    if (::stat(journal_path.c_str(), &info) == 0 && S_ISREG(info.st_mode))
      check_results_file_size(journal_path, static_cast<std::uint64_t>(info.st_size));
    read = read_file_if_present(journal_path);
  } catch (const FileError& error) {
    throw ResultsFileError(std::string(error.what()) + "; move it away");
  }
  if (!read) return contents;
  const std::string& text = *read;
  size_t start = 0, number = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut short by a crash: never reported done
    std::string content = text.substr(start, end - start);
    start = end + 1;
    ++number;
    std::string reason;
    if (auto line = parse_line(content, reason))
      contents.lines.push_back(std::move(*line));
    else
      contents.rejected.push_back({number, std::move(content), reason});
  }
  return contents;
}

std::vector<JournalLine> read_journal(const std::string& journal_path) {
  JournalContents contents = read_journal_contents(journal_path);
  warn_of_rejected_lines(journal_path, contents.rejected);
  return std::move(contents.lines);
}

void warn_of_rejected_lines(const std::string& journal_path,
                            const std::vector<RejectedLine>& rejected) {
  // Readers of one process (the runner reads, then folds) say it once.
  static std::mutex mutex;
  static std::set<std::string> warned;
  const std::lock_guard<std::mutex> lock(mutex);
  for (const auto& line : rejected) {
    if (!warned.insert(journal_path + "\n" + std::to_string(line.number) + "\n" + line.text).second)
      continue;
    std::cerr << "convlab: " << journal_path << ": line " << line.number << ": skipped ("
              << line.reason << "); every other line is read, and this one is set aside in "
              << rejected_path_for(journal_path) << " when the journal is folded into "
              << "results.json\n";
  }
}

void set_aside_rejected_lines(const std::string& journal_path,
                              const std::vector<RejectedLine>& rejected) {
  if (rejected.empty()) return;
  std::string text;
  for (const auto& line : rejected) text += line.text + "\n";
  try {
    AppendFile file(rejected_path_for(journal_path));
    if (const auto last = file.last_byte(); last && *last != '\n') text.insert(0, "\n");
    file.write(text);
    file.flush_to_disk();
    file.close();
  } catch (const FileError& error) {
    throw ResultsFileError(std::string(error.what()) + "; the journal is kept as it is");
  }
}

void fold_journal(ResultsFile& results, const std::vector<JournalLine>& lines,
                  const std::string& path) {
  RecordMerger records(results.records);
  std::set<std::string> journal_runs;
  for (const auto& line : lines) {
    switch (line.kind) {
      case JournalLine::Kind::experiment: {
        const std::string name = line.value.value("name", "");
        const std::string earlier = results.experiment.value("name", "");
        if (!earlier.empty() && earlier != name)
          throw ResultsFileError(path + ": holds experiment '" + earlier + "', not '" + name +
                                 "'; choose another --out");
        results.experiment = line.value;
        break;
      }
      case JournalLine::Kind::run: {
        RunBlock block = run_block_from_json(line.value);
        journal_runs.insert(block.id);
        const auto run = std::find_if(results.runs.begin(), results.runs.end(),
                                      [&](const RunBlock& r) { return r.id == block.id; });
        if (run != results.runs.end())
          *run = std::move(block);
        else
          results.runs.push_back(std::move(block));
        break;
      }
      case JournalLine::Kind::record:
        records.add_or_replace(record_from_json(line.value));
        break;
      case JournalLine::Kind::gallery: {
        // A newer entry for the same image, kernel and border replaces the earlier one.
        const auto same = std::find_if(
            results.gallery.begin(), results.gallery.end(), [&](const nlohmann::json& entry) {
              return entry.value("image", "") == line.value.value("image", "") &&
                     entry.value("kernel", "") == line.value.value("kernel", "") &&
                     entry.value("border", "") == line.value.value("border", "");
            });
        if (same != results.gallery.end())
          *same = line.value;
        else
          results.gallery.push_back(line.value);
        break;
      }
      case JournalLine::Kind::part:
        results.part = part_block_from_json(line.value);
        break;
    }
  }
  keep_referenced_runs(results.runs, results.records, journal_runs);
}

}  // namespace convlab

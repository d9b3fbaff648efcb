#include "results/results_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "results/results_merge.hpp"
#include "results/results_schema.hpp"

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

void write_all(int fd, const std::string& text, const std::string& path) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int code = errno;
      ::close(fd);
      throw ResultsFileError(path + ": cannot append (" + std::strerror(code) + ")");
    }
    written += static_cast<size_t>(n);
  }
}

// A new file's name is durable once its folder is flushed too.
void flush_folder(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
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
  if (line.kind == JournalLine::Kind::record) {
    try {
      record_from_json(line.value);
    } catch (const std::invalid_argument& error) {
      throw ResultsFileError(where + ": record." + error.what());
    }
  }
}

}  // namespace

std::string journal_path_for(const std::string& results_path) {
  return std::filesystem::path(results_path).replace_extension(".journal").string();
}

void append_journal(const std::string& journal_path, const std::vector<JournalLine>& lines) {
  std::string text;
  for (const auto& line : lines) text += json{{kind_name(line.kind), line.value}}.dump() + "\n";
  const bool created = !std::filesystem::exists(journal_path);
  const int fd = ::open(journal_path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    throw ResultsFileError(journal_path + ": cannot append (" + std::strerror(errno) + ")");
  // A line cut short by a crash is ended first, so that it stays one ignorable line.
  const off_t size = ::lseek(fd, 0, SEEK_END);
  char last = '\n';
  if (size > 0 && ::pread(fd, &last, 1, size - 1) == 1 && last != '\n') text.insert(0, "\n");
  write_all(fd, text, journal_path);
  if (::fsync(fd) != 0) {
    const int code = errno;
    ::close(fd);
    throw ResultsFileError(journal_path + ": cannot flush to disk (" + std::strerror(code) + ")");
  }
  ::close(fd);
  if (created) flush_folder(journal_path);
}

std::vector<JournalLine> read_journal(const std::string& journal_path) {
  std::vector<JournalLine> lines;
  std::error_code error;
  if (!std::filesystem::exists(journal_path, error)) return lines;
  std::ifstream file(journal_path, std::ios::binary);
  if (!file) throw ResultsFileError(journal_path + ": cannot read (" + std::strerror(errno) + ")");
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string text = buffer.str();
  size_t start = 0, number = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut short by a crash: never reported done
    const std::string content = text.substr(start, end - start);
    start = end + 1;
    ++number;
    const std::string where = journal_path + ": line " + std::to_string(number);
    const json parsed = json::parse(content, nullptr, false);
    if (parsed.is_discarded()) continue;  // a torn write that a later append ended
    if (!parsed.is_object() || parsed.size() != 1 || !kind_named(parsed.begin().key()))
      throw ResultsFileError(where +
                             ": expected one of experiment, run, record, gallery or part; move the "
                             "journal away to start afresh from results.json");
    JournalLine line{*kind_named(parsed.begin().key()), parsed.begin().value()};
    check_line(line, where);
    lines.push_back(std::move(line));
  }
  return lines;
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

#include "results/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>

#include "results/derive.hpp"
#include "results/machine.hpp"
#include "results/results_journal.hpp"
#include "results/results_schema.hpp"

namespace convlab {
namespace {

std::string temporary_name(const std::string& path) {
  std::random_device entropy;
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%ld.%08x.tmp", static_cast<long>(::getpid()), entropy());
  return path + suffix;
}

}  // namespace

namespace {

ResultsFile read_results_file(const std::string& path) {
  ResultsFile results;
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) return results;
  if (error) throw ResultsFileError(path + ": cannot read (" + error.message() + ")");
  if (status.type() != std::filesystem::file_type::regular)
    throw ResultsFileError(path + ": not a regular file; move it away to start afresh");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ResultsFileError(path + ": cannot read (" + std::strerror(errno) + ")");
  // Parsing from memory is about a third faster than from the stream, character by character.
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  // Records and run blocks are checked and made typed as the parser finishes each one, and their
  // JSON is dropped: a file of 100,000 records never exists as one document. A problem of one is
  // reported after the schema version was found to be this one.
  using Event = nlohmann::json::parse_event_t;
  std::string member;  // the top-level key being parsed
  std::size_t index = 0;
  std::optional<ResultsFileError> problem;
  const auto take_items = [&](int depth, Event event, nlohmann::json& parsed) {
    if (depth == 1 && event == Event::key) {
      member = parsed.get<std::string>();
      index = 0;
    }
    if ((member != "records" && member != "runs") || depth != 2 ||
        (event != Event::object_end && event != Event::value))
      return true;
    const std::size_t i = index++;
    if (problem) return false;
    try {
      if (member == "runs") {
        check_run_types(parsed, i, path);
        results.runs.push_back(run_block_from_json(parsed));
      } else {
        check_record_types(parsed, i, path);
        results.records.push_back(record_from_json(parsed));
      }
    } catch (const ResultsFileError& error) {
      problem = error;
    } catch (const std::invalid_argument& error) {
      problem =
          ResultsFileError(path + ": " + member + "[" + std::to_string(i) + "]." + error.what() +
                           " (docs/results-schema.md; move the file away to start afresh)");
    }
    return false;
  };
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text, take_items);
  } catch (const nlohmann::json::exception& parse_error) {
    throw ResultsFileError(path + ": not valid JSON (" + parse_error.what() +
                           "); move it away to start afresh");
  }
  text.clear();
  text.shrink_to_fit();
  if (!document.is_object() || !document.contains("schema_version") ||
      document["schema_version"] != kResultsSchemaVersion)
    throw ResultsFileError(path + ": schema_version is not " +
                           std::to_string(kResultsSchemaVersion));
  if (problem) throw *problem;
  // Lists whose items were all taken are empty now; anything else is checked as it is.
  for (const char* list : {"records", "runs"})
    if (document.contains(list) && document[list].is_array()) document.erase(list);
  check_results_types(document, path);
  results.experiment = document.value("experiment", nlohmann::json::object());
  results.gallery = document.value("gallery", nlohmann::json::array());
  if (document.contains("part")) {
    try {
      results.part = part_block_from_json(document["part"]);
    } catch (const std::invalid_argument& error) {
      throw ResultsFileError(path + ": part." + error.what() + " (docs/results-schema.md)");
    }
  }
  attach_machines(results.records, results.runs);
  return results;
}

}  // namespace

ResultsFile read_results(const std::string& path) {
  ResultsFile results = read_results_file(path);
  const std::vector<JournalLine> journal = read_journal(journal_path_for(path));
  if (journal.empty()) return results;
  fold_journal(results, journal, path);
  derive_metrics(results);
  return results;
}

nlohmann::json records_json(const std::vector<Record>& records) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& record : records) list.push_back(to_json(record));
  return list;
}

namespace {

// Every member of the file; the lists of run blocks and records are left empty when `lists` is
// false (the writer takes them one at a time).
nlohmann::json document_of(const ResultsFile& results, bool lists) {
  nlohmann::json runs_json = nlohmann::json::array();
  if (lists)
    for (const auto& run : results.runs) runs_json.push_back(to_json(run));
  nlohmann::json document{
      {"schema_version", kResultsSchemaVersion},
      {"experiment", results.experiment},
      {"run", results.runs.empty() ? nlohmann::json(nullptr) : to_json(results.runs.back())},
      {"runs", runs_json},
      {"records", lists ? records_json(results.records) : nlohmann::json::array()},
      {"gallery", results.gallery}};
  if (results.part) document["part"] = to_json(*results.part);
  return document;
}

}  // namespace

nlohmann::json to_json(const ResultsFile& results) {
  return document_of(results, true);
}

namespace {

// `value` as dump(1) writes it at `depth` inside the document: every line after the first
// indented by `depth` more spaces (JSON text holds no raw newline but between tokens).
std::string dump_at_depth(const nlohmann::json& value, int depth) {
  const std::string text = value.dump(1);
  const std::string indent = "\n" + std::string(static_cast<size_t>(depth), ' ');
  std::string indented;
  indented.reserve(text.size() + text.size() / 8);
  size_t start = 0;
  for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', start)) {
    indented.append(text, start, at - start).append(indent);
    start = at + 1;
  }
  return indented.append(text, start, std::string::npos);
}

}  // namespace

void write_results_text(const ResultsFile& results,
                        const std::function<void(const std::string&)>& emit) {
  // The members in the order a JSON object keeps them (by name), run blocks and records one at a
  // time, so that no document of the whole file is ever built.
  const nlohmann::json rest = document_of(results, false);
  const auto list = [&](const auto& items) {
    if (items.empty()) return emit("[]");
    emit("[");
    for (size_t i = 0; i < items.size(); ++i)
      emit((i ? ",\n  " : "\n  ") + dump_at_depth(to_json(items[i]), 2));
    emit("\n ]");
  };
  emit("{");
  bool first = true;
  for (auto member = rest.begin(); member != rest.end(); ++member) {
    emit(std::string(first ? "\n" : ",\n") + " " + nlohmann::json(member.key()).dump() + ": ");
    first = false;
    if (member.key() == "records")
      list(results.records);
    else if (member.key() == "runs")
      list(results.runs);
    else
      emit(dump_at_depth(member.value(), 1));
  }
  emit("\n}\n");
}

void write_results_atomically(const std::string& path, const ResultsFile& results) {
  const std::string temporary = temporary_name(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw ResultsFileError(temporary + ": cannot write (" + std::strerror(errno) + ")");
  const auto fail = [&](const std::string& what) {
    const int code = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    throw ResultsFileError(temporary + ": " + what + " (" + std::strerror(code) + ")");
  };
  std::string buffer;
  const auto flush = [&] {
    size_t written = 0;
    while (written < buffer.size()) {
      const ssize_t n = ::write(fd, buffer.data() + written, buffer.size() - written);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("write failed");
      }
      written += static_cast<size_t>(n);
    }
    buffer.clear();
  };
  write_results_text(results, [&](const std::string& piece) {
    buffer += piece;
    if (buffer.size() >= (size_t(1) << 20)) flush();
  });
  flush();
  if (::fsync(fd) != 0) fail("cannot flush to disk");
  ::close(fd);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int code = errno;
    ::unlink(temporary.c_str());
    throw ResultsFileError(path + ": cannot replace (" + std::strerror(code) + ")");
  }
}

}  // namespace convlab

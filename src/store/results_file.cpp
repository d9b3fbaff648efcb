#include "store/results_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <istream>
#include <optional>
#include <streambuf>

#include "core/file_io.hpp"
#include "core/gzip_reader.hpp"
#include "store/derive.hpp"
#include "store/machine.hpp"
#include "store/results_journal.hpp"
#include "store/results_schema.hpp"

namespace convlab {
namespace {

// Closes a descriptor when the reader is done with it, however it ends.
struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

// The bytes of an open results file as the parser asks for them, a piece at a time, each looked
// at first (JsonTextScan): a file is never held whole, and nothing nested too deep or a run of
// white space the parser would keep reaches it.
// A compressed file's bytes are decompressed on the way (`gzip`, when given).
class ResultsText : public std::streambuf {
 public:
  ResultsText(int fd, std::string path, GzipReader* gzip)
      : fd_(fd), path_(std::move(path)), gzip_(gzip) {}

 protected:
  int_type underflow() override {
    const ssize_t got = gzip_ ? decompressed() : plain();
    if (got == 0) return traits_type::eof();
    const std::string problem = scan_.take({piece_.data(), static_cast<std::size_t>(got)});
    if (!problem.empty())
      throw ResultsFileError(path_ + ": " + problem + "; move it away to start afresh");
    setg(piece_.data(), piece_.data(), piece_.data() + got);
    return traits_type::to_int_type(piece_[0]);
  }

 private:
  ssize_t plain() {
    ssize_t got;
    do {
      got = ::read(fd_, piece_.data(), piece_.size());
    } while (got < 0 && errno == EINTR);
    if (got < 0) throw ResultsFileError(path_ + ": cannot read (" + std::strerror(errno) + ")");
    return got;
  }

  ssize_t decompressed() {
    try {
      return static_cast<ssize_t>(gzip_->read(piece_.data(), piece_.size()));
    } catch (const FileError& error) {
      throw ResultsFileError(std::string(error.what()) + "; move it away to start afresh");
    }
  }

  int fd_;
  std::string path_;
  GzipReader* gzip_;
  std::array<char, 1 << 16> piece_{};
  JsonTextScan scan_{kMaxResultsNesting, kMaxResultsWhiteSpace};
};

// The open file, or -1 when nothing is at `path`.
int open_results(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return -1;
    throw ResultsFileError(path + ": cannot read (" + std::strerror(errno) +
                           "); move it away to start afresh");
  }
  try {
    const int fd = open_regular_file(path);
    if (::fstat(fd, &info) == 0) {
      try {
        check_results_file_size(path, static_cast<std::uint64_t>(info.st_size));
      } catch (...) {
        ::close(fd);
        throw;
      }
    }
    return fd;
  } catch (const FileError& error) {
    throw ResultsFileError(std::string(error.what()) + "; move it away to start afresh");
  }
}

ResultsFile read_results_file(const std::string& asked) {
  ResultsFile results;
  const std::string path = stored_results_path(asked);
  const int fd = open_results(path);
  if (fd < 0) return results;
  const Descriptor closing{fd};
  std::optional<GzipReader> gzip;
  if (is_gzip_path(path)) {
    try {
      gzip.emplace(fd, path, kMaxResultsFileBytes);
    } catch (const FileError& error) {
      throw ResultsFileError(error.what());
    }
  }
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
  ResultsText text(fd, path, gzip ? &*gzip : nullptr);
  std::istream stream(&text);
  try {
    document = nlohmann::json::parse(stream, take_items);
  } catch (const nlohmann::json::parse_error& parse_error) {
    // Where, not what: the bytes around the place would quote the file.
    throw ResultsFileError(path + ": not valid JSON (a syntax error at byte " +
                           std::to_string(parse_error.byte) + "); move it away to start afresh");
  } catch (const nlohmann::json::exception& error) {
    throw ResultsFileError(path + ": not valid JSON (" + std::string(error.what()) +
                           "); move it away to start afresh");
  }
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

std::string plain_results_path(const std::string& path) {
  return is_gzip_path(path) ? path.substr(0, path.size() - 3) : path;
}

std::string stored_results_path(const std::string& path) {
  struct stat info {};
  if (is_gzip_path(path) || ::lstat(path.c_str(), &info) == 0 || errno != ENOENT) return path;
  const std::string compressed = path + ".gz";
  return ::lstat(compressed.c_str(), &info) == 0 ? compressed : path;
}

bool holds_results_file(const std::string& folder) {
  const std::string path = (std::filesystem::path(folder) / "results.json").string();
  std::error_code error;
  return std::filesystem::exists(stored_results_path(path), error);
}

ResultsFile read_results(const std::string& path, std::vector<RejectedLine>* rejected) {
  ResultsFile results = read_results_file(path);
  const std::string journal_path = journal_path_for(plain_results_path(path));
  JournalContents journal = read_journal_contents(journal_path);
  warn_of_rejected_lines(journal_path, journal.rejected);
  if (rejected) *rejected = std::move(journal.rejected);
  if (journal.lines.empty()) return results;
  fold_journal(results, journal.lines, path);
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
  try {
    AtomicFile file(path, WriteTarget::owned, Durability::on_disk);
    std::string buffer;
    write_results_text(results, [&](const std::string& piece) {
      buffer += piece;
      if (buffer.size() >= (size_t(1) << 20)) {
        file.write(buffer);
        buffer.clear();
      }
    });
    file.write(buffer);
    file.commit();
  } catch (const FileError& error) {
    throw ResultsFileError(error.what());
  }
}

}  // namespace convlab

#include "store/results_schema.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "measure/provenance.hpp"
#include "plan/point_description.hpp"
#include "store/results_file.hpp"
#include "user_kernels/kernel_source.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

enum class Kind { object, array, string, number, boolean, object_or_null, string_or_null };

struct Field {
  const char* path;  // dotted, relative to the object checked
  Kind kind;
  bool required;
};

const std::vector<Field> kTopFields{
    {"experiment", Kind::object, false},  {"runs", Kind::array, false},
    {"records", Kind::array, false},      {"gallery", Kind::array, false},
    {"run", Kind::object_or_null, false}, {"part", Kind::object, false},
};

const std::vector<Field> kExperimentFields{
    {"name", Kind::string, false},
    {"title", Kind::string, false},
    {"description", Kind::string, false},
    {"baseline", Kind::object, false},
    {"baseline.implementation", Kind::string, false},
    {"baseline.params", Kind::object, false},
};

const std::vector<Field> kRunFields{
    {"id", Kind::string, true},
    {"started", Kind::string, false},
    {"finished", Kind::string_or_null, false},
    {"argv", Kind::array, false},
    {"config", Kind::object, false},
    {"config.path", Kind::string, false},
    {"config.resolved", Kind::object, false},
    {"host", Kind::object, false},
    {"host.cpu_model", Kind::string, false},
    {"host.hostname", Kind::string, false},
    {"host.host_id", Kind::string_or_null, false},
    {"cuda", Kind::object, false},
    {"cuda.name", Kind::string, false},
    {"cuda.driver_version", Kind::string, false},
    {"cuda.calibration", Kind::object, false},
    {"cuda.calibration.copy_bytes_per_s", Kind::number, false},
    {"cuda.calibration.fma_per_s", Kind::number, false},
    {"cpu_calibration", Kind::object, false},
    {"cpu_calibration.threads", Kind::number, false},
    {"cpu_calibration.copy_bytes_per_s", Kind::number, false},
    {"cpu_calibration.fma_per_s", Kind::number, false},
    {"measure", Kind::object, false},
};

const std::vector<Field> kStatsFields{
    {"median", Kind::number, true}, {"q1", Kind::number, false},     {"q3", Kind::number, false},
    {"min", Kind::number, false},   {"max", Kind::number, false},    {"mean", Kind::number, false},
    {"cv", Kind::number, false},    {"stddev", Kind::number, false},
};

Kind kind_of(PointFieldKind kind) {
  switch (kind) {
    case PointFieldKind::object:
      return Kind::object;
    case PointFieldKind::string:
      return Kind::string;
    case PointFieldKind::number:
      return Kind::number;
    case PointFieldKind::boolean:
      return Kind::boolean;
  }
  return Kind::object;
}

// A record's fields: its own, and those of the point it measured (plan/point_description.hpp).
std::vector<Field> record_fields() {
  std::vector<Field> fields{
      {"key", Kind::string, true},
      {"point_id", Kind::string, false},
      {"run_id", Kind::string, true},
  };
  for (const PointField& field : point_description_fields())
    fields.push_back({field.path, kind_of(field.kind), field.required});
  const std::vector<Field> own{
      {"factored", Kind::boolean, false},
      {"params.threads", Kind::number, false},
      {"image.sha256", Kind::string, false},
      {"image.source", Kind::string, false},
      {"kernel.parameters", Kind::object, false},
      {"status", Kind::string, true},
      {"reason", Kind::string, false},
      {"timing", Kind::object_or_null, false},
      {"derived", Kind::object, false},
      {"verification", Kind::object_or_null, false},
      {"machine", Kind::object, false},
      {"machine.cpu_model", Kind::string, false},
      {"machine.hostname", Kind::string, false},
      {"machine.host_id", Kind::string_or_null, false},
      {"machine.gpu", Kind::string_or_null, false},
      {"machine.gpu_driver", Kind::string_or_null, false},
      {"machine.gpu_uuid", Kind::string_or_null, false},
      {"machine.gpu_index", Kind::number, false},
  };
  fields.insert(fields.end(), own.begin(), own.end());
  return fields;
}

const std::vector<Field> kRecordFields = record_fields();

const std::vector<Field> kGalleryFields{
    {"image", Kind::string, true},
    {"kernel", Kind::string, true},
    {"border", Kind::string, false},
    {"input", Kind::string, true},
    {"display", Kind::string, false},  // the display image; "output" in files of earlier versions
    {"output", Kind::string, false},
    {"source", Kind::object, false},  // the saved output the display picture is drawn from
    {"source.implementation", Kind::string, false},
    {"source.output", Kind::string, false},
    {"source.key", Kind::string, false},
    {"source.file", Kind::string, false},
    {"source.sha256", Kind::string, false},
    {"mapping", Kind::object, false},
    {"mapping.kind", Kind::string, false},
    {"mapping.level", Kind::number, false},
    {"identical", Kind::array, false},
    {"fallback", Kind::string, false},
    {"note", Kind::string, false},
};

bool has_kind(const json& value, Kind kind) {
  switch (kind) {
    case Kind::object:
      return value.is_object();
    case Kind::array:
      return value.is_array();
    case Kind::string:
      return value.is_string();
    case Kind::number:
      return value.is_number();
    case Kind::boolean:
      return value.is_boolean();
    case Kind::object_or_null:
      return value.is_object() || value.is_null();
    case Kind::string_or_null:
      return value.is_string() || value.is_null();
  }
  return false;
}

const char* kind_words(Kind kind) {
  switch (kind) {
    case Kind::object:
      return "an object";
    case Kind::array:
      return "a list";
    case Kind::string:
      return "a string";
    case Kind::number:
      return "a number";
    case Kind::boolean:
      return "true or false";
    case Kind::object_or_null:
      return "an object or null";
    case Kind::string_or_null:
      return "a string or null";
  }
  return "";
}

// A key of the file in a message: a long one is cut, a control character is not written.
std::string shown_key(const std::string& key) {
  std::string shown = key.size() > 64 ? key.substr(0, 64) + "..." : key;
  for (char& c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') c = '?';
  return shown;
}

std::string value_words(const json& value) {
  std::string text = value.dump();  // JSON escapes control characters
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  const std::string type = value.is_object()    ? "an object"
                           : value.is_array()   ? "a list"
                           : value.is_string()  ? "a string"
                           : value.is_number()  ? "a number"
                           : value.is_boolean() ? "a boolean"
                                                : "null";
  return type + " (" + text + ")";
}

class Checker {
 public:
  explicit Checker(std::string path) : path_(std::move(path)) {}

  void fields(const json& object, const std::string& at, const std::vector<Field>& fields) const {
    for (const Field& field : fields) {
      const json* value = &object;
      std::string where = at;
      bool absent = false;
      std::string path = field.path;
      for (size_t start = 0; start <= path.size();) {
        const size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? dot : dot - start);
        where += (where.empty() ? "" : ".") + part;
        if (!value->is_object() || !value->contains(part)) {
          absent = true;
          break;
        }
        value = &(*value)[part];
        if (dot == std::string::npos) break;
        start = dot + 1;
      }
      if (absent) {
        if (field.required) fail(where, "missing");
        continue;
      }
      if (!has_kind(*value, field.kind))
        fail(where,
             std::string("expected ") + kind_words(field.kind) + ", got " + value_words(*value));
    }
  }

  void list(const json& document, const char* key, const std::vector<Field>& item_fields) const {
    if (!document.contains(key)) return;
    const json& items = document[key];
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string at = std::string(key) + "[" + std::to_string(i) + "]";
      if (!items[i].is_object()) fail(at, "expected an object, got " + value_words(items[i]));
      fields(items[i], at, item_fields);
    }
  }

  void timing(const json& records) const {
    for (size_t i = 0; i < records.size(); ++i) timing_of(records[i], i);
  }

  void timing_of(const json& record, size_t i) const {
    const json& timing = record.value("timing", json());
    if (!timing.is_object()) return;
    const std::string at = "records[" + std::to_string(i) + "].timing";
    this->fields(timing, at, {{"stats", Kind::object, true}, {"samples_ms", Kind::array, false}});
    this->fields(timing["stats"], at + ".stats", kStatsFields);
    times(timing, at);
    for (const char* phase : {"h2d", "d2h", "end_to_end"}) {
      if (!timing.contains(phase)) continue;
      const std::string phase_at = at + "." + phase;
      this->fields(timing, at, {{phase, Kind::object, true}});
      this->fields(timing[phase], phase_at, {{"stats", Kind::object, true}});
      this->fields(timing[phase]["stats"], phase_at + ".stats", kStatsFields);
      times(timing[phase], phase_at);
    }
  }

  // Every time of a phase (its statistics and samples) is a finite number of milliseconds, not
  // negative: a time of -1 ms or a median of 1e999 can only come from an edit.
  void times(const json& phase, const std::string& at) const {
    for (const auto& [name, value] : phase["stats"].items())
      if (value.is_number()) time(value, at + ".stats." + name);
    if (!phase.contains("samples_ms") || !phase["samples_ms"].is_array()) return;
    const json& samples = phase["samples_ms"];
    for (size_t i = 0; i < samples.size(); ++i)
      time(samples[i], at + ".samples_ms[" + std::to_string(i) + "]");
  }

  void time(const json& value, const std::string& at) const {
    if (!value.is_number()) fail(at, "expected a number, got " + value_words(value));
    const double ms = value.get<double>();
    if (!std::isfinite(ms) || ms < 0)
      fail(at, "a time must be a finite number of milliseconds, not negative; got " +
                   value_words(value));
  }

  // No string is longer than kMaxResultsStringBytes (a description: kMaxResultsTextBytes; the
  // text of a user's kernel source, kept whole with its run: kMaxKernelSourceBytes, as when it was
  // read), so that no name, label or path from a file makes a title, a page or a script without
  // bound.
  static std::size_t string_limit(const std::string& at) {
    const auto ends_with = [&](std::string_view end) {
      return at.size() >= end.size() && at.compare(at.size() - end.size(), end.size(), end) == 0;
    };
    if (ends_with("description")) return kMaxResultsTextBytes;
    if (ends_with("].text") && at.find("config.sources[") != std::string::npos)
      return kMaxKernelSourceBytes;
    return kMaxResultsStringBytes;
  }

  void strings(const json& value, const std::string& at) const {
    if (value.is_string()) {
      const std::size_t size = value.get_ref<const std::string&>().size();
      const std::size_t limit = string_limit(at);
      if (size > limit)
        fail(at, "a string of " + std::to_string(size) + " bytes, longer than the " +
                     std::to_string(limit) + " a results file allows");
    } else if (value.is_object()) {
      for (const auto& [key, item] : value.items())
        strings(item, at + (at.empty() ? "" : ".") + shown_key(key));
    } else if (value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i)
        strings(value[i], at + "[" + std::to_string(i) + "]");
    }
  }

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw ResultsFileError(path_ + ": " + where + ": " + problem +
                           " (docs/results-schema.md; move the file away to start afresh)");
  }

 private:
  std::string path_;
};

}  // namespace

void check_results_file_size(const std::string& path, std::uint64_t bytes) {
  const auto mib = [](std::uint64_t n) {
    return std::to_string((n + (1 << 20) - 1) >> 20) + " MiB";
  };
  if (bytes > kMaxResultsFileBytes)
    throw ResultsFileError(path + ": " + mib(bytes) + ", larger than the " +
                           mib(kMaxResultsFileBytes) +
                           " a results file may be (docs/results-schema.md); not read");
  const std::uint64_t needed = bytes * kResultsMemoryPerByte;
  const std::uint64_t available = available_memory_bytes();
  if (needed > available)
    throw ResultsFileError(path + ": " + mib(bytes) + "; reading it needs about " + mib(needed) +
                           ", and only " + mib(available) +
                           " are available (docs/results-schema.md); not read");
}

std::string within_results_limit(std::string text) {
  if (text.size() <= kMaxResultsStringBytes) return text;
  std::size_t cut = kMaxResultsStringBytes - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text + "...";
}

std::string JsonTextScan::take(std::string_view piece) {
  for (const char c : piece) {
    ++offset_;
    if (in_string_) {
      if (escaped_)
        escaped_ = false;
      else if (c == '\\')
        escaped_ = true;
      else if (c == '"')
        in_string_ = false;
      continue;
    }
    const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    white_space_ = space ? white_space_ + 1 : 0;
    if (white_space_ > max_white_space_)
      return "holds more than " + std::to_string(max_white_space_) +
             " bytes of white space in a row (at byte " + std::to_string(offset_) +
             "), which no results file does";
    if (c == '"') {
      in_string_ = true;
    } else if (c == '[' || c == '{') {
      if (++depth_ > max_depth_)
        return "nests lists or objects more than " + std::to_string(max_depth_) +
               " deep, which no results file does";
    } else if (c == ']' || c == '}') {
      --depth_;
    }
  }
  return "";
}

bool nests_deeper_than(std::string_view text, int max_depth) {
  JsonTextScan scan(max_depth, std::numeric_limits<std::uint64_t>::max());
  return !scan.take(text).empty();
}

void check_record_types(const json& record, size_t index, const std::string& path) {
  const Checker check(path);
  const std::string at = "records[" + std::to_string(index) + "]";
  if (!record.is_object()) check.fail(at, "expected an object, got " + value_words(record));
  check.fields(record, at, kRecordFields);
  check.timing_of(record, index);
  check.strings(record, at);
}

void check_run_types(const json& run, size_t index, const std::string& path) {
  const Checker check(path);
  const std::string at = "runs[" + std::to_string(index) + "]";
  if (!run.is_object()) check.fail(at, "expected an object, got " + value_words(run));
  check.fields(run, at, kRunFields);
  check.strings(run, at);
}

void check_results_types(const json& document, const std::string& path) {
  const Checker check(path);
  check.fields(document, "", kTopFields);
  if (document.contains("experiment"))
    check.fields(document["experiment"], "experiment", kExperimentFields);
  check.list(document, "runs", kRunFields);
  check.list(document, "records", kRecordFields);
  check.list(document, "gallery", kGalleryFields);
  if (document.contains("run") && document["run"].is_object())
    check.fields(document["run"], "run", kRunFields);
  if (document.contains("records")) check.timing(document["records"]);
  check.strings(document, "");
}

}  // namespace convlab

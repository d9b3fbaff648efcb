#include "app/figure_drawing.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <system_error>
#include <thread>

#include "app/child_processes.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// gnuplot runs in a UTF-8 locale whatever the user's: the scripts `set encoding utf8`, and in a
// locale that is not UTF-8 (none set at all is C) gnuplot warns "iconv failed to convert degree
// sign" at that line of every script. C.UTF-8 is built into glibc (2.35 and later), so it needs no
// locales package.
const std::vector<std::string> kGnuplotEnvironment = {"LC_ALL=C.UTF-8"};

// What gnuplot's log may hold at most for the message: the whole log stays in its file.
constexpr std::size_t kLogBytesRead = std::size_t(1) << 20;

std::string log_name(const FigureToDraw& figure) {
  return fs::path(figure.script).stem().string() + ".log";
}

fs::file_time_type modified(const fs::path& path) {
  std::error_code error;
  const auto time = fs::last_write_time(path, error);
  return error ? fs::file_time_type::min() : time;
}

bool stale(const FigureToDraw& figure) {
  if (figure.changed) return true;
  const fs::file_time_type script = modified(figure.folder / figure.script);
  for (const fs::path& output : figure.outputs) {
    const fs::path path = figure.folder / output;
    if (!fs::exists(path)) return true;
    const fs::file_time_type drawn = modified(path);
    if (drawn < script) return true;
    for (const fs::path& input : figure.inputs)
      if (fs::exists(input) && drawn < modified(input)) return true;
  }
  return false;
}

// Nothing of a figure that failed stands for it: not a half-written picture, not an older one.
void remove_outputs(const FigureToDraw& figure) {
  std::error_code ignored;
  for (const fs::path& output : figure.outputs) fs::remove(figure.folder / output, ignored);
}

std::string read_log(const fs::path& path) {
  try {
    return read_file(path, kLogBytesRead);
  } catch (const FileError&) {
    return "";  // too long or gone: the message says where it is
  }
}

}  // namespace

std::string gnuplot_stop_line(const std::string& log) {
  static const std::regex stop(R"(^"[^"\n]*" line [0-9]+: .*$)");
  std::istringstream lines(log);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, stop)) return clipped(line, 2 * kQuotedValueBytes);
    if (line.find_first_not_of(" \t^") != std::string::npos) last = line;
  }
  return last.empty() ? "no message" : clipped(last, 2 * kQuotedValueBytes);
}

std::string figure_failure_words(const std::string& name, const std::string& stop_line,
                                 const fs::path& folder) {
  return "figure '" + clipped(name, 64) + "': gnuplot stopped at " + stop_line +
         " (its script and log: " + shortened_path(folder.generic_string()) + ")";
}

std::size_t draw_with_gnuplot(std::vector<FigureToDraw>& figures) {
  std::vector<ChildJob> jobs;
  std::vector<FigureToDraw*> drawn;
  for (FigureToDraw& figure : figures) {
    figure.error.clear();
    // gnuplot would block on a FIFO where its log or a picture goes, or fail on a folder there:
    // anything but a regular file at one of those places is refused, naming it, before it runs.
    require_owned_place((figure.folder / log_name(figure)).string());
    for (const fs::path& output : figure.outputs)
      require_owned_place((figure.folder / output).lexically_normal().string());
    if (!stale(figure)) continue;
    for (const fs::path& output : figure.outputs)
      fs::create_directories((figure.folder / output).parent_path());
    jobs.push_back({{"gnuplot", figure.script},
                    figure.folder.string(),
                    log_name(figure),
                    -1,
                    kGnuplotEnvironment});
    drawn.push_back(&figure);
  }
  run_jobs(jobs, std::max(1u, std::thread::hardware_concurrency()));
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].exit_code == 0) continue;
    FigureToDraw& figure = *drawn[i];
    const std::string stop = jobs[i].exit_code == 127
                                 ? std::string("its start: gnuplot could not be run")
                                 : gnuplot_stop_line(read_log(figure.folder / jobs[i].log));
    figure.error = figure_failure_words(figure.name, stop, figure.folder);
    remove_outputs(figure);
  }
  return jobs.size();
}

}  // namespace convlab

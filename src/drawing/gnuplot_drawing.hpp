// Running gnuplot on the figures the figure stage prepared (figure_stage.hpp), for the notebook
// (SVG) and for the report (PDF and PNG): each figure's script, written beside its data, runs in
// its own folder, several at a time, and only when it is stale. A figure gnuplot cannot draw costs
// that figure only: its outputs are removed, so that nothing half-drawn or older stands for it, and
// its failure names the declaration and gnuplot's line, for the error cell or box its page shows in
// its place and for the command's message at the end.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace convlab {

struct FigureToDraw {
  std::string name;                            // the declaration's
  std::filesystem::path folder;                // where gnuplot runs: the script and its log
  std::string script;                          // file name of the script in `folder`
  std::vector<std::filesystem::path> inputs;   // its data files
  std::vector<std::filesystem::path> outputs;  // what it writes (relative paths: to `folder`)
  bool changed = false;                        // its script or data was written now
  // After draw_with_gnuplot: why gnuplot drew nothing, in words (figure_failure_words); empty when
  // it is drawn.
  std::string error;
};

// Runs gnuplot on every stale figure: changed, or an output missing or older than the script or
// an input. Returns how many ran. Each failure sets `error`; nothing throws for one. Throws
// FileError, before anything runs, where anything but a regular file stands in the place of a
// figure's log or pictures (a FIFO there would block gnuplot).
std::size_t draw_with_gnuplot(std::vector<FigureToDraw>& figures);

// The line of gnuplot's log that says where it stopped ("time.gp" line 57: all points y value
// undefined!), at most one line of about 200 characters; the log's last line when none says so.
std::string gnuplot_stop_line(const std::string& log);

// "figure 'time': gnuplot stopped at "time.gp" line 57: all points y value undefined! (its
// script and log: FOLDER)".
std::string figure_failure_words(const std::string& name, const std::string& stop_line,
                                 const std::filesystem::path& folder);

}  // namespace convlab

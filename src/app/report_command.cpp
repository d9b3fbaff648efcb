// convlab report DIR: the report of one experiment alone, DIR/report.pdf, as `make report
// CONFIG=configs/<name>.yaml` builds it (scripts/report/build-experiment-report.sh of the source
// tree this convlab was built from, run with this executable).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/commands.hpp"
#include "core/message_text.hpp"
#include "core/shell_quote.hpp"

namespace convlab {

namespace fs = std::filesystem;

int report_command(const Arguments& args) {
  std::string dir;
  CommandLine line(
      "report",
      {{},
       "Builds DIR/report.pdf, the report of the experiment whose results are in DIR\n"
       "(outputs/<name>) alone: its title, run, figures, tables and discussion (with the "
       "cells\n"
       "it places), its verification, the machines that measured it and its config as\n"
       "written. The same as make report CONFIG=configs/<name>.yaml: run it from the folder\n"
       "that holds outputs/, configs/ and experiments/. Needs gnuplot and latexmk\n"
       "(scripts/install-deps.sh report).\n",
       "",
       ""});
  if (const auto status = line.positional("DIR", dir).parse(args)) return *status;
  const fs::path script =
      fs::path(CONVLAB_SOURCE_DIR) / "scripts" / "report" / "build-experiment-report.sh";
  if (!fs::is_regular_file(script)) {
    std::cerr << "convlab report: " << script.string()
              << " is not there (the source tree this convlab was built from); run make report "
                 "CONFIG=configs/<name>.yaml in a checkout instead\n";
    return 2;
  }
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) {
    std::cerr << "convlab report: cannot tell where this executable is (" << error.message()
              << ")\n";
    return 2;
  }
  std::cout.flush();
  const std::string command =
      shell_quoted(script.string()) + " " + shell_quoted(self.string()) + " " + shell_quoted(dir);
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return 2;
  return WEXITSTATUS(status);
}

}  // namespace convlab

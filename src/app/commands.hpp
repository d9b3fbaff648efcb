// The subcommands of the convlab executable. Each takes the arguments after its name and returns
// the process exit code: 0 success, 1 a failed point or regression, 2 bad input or usage.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "run/run_options.hpp"

namespace convlab {

// A row of the command table, which main dispatches through and `convlab --help` lists: a new
// command is its file and one row (app/command_table.cpp).
struct CommandEntry {
  std::string name;
  std::string argument;  // what follows the name in the list ("CONFIG"), or empty
  std::string summary;   // one paragraph
  // args: the arguments after the name; full_argv: the whole command line, which a run records.
  std::function<int(const Arguments& args, const Arguments& full_argv)> run;
};

const std::vector<CommandEntry>& command_table();
// `convlab --help`: the commands of the table with their summaries.
std::string commands_usage();

int run_command(const Arguments& args, const Arguments& full_argv);
int merge_command(const Arguments& args);
int slurm_command(const Arguments& args, const Arguments& full_argv);
int validate_command(const Arguments& args);
int list_command(const Arguments& args);
int gallery_command(const Arguments& args);
int show_command(const Arguments& args);
int search_command(const Arguments& args);
int version_command(const Arguments& args);
// schema: the JSON Schema of the config language (docs/config.schema.json).
int schema_command(const Arguments& args);
// export: results -> figures, tables, report section or flat rows; compare: exit 1 when a point
// of B is slower than A beyond the threshold.
int export_command(const Arguments& args);
int compare_command(const Arguments& args);
// history: one experiment across commits (run, show, check; check exits 1 on a regression).
int history_command(const Arguments& args);
// notebook: every experiment as an HTML page, and an index.
int notebook_command(const Arguments& args);
// report: the report of one experiment alone, DIR/report.pdf.
int report_command(const Arguments& args);
// watch: runs a config's new points on every save and makes its notebook page again.
int watch_command(const Arguments& args, const Arguments& full_argv);

// Loads options.config_path and runs it (run/runner.hpp); a bad config, results file or argument
// is reported as "convlab COMMAND: ..." with exit status 2.
int run_loaded_config(const RunOptions& options, const std::string& command);

// An error that stops `command`: "convlab COMMAND: MESSAGE" on stderr, a line's worth of each line
// of the message (core/message_text.hpp); returns 2.
int report_command_error(const std::string& command, const std::exception& error);

// In the catch block of a command that reads configs and results (export, notebook): the error on
// stderr, a config's or results' as it is, another after "convlab COMMAND: " (and `path`, when
// given, before the message of one of no kind named here); returns 2.
int report_reading_error(const std::string& command, const std::string& path = "");

}  // namespace convlab

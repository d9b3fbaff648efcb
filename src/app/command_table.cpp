#include <algorithm>

#include "app/commands.hpp"

namespace convlab {
namespace {

// Commands that need only the arguments after their name.
CommandEntry plain(std::string name, std::string argument, std::string summary,
                   int (*command)(const Arguments&)) {
  return {std::move(name), std::move(argument), std::move(summary),
          [command](const Arguments& args, const Arguments&) { return command(args); }};
}

}  // namespace

const std::vector<CommandEntry>& command_table() {
  static const std::vector<CommandEntry> table = {
      {"run", "CONFIG",
       "run an experiment and write outputs/<name>/results.json (--shard I/N: one part of it; "
       "--devices: one worker per GPU)",
       run_command},
      plain("merge", "DIR", "fold the shard files of DIR/shards into DIR/results.json",
            merge_command),
      {"slurm", "CONFIG", "write (and --submit) a SLURM array job of shards and its merge job",
       slurm_command},
      plain("validate", "CONFIG", "check a config and print its plan size, without running",
            validate_command),
      plain("list", "", "implementations with their axes, kernels, borders and outputs",
            list_command),
      plain("schema", "", "the JSON Schema of the config language (docs/config.schema.json)",
            schema_command),
      plain("show", "DIR",
            "print the summary of DIR/results.json, running nothing; with --best, the fastest "
            "implementation and configuration of every problem",
            show_command),
      plain("gallery", "DIR",
            "write the gallery pictures of DIR/results.json again (from saved outputs)",
            gallery_command),
      plain("export", "RESULTS",
            "results.json -> TSV, gnuplot scripts, LaTeX tables, report section; with --format "
            "csv|md|tsv one flat row per record (or the winners)",
            export_command),
      plain("compare", "A B", "compare two results point by point (exit 1 on a slowdown)",
            compare_command),
      plain("history", "run|show|check",
            "one experiment across commits: build and run each commit's convlab (run), its "
            "series and steps (show), exit 1 on a confirmed regression (check)",
            history_command),
      plain("search", "RESULTS", "replay search strategies against a full grid measured before",
            search_command),
      plain("notebook", "", "every experiment as an HTML page, and an index (outputs/notebook/)",
            notebook_command),
      plain("report", "DIR", "the report of that experiment alone: DIR/report.pdf", report_command),
      {"watch", "CONFIG",
       "on every save of CONFIG, run its new points and make its page again (--serve: update the "
       "page open in a browser)",
       watch_command},
      plain("version", "", "version, commit, build type, compiler, optional parts (also --version)",
            version_command)};
  return table;
}

std::string commands_usage() {
  std::size_t widest = 0;
  for (const CommandEntry& command : command_table())
    widest = std::max(widest, (command.name + " " + command.argument).size());
  std::string text = "usage: convlab <command> [options]\n\ncommands:\n";
  for (const CommandEntry& command : command_table()) {
    std::string label = "  " + command.name + " " + command.argument;
    label.resize(2 + widest + 2, ' ');
    text += wrap_words(label, command.summary, label.size());
  }
  return text + "\nRun `convlab <command> --help` for the options of a command.\n";
}

}  // namespace convlab

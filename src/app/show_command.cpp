#include <filesystem>
#include <iostream>

#include "app/command_line.hpp"
#include "app/commands.hpp"
#include "app/table_choice.hpp"
#include "config/config_error.hpp"
#include "core/count_words.hpp"
#include "core/message_text.hpp"
#include "core/number_text.hpp"
#include "notebook/notebook_builder.hpp"
#include "query/derived_columns.hpp"
#include "query/mixed_runs.hpp"
#include "query/other_versions.hpp"
#include "query/param_comparison.hpp"
#include "query/record_fields.hpp"
#include "query/search_outcomes.hpp"
#include "query/versus.hpp"
#include "query/winners.hpp"
#include "store/results_file.hpp"
#include "store/results_journal.hpp"
#include "tables/param_comparison_writer.hpp"
#include "tables/summary_table.hpp"
#include "tables/versus_writer.hpp"
#include "tables/winners_writer.hpp"

namespace convlab {
namespace {

// The table (app/table_choice.hpp), or with --search what every search found.
struct ShowOptions : TableChoice {
  std::string path;
  bool search = false;
};

bool is_params_field(const std::string& field) {
  return field.rfind("params.", 0) == 0;
}

CommandLine show_command_line(ShowOptions& options) {
  CommandLine line(
      "show",
      {{"DIR [--filter EXPR] [--best [--by FIELD] | --search] [--compare params.X [--against "
        "VALUE]] [--vs IMPLEMENTATION [--by FIELD]]"},
       R"(Prints the summary of DIR/results.json (or of a results.json named directly) as `convlab run`
prints it at the end, without running anything: one row per measured point, skipped points one
line per reason, the noisy points and the counts.
)",
       "",
       "0 printed, 2 no such results file, not a results file, bad arguments, or output that "
       "could not be written (standard output: write error: ...)."});
  line.positional("DIR", options.path)
      .value("--filter", "EXPR",
             "only the records matching EXPR (as convlab run --filter); a filter that matches "
             "no record is an error",
             filter_into(options.filter))
      .flag("--best",
            "the winners instead: for every problem (image, kernel, border, output), the "
            "fastest implementation and configuration, its median, its ratio to the "
            "runner-up and to the baseline, and whether the two differ beyond noise "
            "(two-sided Mann-Whitney U on the raw samples, p < 0.05)",
            options.best)
      .value("--by", "FIELD",
             "with --best: one row per value of FIELD (kernel.size, image.size, "
             "params.threads, ...) and one column per implementation, each cell the median of "
             "that implementation's fastest configuration; for a params field, followed by "
             "the comparison of each implementation's values of it (--compare); with --vs: its "
             "rows per value of FIELD instead of per problem",
             options.by)
      .value("--vs", "IMPLEMENTATION",
             "every other implementation against this one: per problem (or per value of --by "
             "FIELD), each implementation's fastest configuration, its median, its ratio to "
             "IMPLEMENTATION's fastest (below 1 is faster) and the verdict of convlab compare "
             "(two-sided Mann-Whitney U on the raw samples, p shown): is my kernel faster than "
             "openmp, and than opencv_filter2d?",
             options.vs)
      .value("--compare", "params.X",
             "configurations of one implementation against each other: per problem, "
             "implementation and value of its other params, each value of X with its median, "
             "its ratio to the reference value's median and the verdict of convlab compare "
             "(two-sided Mann-Whitney U, p shown); for params.threads also the speedup T(1) / "
             "T(P) and the efficiency T(1) / (P T(P)). Efficiencies above 1 and CVs above "
             "50 % are marked, as are ratios of points measured by runs under different "
             "conditions (load, commit, build)",
             options.compare)
      .value("--against", "VALUE",
             "with --compare (or --by params.X): the reference value of X; by default the "
             "first value of each group (the smallest number, or the first in the config)",
             options.against)
      .flag("--search",
            "what every search found (docs/search.md): per problem and search, the variants "
            "measured, the best and the step it came at, and where the file holds the full "
            "grid of the problem (same machine), the grid's best, the ratio and the share of "
            "the grid measured",
            options.search)
      .flag("--all-versions",
            "every record, also those of earlier versions of users' kernels, which are "
            "otherwise left out (docs/own-kernels.md, \"Versions\"); where two versions of one "
            "kernel are listed, a column gives each row's source version. Derived columns are "
            "computed for the current version only",
            options.all_versions);
  return line;
}

// Returns the exit status when the command stops here: after the help, or on bad arguments.
std::optional<int> parse_show_options(const Arguments& args, ShowOptions& options) {
  const CommandLine line = show_command_line(options);
  if (const auto status = line.parse(args)) return status;
  if (options.vs && (options.best || options.search || options.compare))
    return line.refuse("--vs is a table of its own; give it without --best, --search or --compare");
  if (options.by && !options.best && !options.vs)
    return line.refuse(
        "--by pivots the winners table or makes the rows of --vs; give --best with it, or --vs");
  if (options.compare && (options.best || options.search))
    return line.refuse(
        "--compare is a table of its own; give it without --best or --search (--best --by "
        "params.X ends with the same comparison)");
  if (options.all_versions && (options.best || options.compare || options.search || options.vs))
    return line.refuse(
        "--all-versions lists records; --best, --compare, --search and --vs compute with the "
        "current version of each kernel only");
  if (options.against && !options.compare && !(options.by && is_params_field(*options.by)))
    return line.refuse(
        "--against names the reference value of --compare params.X (or of --best --by "
        "params.X)");
  return std::nullopt;
}

// The config's derived columns (derive:) computed on the document's records, when it declares
// any: from the config on disk, else the copy in results.json when that one does not load.
void add_derived_columns(ResultsDocument& document) {
  std::vector<DerivedColumn> columns;
  try {
    columns = derived_columns_of(document, std::string("auto"));
  } catch (const ConfigError& error) {
    std::cerr << "convlab show: " << bounded_message(error.what())
              << "; derived columns as the run's copy of the "
              << "config declares them\n";
    columns = derived_columns_of(document, std::nullopt);
  }
  compute_derived_columns(document, columns);
}

// The records to list: the current version's with their derived columns, or with
// --all-versions every record, the derived columns of the current version's copied over.
ResultsDocument shown_document(const std::string& file, const ResultsFile& results,
                               bool all_versions) {
  ResultsDocument current = results_document_of(file, results);
  add_derived_columns(current);
  if (!all_versions || current.other_versions.empty()) return current;
  ResultsDocument all = results_document_of(file, results, VersionScope::all);
  copy_derived_columns(current, all);
  return all;
}

void print_records(const ResultsDocument& document, const std::vector<const Record*>& selected) {
  const ResultsFile& results = document.file;
  std::vector<Record> records;
  for (const Record* record : selected) records.push_back(*record);
  const std::string name = results.experiment.value("name", "");
  std::cout << "# " << results.experiment.value("title", name) << " (" << name
            << "): " << records.size() << " of " << count_words(results.records.size(), "record")
            << ", " << count_words(results.runs.size(), "run") << "\n\n";
  const RunBlock last_run = results.runs.empty() ? RunBlock{} : results.runs.back();
  print_summary_table(records, last_run, std::cout, &results.records);
  const std::string mixed = mixed_runs_note(mixed_runs(selected, results.runs));
  if (!mixed.empty()) std::cout << "\n" << mixed << "\n";
  print_noisy_points(records, std::cout);
  std::cout << "\n" << status_counts_line(records) << "\n";
  const std::string others = other_versions_words(other_versions_of(document));
  if (!others.empty()) std::cout << "\n" << others << " (--all-versions lists them)\n";
}

// A cell of a Markdown table: a '|' in the text would start another cell.
std::string table_cell(const std::string& text) {
  std::string cell;
  for (char c : text) cell += c == '|' ? std::string("\\|") : std::string(1, c);
  return cell;
}

std::string seconds_cell(const std::optional<double>& seconds) {
  return seconds ? format_number(*seconds, 3) : "-";
}

void print_searches(const ResultsFile& results, const std::vector<const Record*>& selected) {
  std::vector<Record> records;
  for (const Record* record : selected) records.push_back(*record);
  const std::vector<SearchOutcome> outcomes = search_outcomes(records);
  if (outcomes.empty()) {
    std::cout << "no search in " << results.experiment.value("name", std::string()) << "\n";
    return;
  }
  std::cout << "| implementation | problem | search | measured | best ms | at step | best params "
               "| compiling s | measuring s | search s | grid best ms | found / grid | share of "
               "the grid |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const SearchOutcome& o : outcomes) {
    std::cout << "| " << table_cell(o.implementation) << " | " << table_cell(o.problem) << " | "
              << table_cell(o.strategy) << " seed " << o.seed << " | " << o.measured << " | "
              << (o.best_ms ? format_number(*o.best_ms, 4) : "-") << " | "
              << (o.best_ms ? std::to_string(o.best_step) : "-") << " | "
              << (o.best_ms ? table_cell(params_words(o.best_params)) : "-") << " | "
              << seconds_cell(o.compile_s) << " | " << seconds_cell(o.measure_s) << " | "
              << seconds_cell(o.elapsed_s) << " | ";
    if (o.grid_best_ms && o.best_ms)
      std::cout << format_number(*o.grid_best_ms, 4) << " | "
                << format_fixed(*o.best_ms / *o.grid_best_ms, 3) << "x | "
                << format_fixed(100.0 * o.measured / double(o.grid_variants), 1) << " % of "
                << o.grid_variants << " |\n";
    else
      std::cout << "no grid run here | - | - |\n";
  }
}

// --best --by params.X: after the pivot, how each implementation's values of X compare, where
// one has two of them (a pivot row of one implementation cannot say).
void print_configurations_after_pivot(const ResultsDocument& document,
                                      const std::vector<const Record*>& points,
                                      const ShowOptions& options) {
  try {
    const ParamComparison comparison =
        compare_param_values(points, document.file.runs, *options.by, options.comparison_options());
    std::cout << "\n## The values of " << *options.by
              << " of each implementation against each other (as --compare " << *options.by
              << ")\n\n";
    write_param_comparison(comparison, FlatFormat::md, std::cout);
  } catch (const ResultsError&) {
    if (options.against) throw;  // a reference value no point has is a mistake
  }
}

void print_best(const ResultsDocument& document, const ShowOptions& options) {
  const std::vector<const Record*> points = options.chosen_points(document);
  const std::string name = document.experiment_text("name", "");
  std::cout << "# " << document.experiment_text("title", name) << " (" << name
            << "): the fastest of " << count_words(points.size(), "ok point") << "\n\n";
  if (!options.by) {
    write_winners(find_winners(document, points), FlatFormat::md, std::cout);
    return;
  }
  write_pivot(pivot_winners(points, *options.by, {}, document.file.runs), FlatFormat::md,
              std::cout);
  if (is_params_field(*options.by)) print_configurations_after_pivot(document, points, options);
}

void print_comparison(const ResultsDocument& document, const ShowOptions& options) {
  const std::vector<const Record*> points = options.chosen_points(document);
  const ParamComparison comparison = compare_param_values(
      points, document.file.runs, *options.compare, options.comparison_options());
  const std::string name = document.experiment_text("name", "");
  std::cout << "# " << document.experiment_text("title", name) << " (" << name
            << "): " << *options.compare << " of each implementation, from "
            << count_words(points.size(), "ok point") << "\n\n";
  write_param_comparison(comparison, FlatFormat::md, std::cout);
}

void print_versus(const ResultsDocument& document, const ShowOptions& options) {
  const std::vector<const Record*> points = options.chosen_points(document);
  const VersusTable table =
      compare_with_implementation(points, document.file.runs, options.versus_options());
  const std::string name = document.experiment_text("name", "");
  std::cout << "# " << document.experiment_text("title", name) << " (" << name
            << "): every implementation against " << *options.vs
            << (options.by ? ", per " + *options.by : std::string(", per problem")) << ", from "
            << count_words(points.size(), "ok point") << "\n\n";
  write_versus(table, FlatFormat::md, std::cout);
}

}  // namespace

int show_command(const Arguments& args) {
  ShowOptions options;
  if (const auto status = parse_show_options(args, options)) return *status;
  const std::string file = results_file_of(options.path);
  try {
    if (!std::filesystem::exists(file) && !std::filesystem::exists(journal_path_for(file))) {
      std::cerr << "convlab show: " << shortened_path(file)
                << ": no results here (run the config first)\n";
      return 2;
    }
    if (options.search) {
      const ResultsDocument document = results_document_of(file, read_results(file));
      print_searches(document.file, options.chosen_records(document, file));
      return 0;
    }
    if (options.best) {
      print_best(results_document_of(file, read_results(file)), options);
      return 0;
    }
    if (options.compare) {
      print_comparison(results_document_of(file, read_results(file)), options);
      return 0;
    }
    if (options.vs) {
      print_versus(results_document_of(file, read_results(file)), options);
      return 0;
    }
    const ResultsDocument document = shown_document(file, read_results(file), options.all_versions);
    print_records(document, options.chosen_records(document, file));
    return 0;
  } catch (const ResultsFileError& error) {
    return report_command_error("show", error);
  } catch (const ResultsError& error) {
    return report_command_error("show", error);
  } catch (const ConfigError& error) {
    return report_command_error("show", error);
  }
}

}  // namespace convlab

#include "app/run_end_summary.hpp"

#include <iostream>
#include <optional>
#include <set>

#include "query/mixed_runs.hpp"
#include "query/results_document.hpp"
#include "query/winners.hpp"
#include "tables/summary_table.hpp"
#include "tables/winners_writer.hpp"

namespace convlab {
namespace {

// The results file as the summary's tables need it; nullopt when it cannot be read (the run's
// own error about it is reported where it happened), and the summary shows the rows as they are.
std::optional<ResultsDocument> summary_document(const std::string& results_path) {
  try {
    return results_document_of(results_path, read_results(results_path));
  } catch (const ResultsFileError&) {
  } catch (const ResultsError&) {
  }
  return std::nullopt;
}

// The run's ok points as the document holds them (machines labelled, metrics derived).
std::vector<const Record*> ok_points_of(const ResultsDocument& document,
                                        const std::vector<Record>& rows) {
  std::set<std::string> keys;
  for (const Record& row : rows)
    if (row.usable()) keys.insert(row.key);
  std::vector<const Record*> points;
  for (const Record& record : document.file.records)
    if (record.usable() && keys.count(record.key)) points.push_back(&record);
  return points;
}

void print_table_of_rows(const std::vector<Record>& rows, const RunBlock& run,
                         const std::optional<ResultsDocument>& document, std::ostream& out) {
  print_summary_table(rows, run, out);
  if (!document) return;
  const std::string note =
      mixed_runs_note(mixed_runs(ok_points_of(*document, rows), document->file.runs));
  if (!note.empty()) out << "\n" << note << "\n";
}

}  // namespace

void print_run_summary(const RunEnd& end, std::ostream& out, SummaryRows shown) {
  const std::optional<ResultsDocument> document = summary_document(end.results_path);
  if (shown == SummaryRows::all || !document) {
    print_table_of_rows(end.rows, end.run, document, out);
  } else {
    write_winners(find_winners(*document, ok_points_of(*document, end.rows)), FlatFormat::md, out);
    print_unranked_points(end.rows, end.run, out);
  }
  print_noisy_points(end.rows, out);
  print_efficiency_flags(end.rows, out);
  out << "\n" << run_counts_line(end.counts) << "\n";
  std::cerr << "convlab: results in " << end.results_path << "\n";
  for (const RunBlock& worker : end.worker_runs) print_summary_table({}, worker, out);
}

RunEndReport run_summary_on_stdout(SummaryRows shown) {
  return [shown](const RunEnd& end) { print_run_summary(end, std::cout, shown); };
}

}  // namespace convlab

#include "report/summary_values.hpp"

#include <set>

#include "notebook/value_references.hpp"
#include "query/results_document.hpp"
#include "report/latex_writer.hpp"

namespace convlab {

std::string resolve_summary(const std::string& tex, const std::string& file,
                            const ExperimentPoints& points, std::vector<std::string>& warnings) {
  std::string out;
  size_t at = 0;
  std::set<std::string> missing;
  for (const ValueReference& reference : find_value_references(tex, ProseSyntax::latex, file)) {
    out += tex.substr(at, reference.begin - at);
    at = reference.end;
    if (reference.experiment.empty())
      throw ResultsError(file + ":" + std::to_string(reference.line) + ": " +
                         reference_in_message(reference) +
                         ": the summary names the experiment: {{experiment: field[filter]}}");
    const auto* experiment_points = points(reference.experiment);
    if (!experiment_points) {
      // The summary still builds where an experiment was not run; the gap is shown, not hidden.
      if (missing.insert(reference.experiment).second)
        warnings.push_back(file + ": experiment '" + reference.experiment +
                           "' has no results; its values read \"no results\"");
      out += "\\convlabflag{no results}";
      continue;
    }
    out += latex_text(resolve_value(reference, *experiment_points, file).text);
  }
  return out + tex.substr(at);
}

}  // namespace convlab

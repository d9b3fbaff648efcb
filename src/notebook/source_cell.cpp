#include "notebook/source_cell.hpp"

#include "user_kernels/kernel_source.hpp"

namespace convlab {
namespace {

using nlohmann::json;

std::string language_words(const std::string& path) {
  const auto language = language_of(path);
  if (!language) return "";
  switch (*language) {
    case KernelLanguage::cuda:
      return "CUDA";
    case KernelLanguage::cpp:
      return "C++";
    case KernelLanguage::c:
      return "C";
  }
  return "";
}

// The implementations whose entry in the resolved config names `path`.
std::vector<std::string> implementations_naming(const json& resolved, const std::string& path) {
  std::vector<std::string> names;
  const json implementations = resolved.value("implementations", json::object());
  if (!implementations.is_object()) return names;
  for (const auto& [name, entry] : implementations.items())
    if (entry.is_object() && entry.value("source", json()) == json(path)) names.push_back(name);
  return names;
}

}  // namespace

std::vector<SourceCell> source_cells(const ResultsDocument& results) {
  std::vector<SourceCell> cells;
  if (!results.latest_run) return cells;
  const RunBlock& run = *results.latest_run;
  for (const KernelSourceText& source : run.sources) {
    SourceCell cell;
    cell.path = source.path;
    cell.sha256 = source.sha256;
    cell.language = language_words(source.path);
    cell.implementations = implementations_naming(run.resolved_config, source.path);
    cell.text = source.text;
    cells.push_back(std::move(cell));
  }
  return cells;
}

}  // namespace convlab

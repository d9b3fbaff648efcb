#include "figures/figure_types.hpp"

#include <algorithm>

#include "figures/fastest_series.hpp"
#include "figures/figure_data.hpp"
#include "figures/plot_style.hpp"

namespace convlab {

// Every figure type, one row each, in the order docs/report.md lists them (the default, line,
// first): figure_type_<name>.cpp defines <name>_figure_type().
#define CONVLAB_FIGURE_TYPES(ROW) \
  ROW(line) ROW(bars) ROW(stacked) ROW(heatmap) ROW(convergence) ROW(history)

#define CONVLAB_FIGURE_TYPE_DECLARED(name) const FigureTypeDescriptor& name##_figure_type();
CONVLAB_FIGURE_TYPES(CONVLAB_FIGURE_TYPE_DECLARED)
#undef CONVLAB_FIGURE_TYPE_DECLARED

const std::vector<const FigureTypeDescriptor*>& figure_types() {
  static const std::vector<const FigureTypeDescriptor*> types = {
#define CONVLAB_FIGURE_TYPE_LISTED(name) &name##_figure_type(),
      CONVLAB_FIGURE_TYPES(CONVLAB_FIGURE_TYPE_LISTED)
#undef CONVLAB_FIGURE_TYPE_LISTED
  };
  return types;
}

const FigureTypeDescriptor* find_figure_type(std::string_view name) {
  for (const FigureTypeDescriptor* type : figure_types()) {
    if (type->name == name) return type;
    for (const auto alias : type->aliases)
      if (alias == name) return type;
  }
  return nullptr;
}

std::vector<std::string> figure_type_words() {
  std::vector<std::string> words;
  for (const FigureTypeDescriptor* type : figure_types()) {
    if (!type->rules.declarable) continue;
    words.emplace_back(type->name);
    for (const auto alias : type->aliases) words.emplace_back(alias);
  }
  return words;
}

std::string figure_type_names() {
  std::string names;
  for (const FigureTypeDescriptor* type : figure_types())
    if (type->rules.declarable) names += (names.empty() ? "" : ", ") + std::string(type->name);
  return names;
}

std::string figure_type_names(bool FigureTypeRules::*feature, std::string_view conjunction) {
  std::string words;
  std::vector<std::string_view> names;
  for (const FigureTypeDescriptor* type : figure_types())
    if (type->rules.declarable && (!feature || type->rules.*feature)) names.push_back(type->name);
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) words += i + 1 == names.size() ? " " + std::string(conjunction) + " " : ", ";
    words += names[i];
  }
  return words;
}

Grid series_grid(const FigureDeclaration& declaration, const std::vector<const Record*>& records,
                 const std::string& context) {
  if (declaration.best) return fastest_series_grid(declaration, records, context);
  return value_grid(records, declaration.series, declaration.y, {declaration.x},
                    declaration.error_bars, declaration.reduce, context);
}

const char* write_overlay_clauses(PanelPlot& plot, const char* separator) {
  const auto& overlays = plot.figure.panels[plot.panel].overlays;
  for (size_t o = 0; o < overlays.size(); ++o) {
    const auto& values = overlays[o].values;
    if (std::none_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); }))
      continue;
    plot.out << separator << overlay_clause(plot.figure, o, plot.data, plot.titled);
    separator = ", \\\n     ";
  }
  return separator;
}

void end_plot(PanelPlot& plot, bool any_clause) {
  if (!any_clause) plot.out << "NaN notitle";
  for (const auto& entry : plot.key_entries) plot.out << ", \\\n     " << entry;
  plot.out << "\n";
}

}  // namespace convlab

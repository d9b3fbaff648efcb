#include "figures/figure_types.hpp"

namespace convlab {

const std::vector<const FigureTypeDescriptor*>& figure_types() {
  static const std::vector<const FigureTypeDescriptor*> types = {
      &line_figure_type(),
      &bars_figure_type(),
      &stacked_figure_type(),
      &heatmap_figure_type(),
      &convergence_figure_type(),
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

std::string figure_type_names() {
  std::string names;
  for (const FigureTypeDescriptor* type : figure_types())
    names += (names.empty() ? "" : ", ") + std::string(type->name);
  return names;
}

void end_plot(PanelPlot& plot, bool any_clause) {
  if (!any_clause) plot.out << "NaN notitle";
  for (const auto& entry : plot.key_entries) plot.out << ", \\\n     " << entry;
  plot.out << "\n";
}

}  // namespace convlab

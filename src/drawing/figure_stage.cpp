#include "drawing/figure_stage.hpp"

#include "core/file_io.hpp"
#include "figures/plot_writers.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// `target` as the script in `scripts` opens it.
std::string relative_to(const fs::path& target, const fs::path& scripts) {
  return fs::absolute(target)
      .lexically_normal()
      .lexically_relative(fs::absolute(scripts).lexically_normal())
      .generic_string();
}

// Writes a file of the figure unless it holds `content` already (its time then tells gnuplot's
// staleness nothing changed); true when written.
bool write_changed(const fs::path& path, const std::string& content) {
  if (path.has_parent_path()) create_folders(path.parent_path().string());
  return write_file_if_changed(path.string(), content, WriteTarget::owned);
}

// The script for the medium, its pictures named relative to the script's folder.
std::string script_for(FigureMedium medium, const FigureData& data, const FigurePlace& place,
                       const std::vector<std::string>& panel_data, FigureToDraw& drawing) {
  const auto picture = [&](const char* extension) {
    return relative_to(place.pictures / (place.stem + extension), place.scripts);
  };
  if (medium == FigureMedium::notebook) {
    const SvgOutputs outputs{panel_data, picture(".svg"), picture(".axes")};
    drawing.outputs = {outputs.svg, outputs.axes};
    return gnuplot_svg_script(data, outputs);
  }
  const GnuplotOutputs outputs{panel_data, picture(".pdf"), picture(".png")};
  drawing.outputs = {outputs.pdf, outputs.png};
  return gnuplot_script(data, outputs);
}

}  // namespace

std::string no_gnuplot_words(FigureMedium medium) {
  return medium == FigureMedium::notebook
             ? "gnuplot is not installed (scripts/install-deps.sh notebook installs it)"
             : "gnuplot is not installed (scripts/install-deps.sh report)";
}

FigureStage::FigureStage(FigureMedium medium, bool gnuplot) : medium_(medium), gnuplot_(gnuplot) {}

void FigureStage::prepare(const FigureData& data, const FigurePlace& place, std::size_t group) {
  FigureToDraw drawing;
  drawing.name = data.declaration.name;
  drawing.folder = place.scripts;
  drawing.script = place.stem + ".gp";
  // A notebook without gnuplot shows why in each figure's place: nothing would read its script.
  if (gnuplot_ || medium_ == FigureMedium::report) {
    std::vector<std::string> panel_data;
    for (std::size_t p = 0; p < data.panels.size(); ++p) {
      const std::string panel = data.panels.size() > 1 ? "--panel" + std::to_string(p + 1) : "";
      const fs::path tsv = place.data / (place.stem + panel + ".tsv");
      drawing.changed |= write_changed(tsv, figure_panel_tsv(data, p));
      panel_data.push_back(relative_to(tsv, place.scripts));
      drawing.inputs.push_back(tsv);
    }
    const std::string script = script_for(medium_, data, place, panel_data, drawing);
    drawing.changed |= write_changed(place.scripts / drawing.script, script);
  }
  drawings_.push_back(std::move(drawing));
  groups_.push_back(group);
  shown_as_.push_back(place.shown_as);
}

std::size_t FigureStage::draw() {
  return gnuplot_ ? draw_with_gnuplot(drawings_) : 0;
}

DrawnFigures FigureStage::figures(std::size_t group) const {
  DrawnFigures figures;
  for (std::size_t i = 0; i < drawings_.size(); ++i) {
    if (groups_[i] != group) continue;
    const FigureToDraw& drawing = drawings_[i];
    DrawnFigure& figure = figures[drawing.name];
    figure.picture = shown_as_[i];
    if (!gnuplot_) {
      figure.why = no_gnuplot_words(medium_);
    } else if (!drawing.error.empty()) {
      figure.state = DrawnFigure::State::failed;
      figure.why = drawing.error;
    } else {
      figure.state = DrawnFigure::State::drawn;
      if (medium_ == FigureMedium::notebook) {
        figure.svg = read_file((drawing.folder / drawing.outputs[0]).string());
        figure.axes = read_file((drawing.folder / drawing.outputs[1]).string());
      }
    }
  }
  return figures;
}

std::vector<std::string> FigureStage::failures() const {
  std::vector<std::string> failures;
  for (const FigureToDraw& drawing : drawings_)
    if (!drawing.error.empty()) failures.push_back(drawing.error);
  return failures;
}

}  // namespace convlab

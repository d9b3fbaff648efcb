#include "app/notebook_pages.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include "config/user_kernel_entry.hpp"
#include "core/child_processes.hpp"
#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "drawing/figure_stage.hpp"
#include "gallery/gallery.hpp"
#include "html/html_text.hpp"
#include "html/notebook_assets.hpp"
#include "html/svg_sanitizer.hpp"
#include "images/image_source.hpp"
#include "images/print_jpeg.hpp"
#include "measure/provenance.hpp"
#include "notebook/history_notebook.hpp"
#include "notebook/notebook_builder.hpp"
#include "store/results_file.hpp"

namespace convlab {

const char* const kKatexDirectory = "/usr/share/javascript/katex";

namespace {

namespace fs = std::filesystem;

// The standalone SVG of a figure of a page, relative to the notebook folder.
std::string notebook_figure_file(const std::string& experiment, const std::string& figure) {
  return "figures/" + html_id(experiment) + "/" + html_id(figure) + ".svg";
}

std::string file_hash(const std::string& path) {
  return fs::exists(path) ? sha256_file_hex(path) : "none";
}

// Every input of a page: results, config, the kernel sources the config names (the page is stale
// when one changed), discussion, gallery pictures, this convlab, and whether KaTeX and gnuplot
// were there to draw it.
std::string page_fingerprint(const Experiment& e, const std::string& discussion,
                             const std::optional<std::vector<std::string>>& kernel_sources) {
  std::string inputs = "results " + file_hash(e.results.path) + "\n";
  if (const ConfigCell* config = e.notebook.first<ConfigCell>()) {
    inputs += "config " + config->path + " " + config->sha256 + "\n";
    for (const std::string& source : kernel_sources.value_or(std::vector<std::string>{}))
      inputs += "source " + source + " " + file_hash(source) + "\n";
  }
  inputs += "discussion " + discussion + " " + file_hash(discussion) + "\n";
  if (const GalleryCell* gallery = e.notebook.first<GalleryCell>())
    for (const auto& group : gallery->groups) {
      inputs += "input " + group.input_path + " " + file_hash(group.input_path) + "\n";
      for (const auto& picture : group.pictures)
        inputs += "picture " + picture.output_path + " " + file_hash(picture.output_path) + "\n";
    }
  inputs += "convlab " + build_id() + "\n";
  inputs += "katex " + std::string(fs::exists(kKatexDirectory) ? "yes" : "no") + "\n";
  inputs += "gnuplot " + std::string(program_available("gnuplot") ? "yes" : "no") + "\n";
  return sha256_hex(inputs);
}

// The gallery's pictures drawn again where their saved outputs are newer, as `convlab gallery`
// does before the report. A gallery that cannot be restored is not the page's end: it shows the
// pictures that are there and says which are missing.
void restore_gallery(const std::string& directory) {
  try {
    const GalleryRestore restore = restore_gallery_images(directory);
    for (const auto& warning : restore.warnings)
      std::cerr << "convlab notebook: " << warning << "\n";
  } catch (const std::exception& error) {
    std::cerr << "convlab notebook: " << error.what()
              << "; the page shows the gallery's pictures that are there\n";
  }
}

// The gallery's pictures beside the pages: display pictures copied, input photographs (PNG, the
// lossless record) as JPEG. Returns the URL of each picture relative to the pages.
std::map<std::string, std::string> copy_pictures(const Experiment& e, const fs::path& out) {
  std::map<std::string, std::string> urls;
  const GalleryCell* gallery = e.notebook.first<GalleryCell>();
  if (!gallery) return urls;
  const fs::path folder = fs::path("pictures") / html_id(e.notebook.name);
  const auto place = [&](const std::string& source) {
    if (!fs::exists(source)) return;
    const fs::path source_path(source);
    const fs::path target = folder / (source_path.stem().string() + ".jpg");
    try {
      if (source_path.extension() == ".jpg" || source_path.extension() == ".jpeg") {
        write_file_if_changed(out / folder / source_path.filename(), read_file(source));
        urls[source] = (folder / source_path.filename()).generic_string();
        return;
      }
      update_print_jpeg(source, (out / target).string());
      urls[source] = target.generic_string();
    } catch (const ImageFileError& error) {
      std::cerr << "convlab notebook: " << error.what()
                << "; the page says the picture is missing\n";
    } catch (const FileError& error) {
      std::cerr << "convlab notebook: " << error.what()
                << "; the page says the picture is missing\n";
    }
  };
  for (const auto& group : gallery->groups) {
    place(group.input_path);
    for (const auto& picture : group.pictures) place(picture.output_path);
  }
  return urls;
}

// Where the notebook stages a figure of page `e`: its data, script and drawing in the experiment's
// work folder, its standalone SVG beside the pages.
FigurePlace notebook_figure_place(const Experiment& e, const FigureCell& figure,
                                  const fs::path& out) {
  const fs::path folder = out / ".build" / html_id(e.notebook.name);
  return {folder, folder, folder, html_id(figure.data.declaration.name),
          notebook_figure_file(e.notebook.name, figure.data.declaration.name)};
}

}  // namespace

std::string generator_words() {
  const nlohmann::json build = build_facts();
  return "convlab " + build.value("version", std::string("?")) + " (build " +
         build.value("id", std::string("?")).substr(0, 12) + ")";
}

bool write_assets(const fs::path& out) {
  for (const NotebookAsset& asset : notebook_assets())
    write_file_if_changed(out / "assets" / std::string(asset.name), std::string(asset.content));
  const fs::path katex(kKatexDirectory);
  if (!fs::exists(katex / "katex.min.js")) return false;
  for (const char* file : {"katex.min.js", "katex.min.css"})
    write_file_if_changed(out / "assets" / "katex" / file, read_file(katex / file));
  // The style sheet names woff2, woff and ttf; browsers take the first, so woff2 is enough.
  for (const auto& font : fs::directory_iterator(katex / "fonts"))
    if (font.path().extension() == ".woff2")
      write_file_if_changed(out / "assets" / "katex" / "fonts" / font.path().filename(),
                            read_file(font.path()));
  return true;
}

Experiment load_experiment(const std::string& dir, const NotebookPlace& options,
                           const ExperimentLoad& load) {
  const bool make_page = load.make_page;
  Experiment e;
  if (load.with_journal) {
    const std::string path = stored_results_path((fs::path(dir) / "results.json").generic_string());
    e.results = results_document_of(path, read_results(path));
  } else {
    e.results = load_results_document(dir);
  }
  if (make_page && e.results.file.gallery.is_array() && !e.results.file.gallery.empty())
    restore_gallery(e.results.directory);
  const std::string name = experiment_name(e.results);
  // The name comes from the results file: as a file name it keeps only letters, digits, - and _.
  const std::string discussion = (options.discussions / (html_id(name) + ".md")).generic_string();
  // A config that does not load declares nothing: the page is drawn as the results' copy says.
  std::shared_ptr<const ExperimentConfig> config;
  if (!load.invalid_config)
    config = load.config_read ? load.config_read : notebook_config(load.config, e.results);
  e.notebook = build_notebook(e.results, NotebookSources{config, discussion, load.invalid_config});
  e.file = html_id(e.notebook.name) + ".html";
  // The sources of the config the page shows: one that does not load names them as written.
  e.fingerprint = page_fingerprint(e, discussion,
                                   load.invalid_config ? named_kernel_sources(*load.invalid_config)
                                   : config            ? config->kernel_sources
                                                       : std::nullopt);
  const fs::path stamp = options.out / ".build" / html_id(name) / "inputs.sha256";
  e.current = !make_page || (fs::exists(options.out / e.file) && fs::exists(stamp) &&
                             read_file(stamp) == e.fingerprint + "\n");
  for (const FigureCell* figure : e.notebook.cells_of<FigureCell>())
    e.figure_files.push_back(notebook_figure_file(name, figure->data.declaration.name));
  return e;
}

Experiment load_history_page(const std::string& dir, const NotebookPlace& place, bool make_page) {
  Experiment e;
  e.history = std::make_shared<const History>(load_history(dir));
  const History& history = *e.history;
  e.results.directory = dir;
  e.notebook = build_history_notebook(history, StepSettings{});
  e.file = html_id(e.notebook.name) + ".html";
  std::string inputs = "history " + file_hash((fs::path(dir) / kHistoryIndexFile).string()) + "\n";
  for (const CommitRun& run : history.index.runs)
    inputs += "results " + run.results() + " " +
              file_hash((fs::path(dir) / run.results()).string()) + "\n";
  inputs += "convlab " + build_id() + "\n";
  inputs += "gnuplot " + std::string(program_available("gnuplot") ? "yes" : "no") + "\n";
  e.fingerprint = sha256_hex(inputs);
  const fs::path stamp = place.out / ".build" / html_id(e.notebook.name) / "inputs.sha256";
  e.current = !make_page || (fs::exists(place.out / e.file) && fs::exists(stamp) &&
                             read_file(stamp) == e.fingerprint + "\n");
  for (const FigureCell* figure : e.notebook.cells_of<FigureCell>())
    e.figure_files.push_back(notebook_figure_file(e.notebook.name, figure->data.declaration.name));
  return e;
}

std::map<const Experiment*, DrawnFigures> draw_figures(
    const std::vector<const Experiment*>& experiments, const fs::path& out, std::size_t* drawn) {
  FigureStage stage(FigureMedium::notebook, program_available("gnuplot"));
  for (std::size_t group = 0; group < experiments.size(); ++group) {
    const Experiment& e = *experiments[group];
    if (e.current) continue;
    for (const FigureCell* figure : e.notebook.cells_of<FigureCell>())
      stage.prepare(figure->data, notebook_figure_place(e, *figure, out), group);
  }
  const std::size_t ran = stage.draw();
  std::map<const Experiment*, DrawnFigures> figures;
  for (std::size_t group = 0; group < experiments.size(); ++group)
    if (!experiments[group]->current) figures[experiments[group]] = stage.figures(group);
  if (drawn) *drawn = ran;
  return figures;
}

WrittenPage write_experiment_page(const Experiment& e, const DrawnFigures& figures,
                                  const NotebookPlace& place, const PageSettings& settings) {
  PageContext context;
  context.generator = settings.generator;
  context.build_id = build_id().substr(0, 12);
  context.katex = settings.katex;
  context.live = settings.live;
  context.figures = figures;
  context.pictures = copy_pictures(e, place.out);
  WrittenPage written;
  written.page = experiment_page(e.notebook, context);
  for (const RenderedFile& figure : written.page.figures)
    write_file_if_changed(place.out / figure.path, figure.content);
  written.changed = write_file_if_changed(place.out / e.file, written.page.html);
  const fs::path build = place.out / ".build" / html_id(e.notebook.name);
  // A page with a figure that failed is made again next time, and says so again.
  if (settings.live || !written.page.figure_errors.empty())
    fs::remove(build / "inputs.sha256");
  else
    write_file_if_changed(build / "inputs.sha256", e.fingerprint + "\n");
  write_file_if_changed(build / "source", e.results.directory + "\n");
  return written;
}

}  // namespace convlab

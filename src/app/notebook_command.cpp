// convlab notebook: every experiment's results as a page of HTML, and an index. Each page is the
// experiment's notebook (notebook/notebook.hpp) rendered by html/, with its figures drawn by
// gnuplot as SVG. Pages open from file:// with no network: scripts, styles, fonts and pictures are
// files beside them. Incremental: a page whose inputs (results, config, discussion, this convlab)
// did not change is not made again, and unchanged files are not rewritten.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "app/child_processes.hpp"
#include "app/commands.hpp"
#include "app/file_writes.hpp"
#include "config/config_error.hpp"
#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "figures/plot_writers.hpp"
#include "html/experiment_page.hpp"
#include "html/html_text.hpp"
#include "html/index_page.hpp"
#include "html/notebook_assets.hpp"
#include "html/svg_sanitizer.hpp"
#include "images/image_source.hpp"
#include "measure/provenance.hpp"
#include "notebook/notebook_builder.hpp"
#include "results/gallery.hpp"
#include "results/results_document.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

const char* const kNotebookHelp =
    R"(usage: convlab notebook [RESULTS_DIR...] [--out DIR] [--discussions DIR] [--quiet]

Writes the notebook: DIR/index.html, listing every experiment, and DIR/<experiment>.html, one
page per experiment: its config (highlighted, with the command that runs it again), the run
(commit, machines, clocks, counts), the figures its config declares (drawn by gnuplot as SVG:
hover a point for its record, click a key entry to hide a series), its tables (sort by any column,
filter by text), the gallery, the verification per implementation and its discussion. A page
says at the top when the results are stale: the config on disk changed after the run, or points
of the config as it is now are not measured.

  RESULTS_DIR        outputs/<name> folders (default: every outputs/*/ holding a results.json)
  --out DIR          where to write (default: outputs/notebook)
  --discussions DIR  where the discussions are, DIR/<name>.md (default: experiments)
  --quiet            print only problems

Pages open from file:// and load nothing from the network. A page is made again only when its
results, config, discussion or convlab changed. Needs gnuplot for the figures and KaTeX
(Debian's libjs-katex) for the math: scripts/install-deps.sh notebook installs them.
Exit codes: 0 written, 2 bad input (the message names the file and key).
)";

const char* const kKatexDirectory = "/usr/share/javascript/katex";

struct NotebookOptions {
  std::vector<std::string> results;
  fs::path out = "outputs/notebook";
  fs::path discussions = "experiments";
  bool quiet = false;
};

// What an experiment's page is made from.
struct Experiment {
  ResultsDocument results;
  ExperimentNotebook notebook;
  std::string file;                       // its page, e.g. npp_peer.html
  std::string fingerprint;                // of every input of the page
  bool current = false;                   // the page on disk was made from the same inputs
  std::vector<std::string> figure_files;  // standalone SVGs relative to the notebook folder
};

std::vector<std::string> default_results() {
  std::vector<std::string> dirs;
  if (!fs::is_directory("outputs")) return dirs;
  for (const auto& entry : fs::directory_iterator("outputs"))
    if (fs::exists(entry.path() / "results.json")) dirs.push_back(entry.path().generic_string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::string file_hash(const std::string& path) {
  return fs::exists(path) ? sha256_file_hex(path) : "none";
}

std::string generator_words() {
  const nlohmann::json build = build_facts();
  return "convlab " + build.value("version", std::string("?")) + " (build " +
         build.value("id", std::string("?")).substr(0, 12) + ")";
}

// Every input of a page: results, config, discussion, gallery pictures, this convlab, and whether
// KaTeX and gnuplot were there to draw it.
std::string page_fingerprint(const Experiment& e, const std::string& discussion) {
  std::string inputs = "results " + file_hash(e.results.path) + "\n";
  if (const ConfigCell* config = e.notebook.first<ConfigCell>())
    inputs += "config " + config->path + " " + config->sha256 + "\n";
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

// The notebook's own script and style, and KaTeX with its fonts when Debian's libjs-katex is
// installed; false when it is not (math then shows as TeX).
bool write_assets(const fs::path& out) {
  for (const NotebookAsset& asset : notebook_assets())
    write_if_changed(out / "assets" / std::string(asset.name), std::string(asset.content));
  const fs::path katex(kKatexDirectory);
  if (!fs::exists(katex / "katex.min.js")) return false;
  for (const char* file : {"katex.min.js", "katex.min.css"})
    write_if_changed(out / "assets" / "katex" / file, read_text_file(katex / file));
  // The style sheet names woff2, woff and ttf; browsers take the first, so woff2 is enough.
  for (const auto& font : fs::directory_iterator(katex / "fonts"))
    if (font.path().extension() == ".woff2")
      write_if_changed(out / "assets" / "katex" / "fonts" / font.path().filename(),
                       read_text_file(font.path()));
  return true;
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
        write_if_changed(out / folder / source_path.filename(), read_text_file(source));
        urls[source] = (folder / source_path.filename()).generic_string();
        return;
      }
      if (!fs::exists(out / target) ||
          fs::last_write_time(out / target) < fs::last_write_time(source)) {
        const Image image = load_image_file(source, 3);
        create_folders((out / target).parent_path().string());
        write_jpeg((out / target).string(), image.width, image.height, image.channels,
                   image.pixels.data(), kGalleryJpegQuality);
      }
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

// The gnuplot job of one figure, its data and script written to the experiment's work folder.
// nullopt when the SVG there is newer than both (drawn by an earlier run).
struct FigureWork {
  fs::path folder;
  std::string svg, axes;
};

FigureWork prepare_figure(const FigureCell& figure, const fs::path& folder,
                          std::vector<ChildJob>& jobs) {
  const FigureData& data = figure.data;
  const std::string name = html_id(data.declaration.name);
  SvgOutputs outputs;
  bool changed = false;
  for (size_t p = 0; p < data.panels.size(); ++p) {
    const std::string tsv =
        name + (data.panels.size() > 1 ? "--panel" + std::to_string(p + 1) : "") + ".tsv";
    changed |= write_if_changed(folder / tsv, figure_panel_tsv(data, p));
    outputs.panel_data.push_back(tsv);
  }
  outputs.svg = name + ".svg";
  outputs.axes = name + ".axes";
  const std::string script = name + ".gp";
  changed |= write_if_changed(folder / script, gnuplot_svg_script(data, outputs));
  if (changed || !fs::exists(folder / outputs.svg) || !fs::exists(folder / outputs.axes))
    jobs.push_back({{"gnuplot", script}, folder.string(), name + ".log", -1});
  return {folder, outputs.svg, outputs.axes};
}

// The figure the index shows for an experiment: its first of one panel, which reads at the size
// of a thumbnail, else its first.
std::string headline_figure(const Experiment& e) {
  const auto figures = e.notebook.cells_of<FigureCell>();
  for (size_t i = 0; i < figures.size() && i < e.figure_files.size(); ++i)
    if (figures[i]->data.panels.size() == 1) return e.figure_files[i];
  return e.figure_files.empty() ? "" : e.figure_files.front();
}

// Pages of experiments that have no results any more, with their figures and pictures.
void remove_gone_pages(const fs::path& out, const std::set<std::string>& pages) {
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".html" || file == "index.html" || pages.count(file)) continue;
    const std::string name = entry.path().stem().string();
    fs::remove(entry.path());
    for (const char* folder : {"figures", "pictures", ".build"})
      fs::remove_all(out / folder / name);
  }
}

// An experiment's results, notebook and page file; `make_page` false: only for the index.
Experiment load_experiment(const std::string& dir, const NotebookOptions& options, bool make_page) {
  Experiment e;
  e.results = load_results_document(dir);
  if (make_page && e.results.file.gallery.is_array() && !e.results.file.gallery.empty())
    restore_gallery(e.results.directory);
  const std::string name = experiment_name(e.results);
  // The name comes from the results file: as a file name it keeps only letters, digits, - and _.
  const std::string discussion = (options.discussions / (html_id(name) + ".md")).generic_string();
  e.notebook = build_notebook(e.results, NotebookSources{std::string("auto"), discussion});
  e.file = html_id(e.notebook.name) + ".html";
  e.fingerprint = page_fingerprint(e, discussion);
  const fs::path stamp = options.out / ".build" / html_id(name) / "inputs.sha256";
  e.current = !make_page || (fs::exists(options.out / e.file) && fs::exists(stamp) &&
                             read_text_file(stamp) == e.fingerprint + "\n");
  for (const FigureCell* figure : e.notebook.cells_of<FigureCell>())
    e.figure_files.push_back("figures/" + html_id(name) + "/" +
                             html_id(figure->data.declaration.name) + ".svg");
  return e;
}

// The results folders of the pages made earlier into `out` that still have results.
std::vector<std::string> earlier_sources(const fs::path& out) {
  std::vector<std::string> dirs;
  if (!fs::is_directory(out / ".build")) return dirs;
  for (const auto& entry : fs::directory_iterator(out / ".build")) {
    const fs::path source = entry.path() / "source";
    if (!fs::exists(source)) continue;
    std::string dir = read_text_file(source);
    while (!dir.empty() && dir.back() == '\n') dir.pop_back();
    if (fs::exists(fs::path(dir) / "results.json")) dirs.push_back(dir);
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

int make_notebook(const NotebookOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const std::vector<std::string> dirs =
      options.results.empty() ? default_results() : options.results;
  fs::create_directories(options.out);
  const bool katex = write_assets(options.out);
  const bool gnuplot = program_available("gnuplot");
  if (!katex)
    std::cerr << "convlab notebook: KaTeX not found (" << kKatexDirectory
              << "): math shows as TeX; scripts/install-deps.sh notebook installs it\n";
  if (!gnuplot)
    std::cerr << "convlab notebook: gnuplot not found: figures are left out; "
                 "scripts/install-deps.sh notebook installs it\n";

  std::vector<Experiment> experiments;
  std::set<std::string> files;
  const auto add = [&](const std::string& dir, bool make_page) {
    Experiment e = load_experiment(dir, options, make_page);
    if (!files.insert(e.file).second)
      throw ExportError(dir + ": a second experiment named '" + e.notebook.name +
                        "'; each page is named after its experiment");
    experiments.push_back(std::move(e));
  };
  for (const auto& dir : dirs) add(dir, true);
  // Pages made earlier of experiments not named this time stay in the index.
  if (!options.results.empty())
    for (const auto& dir : earlier_sources(options.out))
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end() &&
          !files.count(html_id(fs::path(dir).filename().string()) + ".html"))
        try {
          add(dir, false);
        } catch (const std::exception&) {
          // A page of a renamed or broken experiment: it is left out of the index.
        }

  // Figures of the pages to make, drawn by gnuplot side by side.
  std::vector<ChildJob> jobs;
  std::map<const Experiment*, std::vector<FigureWork>> work;
  for (const Experiment& e : experiments) {
    if (e.current || !gnuplot) continue;
    const fs::path folder = options.out / ".build" / html_id(e.notebook.name);
    fs::create_directories(folder);
    for (const FigureCell* figure : e.notebook.cells_of<FigureCell>())
      work[&e].push_back(prepare_figure(*figure, folder, jobs));
  }
  run_jobs(jobs, std::max(1u, std::thread::hardware_concurrency()));
  for (const ChildJob& job : jobs)
    if (job.exit_code != 0)
      throw ExportError("gnuplot failed on " + job.directory + "/" + job.argv.back() + "; see " +
                        job.directory + "/" + job.log + ":\n" +
                        read_text_file(fs::path(job.directory) / job.log));

  const std::string generator = generator_words();
  size_t written = 0;
  for (const Experiment& e : experiments) {
    if (e.current) continue;
    PageContext context;
    context.generator = generator;
    context.build_id = build_id().substr(0, 12);
    context.katex = katex;
    context.figure_files = e.figure_files;
    for (const FigureWork& figure : work[&e])
      context.figures.push_back({read_text_file(figure.folder / figure.svg),
                                 read_text_file(figure.folder / figure.axes)});
    context.pictures = copy_pictures(e, options.out);
    ExperimentPage page;
    try {
      page = experiment_page(e.notebook, context);
    } catch (const SvgError& error) {
      throw ExportError(e.notebook.name + ": a figure's SVG from gnuplot: " + error.what());
    }
    for (const RenderedFile& figure : page.figures)
      write_if_changed(options.out / figure.path, figure.content);
    written += write_if_changed(options.out / e.file, page.html);
    write_if_changed(options.out / ".build" / html_id(e.notebook.name) / "inputs.sha256",
                     e.fingerprint + "\n");
    write_if_changed(options.out / ".build" / html_id(e.notebook.name) / "source",
                     e.results.directory + "\n");
  }

  if (options.results.empty()) remove_gone_pages(options.out, files);

  std::vector<IndexEntry> entries;
  for (const Experiment& e : experiments)
    entries.push_back({&e.notebook, e.file, headline_figure(e)});
  IndexContext index;
  index.generator = generator;
  index.katex = katex;
  write_if_changed(options.out / "index.html", index_page(entries, index));

  if (!options.quiet) {
    for (const Experiment& e : experiments)
      for (const auto& note : e.notebook.notes) std::cerr << "convlab notebook: " << note << "\n";
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const size_t current = static_cast<size_t>(std::count_if(
        experiments.begin(), experiments.end(), [](const Experiment& e) { return e.current; }));
    std::cout << (options.out / "index.html").generic_string() << ": " << experiments.size()
              << " experiments (" << experiments.size() - current << " pages made, " << written
              << " changed, " << current << " up to date), " << jobs.size() << " figures drawn, in "
              << format_number(seconds, 3) << " s\n";
  }
  return 0;
}

}  // namespace

int notebook_command(const Arguments& args) {
  NotebookOptions options;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kNotebookHelp;
        return 0;
      }
      const auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) throw ExportError("convlab notebook: " + arg + " needs a value");
        return args[++i];
      };
      if (arg == "--out")
        options.out = value();
      else if (arg == "--discussions")
        options.discussions = value();
      else if (arg == "--quiet")
        options.quiet = true;
      else if (!arg.empty() && arg[0] == '-')
        throw ExportError("convlab notebook: unknown option " + arg +
                          " (see convlab notebook --help)");
      else
        options.results.push_back(arg);
    }
    return make_notebook(options);
  } catch (const ConfigError& error) {
    std::cerr << error.what() << "\n";
  } catch (const ExportError& error) {
    std::cerr << error.what() << "\n";
  } catch (const FileError& error) {
    std::cerr << "convlab notebook: " << error.what() << "\n";
  } catch (const fs::filesystem_error& error) {
    std::cerr << "convlab notebook: " << error.what() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "convlab notebook: " << error.what() << "\n";
  }
  return 2;
}

}  // namespace convlab

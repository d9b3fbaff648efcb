#include "html/experiment_page.hpp"

#include <algorithm>
#include <string>
#include <variant>

#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "html/html_markdown.hpp"
#include "html/html_text.hpp"
#include "html/page_frame.hpp"
#include "html/query_cell_html.hpp"
#include "html/source_cell_html.hpp"
#include "html/svg_sanitizer.hpp"
#include "html/table_html.hpp"
#include "html/yaml_highlight.hpp"
#include "notebook/freshness.hpp"

namespace convlab {
namespace {

std::string cell_html(const std::string& kind, const std::string& id, const std::string& label,
                      const std::string& body, bool changed) {
  return "<section class=\"cell cell-" + kind + (changed ? " changed" : "") + "\" id=\"" + id +
         "\">\n<div class=\"cell-label\">" + html_escape(label) +
         (changed ? " <span class=\"changed-badge\">changed</span>" : "") +
         "</div>\n<div class=\"cell-body\">\n" + body + "</div>\n</section>\n";
}

// "0.8 s", "42 s", "3 min 05 s".
std::string format_duration_words(double seconds) {
  if (seconds < 10) return format_number(std::max(seconds, 0.0), 2) + " s";
  const long whole = static_cast<long>(seconds + 0.5);
  if (whole < 60) return std::to_string(whole) + " s";
  const long s = whole % 60;
  return std::to_string(whole / 60) + " min " + (s < 10 ? "0" : "") + std::to_string(s) + " s";
}

// Writes the page's cells and notes the digest of each; on a live page a cell whose content
// differs from the previous render's is marked changed.
class CellWriter {
 public:
  CellWriter(const PageContext& context, ExperimentPage& page)
      : live_(context.live ? &*context.live : nullptr), page_(page) {}

  std::string operator()(const std::string& kind, const std::string& id, const std::string& label,
                         const std::string& body) {
    const std::string digest = sha256_hex(label + "\n" + body);
    page_.digests[id] = digest;
    bool changed = false;
    if (live_ && !live_->previous_digests.empty()) {
      const auto previous = live_->previous_digests.find(id);
      changed = previous == live_->previous_digests.end() || previous->second != digest;
    }
    if (changed) page_.changed.push_back(id);
    return cell_html(kind, id, label, body, changed);
  }

 private:
  const LivePage* live_;
  ExperimentPage& page_;
};

// The top of a live page: the config error (the results below are the last good ones) and the
// sweep under way. Both elements are there, maybe empty, so that the script can fill them in.
std::string live_top(const LivePage& live) {
  const bool compile = !live.compile_error.empty();
  const std::string& error = compile ? live.compile_error : live.config_error;
  const std::string label = compile ? kCompileErrorLabel : kConfigErrorLabel;
  std::string out = "<section class=\"cell cell-error\" id=\"cell-error\"";
  if (error.empty()) {
    out += " hidden=\"hidden\"><div class=\"cell-label\">" + label + "</div>";
    out += "<div class=\"cell-body\"><pre class=\"error-text\"></pre></div></section>\n";
  } else {
    out += " role=\"alert\"><div class=\"cell-label\">" + label + "</div>";
    out += "<div class=\"cell-body\"><pre class=\"error-text\">" + html_escape(error) +
           "</pre><p class=\"meta\">Nothing was run; the page shows the last good results. Fix "
           "the " +
           std::string(compile ? "kernel source" : "config") +
           " and save it again.</p></div></section>\n";
  }
  out += "<p class=\"live-progress\" id=\"live-progress\" aria-live=\"polite\"";
  if (live.progress)
    out += ">" + html_escape(live_progress_words(*live.progress)) + "</p>\n";
  else
    out += " hidden=\"hidden\"></p>\n";
  return out;
}

std::string banner(const ExperimentNotebook& notebook, const PageContext& context) {
  const Freshness& f = notebook.freshness;
  std::string out;
  // While a sweep runs the points not measured yet are the ones its progress line counts down.
  const bool sweeping = context.live && context.live->progress;
  const std::string stale = sweeping ? std::string() : stale_words(f);
  if (!stale.empty()) {
    out +=
        "<div class=\"banner stale\" role=\"alert\"><strong>stale:</strong> " + html_escape(stale);
    if (!f.unmeasured_examples.empty()) {
      out += "<details><summary>the points not measured" +
             std::string(f.unmeasured_examples.size() < f.unmeasured_points
                             ? " (the first " + std::to_string(f.unmeasured_examples.size()) + ")"
                             : "") +
             "</summary><ul class=\"plain points\">";
      for (const auto& point : f.unmeasured_examples) out += "<li>" + html_escape(point) + "</li>";
      out += "</ul></details>";
    }
    const RunCell* run = notebook.first<RunCell>();
    const bool same_build = run && std::find(run->builds.begin(), run->builds.end(),
                                             context.build_id) != run->builds.end();
    if (!f.update_command.empty())
      out += " <span class=\"fix\">Bring it up to date: <code id=\"update-command\">" +
             html_escape(f.update_command) + "</code> " +
             copy_button("update-command", "the command") +
             (same_build || context.build_id.empty()
                  ? std::string(" (the points this build measured are kept)")
                  : std::string(" (with this build every point is measured again: measurements "
                                "are kept per build and machine)")) +
             ", then <code>make notebook</code>.</span>";
    out += "</div>\n";
  } else if (f.config_changed) {
    out += "<div class=\"banner note\">" + html_escape(f.change_words) +
           " The page shows the config as written now.</div>\n";
  }
  if (f.config_gone)
    out +=
        "<div class=\"banner note\">The config these results were run from is not on disk any "
        "more: figures and tables are drawn as the copy in results.json declares them.</div>\n";
  if (!notebook.other_versions.empty())
    out += "<div class=\"banner note\"><strong>other versions:</strong> " +
           html_escape(notebook.other_versions) +
           " <code>convlab show --all-versions</code> lists them.</div>\n";
  if (f.unknown_commit)
    out +=
        "<div class=\"banner stale\" role=\"alert\"><strong>unknown revision:</strong> a run "
        "recorded no commit, so these numbers cannot be tied to the code that produced "
        "them.</div>\n";
  return out;
}

std::string config_html(const ConfigCell& config) {
  std::string out;
  if (config.path.empty()) {
    out +=
        "<p class=\"meta\">The config file is gone; this is the resolved config the run "
        "recorded in results.json.</p>\n";
  } else {
    out += "<p class=\"meta\"><code>" + html_escape(config.path) + "</code> &#183; sha256 <code>" +
           html_escape(config.sha256.substr(0, 12)) + "</code>";
    if (!config.recorded_sha256.empty() && config.recorded_sha256 != config.sha256)
      out += config.same_content
                 ? " &#183; the run recorded <code>" +
                       html_escape(config.recorded_sha256.substr(0, 12)) +
                       "</code>, which differs in comments or spacing only"
                 : " &#183; <span class=\"bad\">the run recorded <code>" +
                       html_escape(config.recorded_sha256.substr(0, 12)) + "</code></span>";
    out += "</p>\n";
  }
  out += "<div class=\"code-block\">" + copy_button("config-text", "the config") +
         "<pre class=\"yaml\"><code id=\"config-text\">" + yaml_html(config.text) +
         "</code></pre></div>\n";
  if (!config.rerun_command.empty())
    out += "<p class=\"rerun\">Run it again: <code id=\"rerun-command\">" +
           html_escape(config.rerun_command) + "</code> " +
           copy_button("rerun-command", "the command") +
           " (points measured by this build on this machine are kept; <code>ARGS=--force</code> "
           "measures them again)</p>\n";
  return out;
}

std::string run_html(const RunCell& run, const ExperimentNotebook& notebook,
                     const PageContext& context) {
  std::string out =
      "<div class=\"table-scroll\"><table class=\"facts\">\n<thead><tr><th>Run</th>"
      "<th>When (UTC)</th><th>Commit</th><th>Machine</th><th>GPU</th>"
      "<th>Compiler</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < run.runs.size(); ++i) {
    const Provenance& p = run.runs[i];
    std::string gpu = p.gpu;
    if (!p.gpu_details.empty()) gpu += " (" + p.gpu_details + ")";
    if (!p.clocks.empty()) gpu += "; clocks " + p.clocks;
    out += "<tr><td>" + std::to_string(i + 1) + "</td><td>" + html_escape(p.started) + " &#8211; " +
           html_escape(p.finished) + "</td><td><code" + (p.commit_known ? "" : " class=\"bad\"") +
           ">" + html_escape(p.commit) + "</code></td><td>" + html_escape(p.cpu) +
           (p.memory.empty() ? "" : ", " + html_escape(p.memory)) +
           (p.os.empty() ? "" : "<br />" + html_escape(p.os)) + "</td><td>" + html_escape(gpu) +
           "</td><td>" + html_escape(p.compiler) + "</td></tr>\n";
  }
  out += "</tbody></table></div>\n<dl class=\"facts\">\n";
  out += "<dt>Points</dt><dd>" + html_escape(run_counts_line(run.latest)) +
         " <span class=\"hint\">(kept: measured by an earlier run and not run again)</span></dd>\n";
  const Freshness& fresh = notebook.freshness;
  if (fresh.unmeasured_known)
    out += "<dt>Plan</dt><dd>the config on disk makes " + std::to_string(fresh.planned_points) +
           " points; " +
           (fresh.unmeasured_points == 0
                ? std::string("every one of them has a record")
                : std::to_string(fresh.unmeasured_points) + " of them are not measured") +
           "</dd>\n";
  if (!run.skip_reasons.empty()) {
    out += "<dt>Skipped</dt><dd><ul class=\"plain\">";
    for (const auto& reason : run.skip_reasons) out += "<li>" + html_escape(reason) + "</li>";
    out += "</ul></dd>\n";
  }
  out += "<dt>Noisy</dt><dd>";
  if (run.noisy.empty()) {
    out += "no measured point has a CV above " + format_number(RunCell::kNoisyCv * 100, 2) + " %";
  } else {
    out += std::to_string(run.noisy.size()) + " of " + std::to_string(run.measured) +
           " measured points have a CV above " + format_number(RunCell::kNoisyCv * 100, 2) +
           " %<details><summary>the worst</summary><ul class=\"plain\">";
    for (size_t i = 0; i < run.noisy.size() && i < 10; ++i)
      out += "<li>CV " + format_number(run.noisy[i].cv * 100, 2) + " % &#183; " +
             html_escape(run.noisy[i].point) + "</li>";
    out += "</ul></details>";
  }
  out += "</dd>\n";
  out += "<dt>Builds</dt><dd>measured by ";
  for (size_t i = 0; i < run.builds.size(); ++i)
    out += (i ? ", " : "") + std::string("<code>") + html_escape(run.builds[i]) + "</code>";
  if (!context.build_id.empty()) {
    out += "; this convlab is <code>" + html_escape(context.build_id) + "</code>";
    if (std::find(run.builds.begin(), run.builds.end(), context.build_id) == run.builds.end())
      out +=
          " <span class=\"hint\">(another build: running the config with it measures every "
          "point again, since measurements are kept per build and machine)</span>";
  }
  out += "</dd>\n";
  if (!run.measure.empty())
    out +=
        "<dt>Measure</dt><dd><pre class=\"settings\">" + html_escape(run.measure) + "</pre></dd>\n";
  out += "<dt>Results</dt><dd><code>" + html_escape(notebook.results_path) + "</code></dd>\n";
  out += "</dl>\n";
  return out;
}

std::string gallery_html(const GalleryCell& gallery, const PageContext& context) {
  std::string out;
  const auto picture = [&](const std::string& path, const std::string& alt,
                           const std::string& label_html) {
    const auto url = context.pictures.find(path);
    std::string html = "<figure class=\"picture\">";
    if (url == context.pictures.end())
      html +=
          "<div class=\"missing\">picture not found: <code>" + html_escape(path) + "</code></div>";
    else
      html += "<img src=\"" + html_escape(url->second) + "\" alt=\"" + html_escape(alt) +
              "\" loading=\"lazy\" />";
    return html + "<figcaption>" + label_html + "</figcaption></figure>\n";
  };
  for (const GalleryGroup& group : gallery.groups) {
    out += "<h3>" + html_escape(group.image) + "</h3>\n<div class=\"pictures\">\n";
    out += picture(group.input_path, group.image + ": input", "input");
    for (const auto& p : group.pictures)
      out +=
          picture(p.output_path, group.image + ": " + plain_text(p.label), rich_text_html(p.label));
    out += "</div>\n<p class=\"caption\">" + rich_text_html(group.caption) + "</p>\n";
  }
  return out;
}

// The description, or a part of the discussion (the first with the file's path).
std::string markdown_cell_html(const MarkdownCell& markdown, CellWriter& cell) {
  if (markdown.role == MarkdownCell::Role::description)
    return cell("description", "description", "description",
                markdown_html(markdown.document, markdown.values));
  const std::string id =
      markdown.part == 0 ? "discussion" : "discussion-" + std::to_string(markdown.part + 1);
  return cell("discussion", id, "discussion",
              (markdown.part == 0 ? "<p class=\"meta\">" + html_escape(markdown.path) + "</p>\n"
                                  : std::string()) +
                  markdown_html(markdown.document, markdown.values));
}

// Where a figure or table would have been: its caption and why it is not there.
std::string omitted_html(const OmittedCell& omitted) {
  const std::string kind = omitted.kind == OmittedCell::Kind::figure ? "figure" : "table";
  return "<p class=\"omitted\"><strong>The " + kind + " <code>" + html_escape(omitted.name) +
         "</code> is left out:</strong> " + html_escape(omitted.reason) + ".</p>\n" +
         "<p class=\"caption\">" + html_escape(omitted.caption) + "</p>\n";
}

std::string notes_html(const ExperimentNotebook& notebook) {
  if (notebook.notes.empty()) return "";
  std::string out = "<ul class=\"plain\">";
  for (const auto& note : notebook.notes) out += "<li>" + html_escape(note) + "</li>";
  return out + "</ul>\n";
}

// A figure as drawn, looked up by its name, or an error cell in its place when gnuplot failed or
// drew an SVG that is not well-formed: that figure alone is lost, and the page names it. Where
// nothing ran (gnuplot is not installed) the cell says why instead of showing the figure.
std::string figure_cell(const FigureCell& figure, const PageContext& context, size_t index,
                        CellWriter& cell, ExperimentPage& page) {
  const std::string id = "cell-figure-" + std::to_string(index + 1);
  const std::string& name = figure.data.declaration.name;
  const DrawnFigure* drawn = find_drawn(context.figures, name);
  if (!drawn || drawn->state == DrawnFigure::State::not_drawn)
    return cell(
        "figure", id, "figure",
        undrawn_figure_html(figure, index, drawn ? drawn->why : "no drawing of it was made"));
  std::string error = drawn->why;
  if (drawn->state == DrawnFigure::State::drawn) {
    try {
      const FigureHtml html = figure_html(figure, *drawn, index);
      if (!drawn->picture.empty()) page.figures.push_back({drawn->picture, html.standalone});
      return cell("figure", id, "figure", html.html);
    } catch (const SvgError& svg) {
      error = "figure '" + name + "': gnuplot's SVG is not well-formed: " + svg.what();
    }
  }
  page.figure_errors.push_back(error);
  return cell("figure cell-error", id, "figure not drawn",
              failed_figure_html(figure, index, error));
}

}  // namespace

std::string stale_words(const Freshness& f) {
  std::string words;
  if (f.measured_settings_changed) words = f.change_words;
  if (f.unmeasured_points > 0)
    words += (words.empty() ? "" : " ") + std::to_string(f.unmeasured_points) + " of " +
             std::to_string(f.planned_points) + " points of the current config are not measured.";
  return words;
}

std::string live_progress_words(const LiveProgress& progress) {
  if (progress.done >= progress.total)
    return "sweep done: " + std::to_string(progress.total) + " of " +
           std::to_string(progress.total) + " points";
  return "sweep running: point " + std::to_string(progress.done + 1) + " of " +
         std::to_string(progress.total) + ", ETA " + format_duration_words(progress.eta_seconds);
}

ExperimentPage experiment_page(const ExperimentNotebook& notebook, const PageContext& context) {
  ExperimentPage page;
  CellWriter cell(context, page);
  std::string body = "<h1>" + html_escape(notebook.title) + "</h1>\n";
  const ConfigCell* config = notebook.first<ConfigCell>();
  body += "<p class=\"subtitle\">Experiment <code>" + html_escape(notebook.name) + "</code>";
  if (config && !config->path.empty())
    body += " &#183; <code>" + html_escape(config->path) + "</code>";
  body += "</p>\n";
  if (context.live) body += live_top(*context.live);
  body += banner(notebook, context);
  size_t figures = 0, tables = 0, sources = 0, omitted_cells = 0, queries = 0;
  for (const NotebookCell& c : notebook.cells) {
    std::visit(
        CellVisitor{
            [&](const MarkdownCell& markdown) { body += markdown_cell_html(markdown, cell); },
            [&](const OmittedCell& omitted) {
              const size_t index = omitted_cells++;
              body += cell("omitted", "cell-omitted-" + std::to_string(index + 1),
                           omitted.kind == OmittedCell::Kind::figure ? "figure" : "table",
                           omitted_html(omitted));
            },
            [&](const ConfigCell& cfg) {
              body += cell("config", "config", "config", config_html(cfg));
            },
            [&](const SourceCell& source) {
              const size_t index = sources++;
              body += cell("source", "cell-source-" + std::to_string(index + 1), "kernel source",
                           source_cell_html(source, index));
            },
            [&](const RunCell& run) {
              body += cell("run", "run", "run", run_html(run, notebook, context));
            },
            [&](const FigureCell& figure) {
              body += figure_cell(figure, context, figures++, cell, page);
            },
            [&](const TableCell& table) {
              const size_t index = tables++;
              body += cell("table", "cell-table-" + std::to_string(index + 1), "table",
                           table_html(table, index));
            },
            [&](const GalleryCell& gallery) {
              body += cell("gallery", "gallery", "gallery", gallery_html(gallery, context));
            },
            [&](const VerificationCell& verification) {
              body += cell("verification", "verification", "verification",
                           verification_html(verification));
            },
            [&](const QueryCell& query) {
              const size_t index = queries++;
              body += cell("query", "cell-query-" + std::to_string(index + 1), "query",
                           query_cell_html(query, index));
            },
        },
        c);
  }
  if (!notebook.notes.empty()) body += cell("notes", "notes", "notes", notes_html(notebook));
  PageFrame frame;
  frame.title = notebook.title + " \xC2\xB7 convlab notebook";
  frame.assets = context.assets;
  frame.index_link = context.index_link;
  frame.breadcrumb = notebook.name;
  frame.footer_html = "Generated by " + html_escape(context.generator) + " from <code>" +
                      html_escape(notebook.results_path) + "</code>.";
  frame.katex = context.katex;
  if (context.live) {
    frame.live = true;
    frame.live_page = context.live->served_as;
  }
  page.html = page_html(frame, body);
  return page;
}

}  // namespace convlab

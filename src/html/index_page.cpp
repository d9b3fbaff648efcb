#include "html/index_page.hpp"

#include <algorithm>

#include "html/experiment_page.hpp"
#include "html/html_text.hpp"
#include "html/page_frame.hpp"

namespace convlab {
namespace {

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end())
    list.push_back(item);
}

std::string joined_html(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + html_escape(items[i]);
  return out;
}

// Staleness in a few words for the index; the page says it in full.
std::string short_stale_words(const Freshness& f) {
  std::vector<std::string> parts;
  if (f.measured_settings_changed) parts.push_back("the config changed after the run");
  if (f.unmeasured_points > 0)
    parts.push_back(std::to_string(f.unmeasured_points) + " of " +
                    std::to_string(f.planned_points) + " points not measured");
  std::string words;
  for (const auto& part : parts) words += (words.empty() ? "" : "; ") + part;
  return words;
}

// A history's machine panels, the span of its commits, and the status of the points of every
// commit's results together.
void describe_history(const History& history, std::vector<std::string>& machines,
                      std::vector<std::string>& commits, VerificationSummary& summary) {
  for (const HistoryPanel& panel : history.panels) add_unique(machines, panel.label);
  const auto& listed = history.index.commits;
  if (!listed.empty())
    commits.push_back(std::to_string(listed.size()) +
                      (listed.size() == 1 ? " commit: " : " commits: ") +
                      listed.front().id.substr(0, 7) +
                      (listed.size() > 1 ? ".." + listed.back().id.substr(0, 7) : ""));
  for (const auto& document : history.documents)
    for (const Record& record : document->file.records)
      ++(record.status == Status::ok        ? summary.ok
         : record.status == Status::skipped ? summary.skipped
                                            : summary.failed);
}

std::string entry_row(const IndexEntry& entry, bool with_study) {
  const ExperimentNotebook& notebook = *entry.notebook;
  std::vector<std::string> machines, commits;
  if (const RunCell* run = notebook.first<RunCell>())
    for (const Provenance& p : run->runs) {
      add_unique(machines, p.cpu + (p.gpu == "none used" ? "" : " + " + p.gpu));
      add_unique(commits, p.commit);
    }
  const VerificationCell* verification = notebook.first<VerificationCell>();
  VerificationSummary summary = verification ? verification->summary : VerificationSummary{};
  if (entry.history) describe_history(*entry.history, machines, commits, summary);
  const std::string stale = short_stale_words(notebook.freshness);
  std::string out = "<tr><th scope=\"row\" data-sort=\"" + html_escape(notebook.title) +
                    "\"><a href=\"" + html_escape(url_path(entry.page)) + "\">" +
                    html_escape(notebook.title) + "</a><br /><code>" + html_escape(notebook.name) +
                    "</code></th>";
  if (with_study)
    out += "<td data-sort=\"" + std::to_string(entry.order) + "\">" + html_escape(entry.study) +
           "</td>";
  out += "<td>" + joined_html(machines, "<br />") + "</td>";
  out += "<td><code>" + joined_html(commits, "</code><br /><code>") + "</code></td>";
  out += "<td class=\"headline\">";
  if (!entry.headline.empty())
    out += "<a href=\"" + html_escape(url_path(entry.page)) + "\"><img src=\"" +
           html_escape(url_path(entry.headline)) + "\" alt=\"The first figure of " +
           html_escape(notebook.name) + "\" /></a>";
  out += "</td>";
  out += "<td class=\"num\" data-sort=\"" + std::to_string(summary.ok) + "\">" +
         std::to_string(summary.ok) + "</td>";
  out += "<td class=\"num\" data-sort=\"" + std::to_string(summary.skipped) + "\">" +
         std::to_string(summary.skipped) + "</td>";
  out += "<td class=\"num" + std::string(summary.failed ? " bad" : "") + "\" data-sort=\"" +
         std::to_string(summary.failed) + "\">" + std::to_string(summary.failed) + "</td>";
  if (stale.empty())
    out += "<td data-sort=\"0\"><span class=\"fresh\">up to date</span></td>";
  else
    out += "<td data-sort=\"1\"><span class=\"stale-tag\">stale</span> " + html_escape(stale) +
           "</td>";
  return out + "</tr>\n";
}

}  // namespace

std::string index_page(const std::vector<IndexEntry>& entries, const IndexContext& context) {
  size_t stale = 0, points = 0;
  for (const auto& entry : entries) {
    stale += !stale_words(entry.notebook->freshness).empty();
    if (const VerificationCell* v = entry.notebook->first<VerificationCell>())
      points += v->summary.ok;
  }
  std::string body = "<h1>Experiments</h1>\n<p class=\"subtitle\">" +
                     std::to_string(entries.size()) + " experiments, " + std::to_string(points) +
                     " measured points" +
                     (stale ? ", " + std::to_string(stale) + " stale" : std::string()) +
                     ". Each page shows an experiment's config, run, figures, tables, "
                     "verification and discussion.</p>\n";
  body +=
      "<div class=\"table-tools\"><input type=\"search\" class=\"table-filter\" "
      "data-table=\"experiments\" placeholder=\"Filter experiments\" aria-label=\"Filter the "
      "experiments\" /></div>\n";
  body +=
      "<div class=\"table-scroll\"><table class=\"sortable data experiments\" "
      "id=\"experiments\">\n<thead><tr>";
  // The study column when the experiments come in the report's reading order.
  const bool with_study = std::any_of(entries.begin(), entries.end(),
                                      [](const IndexEntry& entry) { return !entry.study.empty(); });
  for (const char* header : {"Experiment", "Study", "Machines", "Commits", "Headline figure", "Ok",
                             "Skipped", "Failed", "Freshness"}) {
    const std::string h = header;
    if (h == "Study" && !with_study) continue;
    const bool numeric = h == "Ok" || h == "Skipped" || h == "Failed";
    body += std::string("<th scope=\"col\" aria-sort=\"none\"") +
            (numeric ? " class=\"num\"" : "") + "><button type=\"button\" class=\"sort\">" + h +
            "</button></th>";
  }
  body += "</tr></thead>\n<tbody>\n";
  for (const auto& entry : entries) body += entry_row(entry, with_study);
  body += "</tbody>\n</table></div>\n";
  PageFrame frame;
  frame.title = "convlab notebook";
  frame.assets = context.assets;
  frame.footer_html = "Generated by " + html_escape(context.generator) + ".";
  frame.katex = context.katex;
  frame.live = context.live;
  if (context.live) frame.live_page = "index.html";
  return page_html(frame, body);
}

}  // namespace convlab

// The frame every notebook page shares: an XHTML-compatible HTML5 document (well-formed XML, so
// xmllint can check it), a Content-Security-Policy that lets the page load only the notebook's own
// files (no inline script or style, no network), the notebook's style sheets and scripts, and the
// top bar leading back to the index.
#pragma once

#include <string>

namespace convlab {

// The policy each page carries in a <meta> element.
extern const char* const kContentSecurityPolicy;
// The policy of a live page: the same, and connections to its own server.
extern const char* const kLiveContentSecurityPolicy;

struct PageFrame {
  std::string title;        // the document title (escaped here)
  std::string assets;       // the assets folder relative to the page, e.g. "assets"
  std::string index_link;   // the index relative to the page; empty on the index itself
  std::string breadcrumb;   // text after "convlab notebook" in the top bar (escaped here)
  std::string footer_html;  // markup, already escaped
  bool katex = true;  // assets/katex holds KaTeX (Debian's libjs-katex); else math shows as TeX
  // A page that convlab watch keeps up to date: its policy also lets the script connect to the
  // server it came from (connect-src 'self'), and `live_page` (when served) tells the script
  // which page to follow.
  bool live = false;
  std::string live_page;
};

// A button that copies the text of the element `target_id` (the page's script does the copying);
// `what` names it for screen readers, e.g. "the config".
std::string copy_button(const std::string& target_id, const std::string& what);

// `body_html`: the page's <main> content, already escaped.
std::string page_html(const PageFrame& frame, const std::string& body_html);

}  // namespace convlab

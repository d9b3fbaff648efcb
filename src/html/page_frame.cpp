#include "html/page_frame.hpp"

#include "html/html_text.hpp"

namespace convlab {

const char* const kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "base-uri 'none'; form-action 'none'";

const char* const kLiveContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'";

std::string copy_button(const std::string& target_id, const std::string& what) {
  return "<button type=\"button\" class=\"copy\" data-copy=\"" + html_escape(target_id) +
         "\" aria-label=\"Copy " + html_escape(what) + "\">Copy</button>";
}

std::string page_html(const PageFrame& frame, const std::string& body_html) {
  const std::string assets = html_escape(frame.assets);
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n";
  out += "<meta charset=\"utf-8\" />\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
         html_escape(frame.live ? kLiveContentSecurityPolicy : kContentSecurityPolicy) + "\" />\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n";
  out += "<meta name=\"generator\" content=\"convlab notebook\" />\n";
  if (frame.live && !frame.live_page.empty())
    out += "<meta name=\"convlab-live\" content=\"" + html_escape(frame.live_page) + "\" />\n";
  out += "<title>" + html_escape(frame.title) + "</title>\n";
  if (frame.katex)
    out += "<link rel=\"stylesheet\" href=\"" + assets + "/katex/katex.min.css\" />\n";
  out += "<link rel=\"stylesheet\" href=\"" + assets + "/notebook.css\" />\n";
  if (frame.katex)
    out += "<script src=\"" + assets + "/katex/katex.min.js\" defer=\"defer\"></script>\n";
  // A served page may be edited and run (editing.js); it runs before notebook.js, which starts it.
  if (frame.live) out += "<script src=\"" + assets + "/editing.js\" defer=\"defer\"></script>\n";
  out += "<script src=\"" + assets + "/notebook.js\" defer=\"defer\"></script>\n";
  out += "</head>\n<body>\n<header class=\"topbar\"><nav>";
  if (frame.index_link.empty())
    out += "<span class=\"brand\">convlab notebook</span>";
  else
    out += "<a class=\"brand\" href=\"" + html_escape(frame.index_link) + "\">convlab notebook</a>";
  if (!frame.breadcrumb.empty())
    out += " <span class=\"crumb\">/ " + html_escape(frame.breadcrumb) + "</span>";
  out += "</nav></header>\n<main>\n" + body_html + "</main>\n";
  out += "<footer>" + frame.footer_html + "</footer>\n</body>\n</html>\n";
  return out;
}

}  // namespace convlab

// What every response of the notebook server says about itself: the type of a served file by its
// extension, and the headers that keep a browser from sniffing, framing, caching or leaking it.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace convlab {

// The policy the server sends with every response: the policy each page carries in its <meta>
// element (html/page_frame.cpp), plus what only a header can say or only a live page needs:
// connect-src 'self' for the live channel (EventSource) and frame-ancestors 'none'.
extern const char* const kServedContentSecurityPolicy;

// "text/html; charset=utf-8" for .html, and so on for js, css, svg, png, json, woff2, txt and the
// other files a notebook holds; "application/octet-stream" for an extension not known.
std::string content_type_of(const std::filesystem::path& file);

// Headers every response carries, errors included: nosniff, no referrer, no framing, the policy,
// no-store (pages, figures and events change while a sweep runs), same-origin resources only.
const std::vector<std::pair<std::string, std::string>>& security_headers();

}  // namespace convlab

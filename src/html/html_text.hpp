// Text into HTML and SVG: every string of a config, a results file, a discussion or a file name
// passes through one of these before it reaches a page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace convlab {

// &, <, >, " and ' as character references: safe in text and in quoted attribute values. Control
// characters other than tab and line breaks (not allowed in XML) become U+FFFD, and so do bytes
// that are not UTF-8.
std::string html_escape(std::string_view text);

// JSON for a <script type="application/json"> element: <, > and & written as \u003c, \u003e and
// \u0026, so that no sequence of the data can end the element or read as markup, in HTML and in
// XML alike. The page's script reads it with JSON.parse; no script is built from data.
std::string script_json(const nlohmann::json& data);

// A valid id or class fragment made of a name: letters, digits, - and _ kept, the rest as -.
std::string html_id(std::string_view name);

// A relative URL of a file path: each byte outside [A-Za-z0-9/._~-] percent-encoded.
std::string url_path(std::string_view path);

}  // namespace convlab

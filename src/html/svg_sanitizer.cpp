#include "html/svg_sanitizer.hpp"

#include <cctype>
#include <set>
#include <vector>

#include "html/html_text.hpp"

namespace convlab {
namespace {

const std::set<std::string>& allowed_elements() {
  static const std::set<std::string> names = {
      "svg",         "g",        "defs",    "path",           "rect",
      "circle",      "ellipse",  "line",    "polyline",       "polygon",
      "text",        "tspan",    "use",     "filter",         "feFlood",
      "feComposite", "clipPath", "pattern", "linearGradient", "radialGradient",
      "stop"};
  return names;
}

const std::set<std::string>& allowed_attributes() {
  static const std::set<std::string> names = {"id",
                                              "x",
                                              "y",
                                              "x1",
                                              "y1",
                                              "x2",
                                              "y2",
                                              "cx",
                                              "cy",
                                              "r",
                                              "rx",
                                              "ry",
                                              "width",
                                              "height",
                                              "d",
                                              "points",
                                              "transform",
                                              "fill",
                                              "fill-opacity",
                                              "fill-rule",
                                              "stroke",
                                              "stroke-width",
                                              "stroke-opacity",
                                              "stroke-linecap",
                                              "stroke-linejoin",
                                              "stroke-dasharray",
                                              "stroke-dashoffset",
                                              "stroke-miterlimit",
                                              "opacity",
                                              "color",
                                              "font-family",
                                              "font-size",
                                              "font-weight",
                                              "font-style",
                                              "text-anchor",
                                              "dominant-baseline",
                                              "shape-rendering",
                                              "clip-path",
                                              "viewBox",
                                              "preserveAspectRatio",
                                              "filterUnits",
                                              "flood-color",
                                              "flood-opacity",
                                              "result",
                                              "in",
                                              "in2",
                                              "operator",
                                              "patternUnits",
                                              "patternContentUnits",
                                              "gradientUnits",
                                              "offset",
                                              "stop-color",
                                              "stop-opacity",
                                              "href",
                                              "xlink:href",
                                              "filter",
                                              "visibility",
                                              "display",
                                              "xml:space",
                                              "letter-spacing",
                                              "clipPathUnits",
                                              "baseline-shift",
                                              "text-decoration"};
  return names;
}

struct Attribute {
  std::string name;
  std::string value;  // decoded
};

struct Tag {
  std::string name;
  std::vector<Attribute> attributes;
  bool closing = false;
  bool self_closing = false;
};

std::string decode_entities(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    const size_t end = text.find(';', i);
    if (end == std::string::npos || end - i > 12) throw SvgError("a stray & in the SVG");
    const std::string name = text.substr(i + 1, end - i - 1);
    if (name == "lt")
      out += '<';
    else if (name == "gt")
      out += '>';
    else if (name == "amp")
      out += '&';
    else if (name == "quot")
      out += '"';
    else if (name == "apos")
      out += '\'';
    else if (name.size() > 1 && name[0] == '#') {
      const bool hex = name[1] == 'x' || name[1] == 'X';
      unsigned long code = 0;
      try {
        code = std::stoul(name.substr(hex ? 2 : 1), nullptr, hex ? 16 : 10);
      } catch (const std::exception&) {
        throw SvgError("a bad character reference &" + name + "; in the SVG");
      }
      // As UTF-8; html_escape replaces what XML does not allow.
      if (code < 0x80) {
        out += static_cast<char>(code);
      } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else if (code <= 0x10FFFF) {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        throw SvgError("a bad character reference &" + name + "; in the SVG");
      }
    } else {
      throw SvgError("an unknown entity &" + name + "; in the SVG");
    }
    i = end;
  }
  return out;
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

class Sanitizer {
 public:
  Sanitizer(const std::string& svg, const SvgSanitizeOptions& options)
      : in_(svg), options_(options) {}

  std::string run() {
    while (at_ < in_.size()) {
      if (in_[at_] == '<')
        markup();
      else
        text();
    }
    if (!open_.empty()) throw SvgError("the SVG ends inside <" + open_.back().name + ">");
    if (!seen_root_) throw SvgError("no <svg> element");
    return out_;
  }

 private:
  struct Open {
    std::string name;
    bool kept = false;
  };

  bool dropping() const { return drop_depth_ > 0; }

  void text() {
    const size_t end = in_.find('<', at_);
    const std::string raw =
        in_.substr(at_, end == std::string::npos ? std::string::npos : end - at_);
    at_ = end == std::string::npos ? in_.size() : end;
    if (dropping() || open_.empty()) {
      if (open_.empty() && !trimmed(raw).empty()) throw SvgError("text outside the <svg> element");
      return;
    }
    out_ += html_escape(decode_entities(raw));
  }

  void skip_past(const std::string& terminator, const char* what) {
    const size_t end = in_.find(terminator, at_);
    if (end == std::string::npos) throw SvgError(std::string("an unclosed ") + what);
    at_ = end + terminator.size();
  }

  void markup() {
    if (in_.compare(at_, 4, "<!--") == 0) return skip_past("-->", "comment");
    if (in_.compare(at_, 2, "<?") == 0) return skip_past("?>", "processing instruction");
    if (in_.compare(at_, 9, "<![CDATA[") == 0) {
      const size_t start = at_ + 9;
      skip_past("]]>", "CDATA section");
      if (!dropping() && !open_.empty()) out_ += html_escape(in_.substr(start, at_ - 3 - start));
      return;
    }
    if (in_.compare(at_, 2, "<!") == 0) return skip_past(">", "declaration");
    element(read_tag());
  }

  Tag read_tag() {
    Tag tag;
    ++at_;
    if (at_ < in_.size() && in_[at_] == '/') {
      tag.closing = true;
      ++at_;
    }
    tag.name = read_name();
    while (true) {
      skip_space();
      if (at_ >= in_.size()) throw SvgError("an unclosed <" + tag.name + ">");
      if (in_[at_] == '>') {
        ++at_;
        return tag;
      }
      if (in_.compare(at_, 2, "/>") == 0) {
        at_ += 2;
        tag.self_closing = true;
        return tag;
      }
      if (tag.closing) throw SvgError("attributes in </" + tag.name + ">");
      Attribute attribute;
      attribute.name = read_name();
      skip_space();
      if (at_ >= in_.size() || in_[at_] != '=')
        throw SvgError("attribute " + attribute.name + " of <" + tag.name + "> has no value");
      ++at_;
      skip_space();
      if (at_ >= in_.size() || (in_[at_] != '"' && in_[at_] != '\''))
        throw SvgError("attribute " + attribute.name + " of <" + tag.name + "> is not quoted");
      const char quote = in_[at_++];
      const size_t end = in_.find(quote, at_);
      if (end == std::string::npos) throw SvgError("an unclosed attribute value");
      const std::string raw = in_.substr(at_, end - at_);
      if (raw.find('<') != std::string::npos) throw SvgError("< in an attribute value");
      attribute.value = decode_entities(raw);
      at_ = end + 1;
      tag.attributes.push_back(std::move(attribute));
    }
  }

  std::string read_name() {
    const size_t start = at_;
    while (at_ < in_.size() &&
           (std::isalnum(static_cast<unsigned char>(in_[at_])) || in_[at_] == ':' ||
            in_[at_] == '-' || in_[at_] == '_' || in_[at_] == '.'))
      ++at_;
    if (at_ == start) throw SvgError("a tag or attribute without a name");
    return in_.substr(start, at_ - start);
  }

  void skip_space() {
    while (at_ < in_.size() && std::isspace(static_cast<unsigned char>(in_[at_]))) ++at_;
  }

  void element(const Tag& tag) {
    if (tag.closing) {
      if (open_.empty() || open_.back().name != tag.name)
        throw SvgError("</" + tag.name + "> closes " +
                       (open_.empty() ? std::string("nothing") : "<" + open_.back().name + ">"));
      const Open closed = open_.back();
      open_.pop_back();
      if (!closed.kept) {
        --drop_depth_;
      } else {
        if (open_.empty()) out_ += options_.append;
        out_ += "</" + tag.name + ">";
      }
      return;
    }
    if (open_.empty()) {
      if (tag.name != "svg" || seen_root_) throw SvgError("the root element is not one <svg>");
      seen_root_ = true;
    }
    const bool keep = !dropping() && allowed_elements().count(tag.name) > 0;
    if (keep) write_start(tag);
    if (tag.self_closing) return;
    if (!keep) ++drop_depth_;
    open_.push_back({tag.name, keep});
  }

  // url(#id) with the figure's prefix; empty for any other URL.
  std::string rewrite_url(const std::string& value) const {
    const std::string v = trimmed(value);
    if (v.rfind("url(", 0) != 0) return value;
    const size_t close = v.find(')');
    std::string target =
        trimmed(v.substr(4, close == std::string::npos ? std::string::npos : close - 4));
    if (!target.empty() && (target.front() == '\'' || target.front() == '"'))
      target = target.substr(1, target.size() - 2);
    if (target.empty() || target[0] != '#') return "";
    return "url(#" + prefixed(target.substr(1)) + ")";
  }

  std::string prefixed(const std::string& id) const {
    return options_.id_prefix + "-" + html_id(id);
  }

  // The attribute as it may stand in the page, or false to drop it.
  bool clean(Attribute& attribute) const {
    if (!allowed_attributes().count(attribute.name)) return false;
    const std::string lower = lowercase(attribute.value);
    if (lower.find("javascript:") != std::string::npos ||
        lower.find("expression(") != std::string::npos)
      return false;
    if (attribute.name == "id") {
      attribute.value = prefixed(attribute.value);
      return true;
    }
    if (attribute.name == "href" || attribute.name == "xlink:href") {
      if (attribute.value.empty() || attribute.value[0] != '#') return false;
      attribute.value = "#" + prefixed(attribute.value.substr(1));
      return true;
    }
    if (lower.find("url(") != std::string::npos) {
      attribute.value = rewrite_url(attribute.value);
      return !attribute.value.empty();
    }
    return true;
  }

  // style="a: b; c: d" as presentation attributes, which a Content-Security-Policy allows.
  static std::vector<Attribute> style_attributes(const std::string& style) {
    std::vector<Attribute> out;
    size_t start = 0;
    while (start < style.size()) {
      size_t end = style.find(';', start);
      if (end == std::string::npos) end = style.size();
      const std::string declaration = style.substr(start, end - start);
      const size_t colon = declaration.find(':');
      if (colon != std::string::npos)
        out.push_back({lowercase(trimmed(declaration.substr(0, colon))),
                       trimmed(declaration.substr(colon + 1))});
      start = end + 1;
    }
    return out;
  }

  void write_start(const Tag& tag) {
    std::vector<Attribute> attributes;
    for (const auto& attribute : tag.attributes) {
      if (attribute.name == "style") {
        for (auto& property : style_attributes(attribute.value)) attributes.push_back(property);
        continue;
      }
      attributes.push_back(attribute);
    }
    out_ += "<" + tag.name;
    const bool root = open_.empty();
    std::set<std::string> written;
    std::string gnuplot_id;
    for (auto attribute : attributes) {
      if (root && (attribute.name == "width" || attribute.name == "height")) continue;
      if (attribute.name == "id") gnuplot_id = attribute.value;
      if (written.count(attribute.name) || !clean(attribute)) continue;
      written.insert(attribute.name);
      out_ += " " + attribute.name + "=\"" + html_escape(attribute.value) + "\"";
    }
    SvgAttributes extra;
    if (root) extra = options_.root_attributes;
    if (tag.name == "g" && !gnuplot_id.empty() && options_.annotate_group)
      extra = options_.annotate_group(gnuplot_id);
    for (const auto& [name, value] : extra)
      if (!written.count(name)) {
        written.insert(name);
        out_ += " " + name + "=\"" + html_escape(value) + "\"";
      }
    if (tag.self_closing && root) {
      out_ += ">" + options_.append + "</svg>";
      return;
    }
    out_ += tag.self_closing ? "/>" : ">";
  }

  const std::string& in_;
  const SvgSanitizeOptions& options_;
  size_t at_ = 0;
  std::vector<Open> open_;
  int drop_depth_ = 0;
  bool seen_root_ = false;
  std::string out_;
};

}  // namespace

std::string sanitize_svg(const std::string& svg, const SvgSanitizeOptions& options) {
  return Sanitizer(svg, options).run();
}

}  // namespace convlab

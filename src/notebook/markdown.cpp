#include "notebook/markdown.hpp"

#include <cmark.h>

#include <algorithm>
#include <memory>

#include "query/results_document.hpp"

namespace convlab {
namespace {

// Math spans and values stand in the text cmark parses as private-use characters around a kind
// and an index, so that cmark's escapes and emphasis never touch TeX or filters.
const std::string kOpen = "\xEE\x80\x80";   // U+E000
const std::string kClose = "\xEE\x80\x81";  // U+E001

struct Protected {
  ProseSpans spans;
  std::string source;  // the text as written
  std::string text;    // with placeholders
};

// A span of the source that a placeholder stands for: 'v' a value, 'm' math, 'p' a placed cell.
struct Span {
  size_t begin, end;
  char kind;
  size_t index;
};

Protected protect(const std::string& source, const std::string& file) {
  Protected result{find_prose_spans(source, ProseSyntax::markdown, file), source, ""};
  std::vector<Span> spans;
  const auto& found = result.spans;
  for (size_t i = 0; i < found.values.size(); ++i)
    spans.push_back({found.values[i].begin, found.values[i].end, 'v', i});
  for (size_t i = 0; i < found.math.size(); ++i)
    spans.push_back({found.math[i].begin, found.math[i].end, 'm', i});
  for (size_t i = 0; i < found.placements.size(); ++i)
    spans.push_back({found.placements[i].begin, found.placements[i].end, 'p', i});
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.begin < b.begin; });
  size_t at = 0;
  for (const Span& span : spans) {
    result.text += source.substr(at, span.begin - at);
    result.text += kOpen + span.kind + std::to_string(span.index) + kClose;
    at = span.end;
  }
  result.text += source.substr(at);
  return result;
}

struct Placeholder {
  char kind = 0;
  size_t index = 0;
  size_t length = 0;  // bytes of the placeholder in the parsed text
};

// The placeholder starting at `at` in `text`, if one does.
bool placeholder_at(const std::string& text, size_t at, Placeholder& found) {
  if (text.compare(at, kOpen.size(), kOpen) != 0) return false;
  size_t p = at + kOpen.size();
  if (p >= text.size() || (text[p] != 'v' && text[p] != 'm' && text[p] != 'p')) return false;
  found.kind = text[p++];
  const size_t digits = p;
  while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) ++p;
  if (p == digits || text.compare(p, kClose.size(), kClose) != 0) return false;
  found.index = std::stoul(text.substr(digits, p - digits));
  found.length = p + kClose.size() - at;
  return true;
}

class Converter {
 public:
  Converter(const Protected& input, MarkdownDocument& document)
      : input_(input), document_(document) {}

  std::vector<MarkdownBlock> blocks(cmark_node* parent) {
    std::vector<MarkdownBlock> out;
    for (cmark_node* node = cmark_node_first_child(parent); node; node = cmark_node_next(node))
      add_block(node, out);
    return out;
  }

 private:
  // Text cmark keeps literally (code, raw HTML) gets the spans back as they were written.
  std::string restored(const char* literal) const {
    const std::string text = literal ? literal : "";
    std::string out;
    for (size_t at = 0; at < text.size();) {
      Placeholder p;
      if (placeholder_at(text, at, p) && span_fits(p)) {
        out += original(p);
        at += p.length;
      } else {
        out += text[at++];
      }
    }
    return out;
  }

  bool span_fits(const Placeholder& p) const {
    if (p.kind == 'p') return p.index < input_.spans.placements.size();
    return p.kind == 'v' ? p.index < input_.spans.values.size()
                         : p.index < input_.spans.math.size();
  }

  std::pair<size_t, size_t> span_of(const Placeholder& p) const {
    const auto& spans = input_.spans;
    if (p.kind == 'v') return {spans.values[p.index].begin, spans.values[p.index].end};
    if (p.kind == 'm') return {spans.math[p.index].begin, spans.math[p.index].end};
    return {spans.placements[p.index].begin, spans.placements[p.index].end};
  }

  std::string original(const Placeholder& p) const {
    const auto [begin, end] = span_of(p);
    return input_.source.substr(begin, end - begin);
  }

  void add_text(const char* literal, RichText& out) {
    const std::string text = literal ? literal : "";
    std::string plain;
    const auto flush = [&] {
      if (!plain.empty()) out.push_back(text_inline(std::move(plain)));
      plain.clear();
    };
    for (size_t at = 0; at < text.size();) {
      Placeholder p;
      if (!placeholder_at(text, at, p) || !span_fits(p)) {
        plain += text[at++];
        continue;
      }
      flush();
      MarkdownInline piece;
      if (p.kind == 'v') {
        piece.kind = MarkdownInline::Kind::value;
        piece.value = document_.values.size();
        document_.values.push_back(input_.spans.values[p.index]);
      } else if (p.kind == 'p') {
        piece.kind = MarkdownInline::Kind::placement;
        piece.value = p.index;
      } else {
        const MathSpan& math = input_.spans.math[p.index];
        piece.kind = math.display ? MarkdownInline::Kind::display_math : MarkdownInline::Kind::math;
        piece.text = math.tex;
      }
      out.push_back(std::move(piece));
      at += p.length;
    }
    flush();
  }

  RichText inlines(cmark_node* parent) {
    RichText out;
    for (cmark_node* node = cmark_node_first_child(parent); node; node = cmark_node_next(node))
      add_inline(node, out);
    return out;
  }

  void add_inline(cmark_node* node, RichText& out) {
    MarkdownInline piece;
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_TEXT:
        add_text(cmark_node_get_literal(node), out);
        return;
      case CMARK_NODE_CODE:
        piece.kind = MarkdownInline::Kind::code;
        piece.text = restored(cmark_node_get_literal(node));
        break;
      case CMARK_NODE_HTML_INLINE: {
        const std::string html = restored(cmark_node_get_literal(node));
        if (html.rfind("<!--", 0) == 0) return;
        piece.text = html;
        break;
      }
      case CMARK_NODE_SOFTBREAK:
        piece.kind = MarkdownInline::Kind::soft_break;
        break;
      case CMARK_NODE_LINEBREAK:
        piece.kind = MarkdownInline::Kind::line_break;
        break;
      case CMARK_NODE_EMPH:
        piece.kind = MarkdownInline::Kind::emphasis;
        piece.children = inlines(node);
        break;
      case CMARK_NODE_STRONG:
        piece.kind = MarkdownInline::Kind::strong;
        piece.children = inlines(node);
        break;
      case CMARK_NODE_LINK: {
        piece.kind = MarkdownInline::Kind::link;
        const char* url = cmark_node_get_url(node);
        piece.text = restored(url);
        piece.children = inlines(node);
        break;
      }
      case CMARK_NODE_IMAGE: {  // pictures belong in the gallery: the alt text stands
        RichText alt = inlines(node);
        out.insert(out.end(), alt.begin(), alt.end());
        return;
      }
      default:
        return;
    }
    out.push_back(std::move(piece));
  }

  [[noreturn]] void misplaced(size_t placement, const std::string& why) const {
    const CellPlacement& p = input_.spans.placements.at(placement);
    throw ResultsError(document_.file + ":" + std::to_string(p.line) + ": " + placement_text(p) +
                       ": " + why);
  }

  // A placement among inlines, nested ones included; npos when there is none.
  static size_t placement_in(const RichText& pieces) {
    for (const auto& piece : pieces) {
      if (piece.kind == MarkdownInline::Kind::placement) return piece.value;
      if (const size_t nested = placement_in(piece.children); nested != std::string::npos)
        return nested;
    }
    return std::string::npos;
  }

  static bool blank(const MarkdownInline& piece) {
    return piece.kind == MarkdownInline::Kind::text &&
           piece.text.find_first_not_of(" \t") == std::string::npos;
  }

  // The placement a line of inlines consists of, alone but for spaces; npos when it is not one.
  static size_t lone_placement(const RichText& line) {
    size_t found = std::string::npos, others = 0;
    for (const auto& piece : line) {
      if (piece.kind == MarkdownInline::Kind::placement && found == std::string::npos)
        found = piece.value;
      else if (!blank(piece))
        ++others;
    }
    return others == 0 ? found : std::string::npos;
  }

  // A paragraph, split where a line of it places a cell: the lines before and after stay
  // paragraphs, and the cell's place is noted between them (top level only).
  void add_paragraph(RichText inlines, std::vector<MarkdownBlock>& out) {
    if (placement_in(inlines) == std::string::npos) {
      MarkdownBlock block;
      block.inlines = std::move(inlines);
      out.push_back(std::move(block));
      return;
    }
    RichText pending, line;
    const auto flush = [&] {
      while (!pending.empty() && (pending.back().kind == MarkdownInline::Kind::soft_break ||
                                  pending.back().kind == MarkdownInline::Kind::line_break))
        pending.pop_back();
      if (pending.empty()) return;
      MarkdownBlock block;
      block.inlines = std::move(pending);
      out.push_back(std::move(block));
      pending.clear();
    };
    const auto end_line = [&](const MarkdownInline* line_end) {
      const size_t alone = lone_placement(line);
      if (alone != std::string::npos) {
        if (depth_ > 0)
          misplaced(alone,
                    "a cell is placed at the top level of the discussion, not inside a "
                    "list or a quote");
        flush();
        document_.placed.push_back({out.size(), input_.spans.placements[alone]});
      } else if (const size_t inside = placement_in(line); inside != std::string::npos) {
        misplaced(inside, "a cell is placed on a line of its own");
      } else {
        pending.insert(pending.end(), line.begin(), line.end());
        if (line_end) pending.push_back(*line_end);
      }
      line.clear();
    };
    for (const auto& piece : inlines) {
      const bool breaks = piece.kind == MarkdownInline::Kind::soft_break ||
                          piece.kind == MarkdownInline::Kind::line_break;
      if (breaks)
        end_line(&piece);
      else
        line.push_back(piece);
    }
    end_line(nullptr);
    flush();
  }

  std::vector<MarkdownBlock> nested_blocks(cmark_node* node) {
    ++depth_;
    std::vector<MarkdownBlock> children = blocks(node);
    --depth_;
    return children;
  }

  void add_block(cmark_node* node, std::vector<MarkdownBlock>& out) {
    MarkdownBlock block;
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_PARAGRAPH:
        add_paragraph(inlines(node), out);
        return;
      case CMARK_NODE_HEADING:
        block.kind = MarkdownBlock::Kind::heading;
        block.level = cmark_node_get_heading_level(node);
        block.inlines = inlines(node);
        if (const size_t placed = placement_in(block.inlines); placed != std::string::npos)
          misplaced(placed, "a cell is placed on a line of its own, not in a heading");
        break;
      case CMARK_NODE_LIST:
        block.kind = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
                         ? MarkdownBlock::Kind::ordered_list
                         : MarkdownBlock::Kind::bullet_list;
        block.start = cmark_node_get_list_start(node);
        block.children = nested_blocks(node);
        break;
      case CMARK_NODE_ITEM:
        block.kind = MarkdownBlock::Kind::item;
        block.children = nested_blocks(node);
        break;
      case CMARK_NODE_BLOCK_QUOTE:
        block.kind = MarkdownBlock::Kind::quote;
        block.children = nested_blocks(node);
        break;
      case CMARK_NODE_CODE_BLOCK:
        block.kind = MarkdownBlock::Kind::code;
        block.code = restored(cmark_node_get_literal(node));
        break;
      case CMARK_NODE_HTML_BLOCK: {
        const std::string html = restored(cmark_node_get_literal(node));
        if (html.rfind("<!--", 0) == 0) return;
        block.kind = MarkdownBlock::Kind::code;  // shown as written, never as markup
        block.code = html;
        break;
      }
      case CMARK_NODE_THEMATIC_BREAK:
        block.kind = MarkdownBlock::Kind::rule;
        break;
      default:
        return;
    }
    out.push_back(std::move(block));
  }

  const Protected& input_;
  MarkdownDocument& document_;
  int depth_ = 0;  // lists and quotes around the block being converted
};

struct NodeDeleter {
  void operator()(cmark_node* node) const { cmark_node_free(node); }
};

void append_plain(const RichText& inlines, const std::vector<std::string>& values,
                  std::string& out) {
  for (const auto& piece : inlines) {
    switch (piece.kind) {
      case MarkdownInline::Kind::value:
        out += piece.value < values.size() ? values[piece.value] : "";
        break;
      case MarkdownInline::Kind::soft_break:
      case MarkdownInline::Kind::line_break:
        out += ' ';
        break;
      case MarkdownInline::Kind::link:
      case MarkdownInline::Kind::emphasis:
      case MarkdownInline::Kind::strong:
        append_plain(piece.children, values, out);
        break;
      default:
        out += piece.text;
    }
  }
}

}  // namespace

MarkdownDocument parse_markdown(const std::string& text, const std::string& file) {
  const Protected input = protect(text, file);
  std::unique_ptr<cmark_node, NodeDeleter> root(cmark_parse_document(
      input.text.data(), input.text.size(), CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8));
  MarkdownDocument document;
  document.file = file;
  Converter converter(input, document);
  document.blocks = converter.blocks(root.get());
  return document;
}

MarkdownDocument plain_text_document(const std::string& text) {
  MarkdownDocument document;
  if (text.empty()) return document;
  MarkdownBlock paragraph;
  paragraph.inlines.push_back(text_inline(text));
  document.blocks.push_back(std::move(paragraph));
  return document;
}

MarkdownInline text_inline(std::string text) {
  MarkdownInline piece;
  piece.text = std::move(text);
  return piece;
}

MarkdownInline math_inline(std::string tex) {
  MarkdownInline piece;
  piece.kind = MarkdownInline::Kind::math;
  piece.text = std::move(tex);
  return piece;
}

std::string plain_text(const RichText& inlines, const std::vector<std::string>& values) {
  std::string out;
  append_plain(inlines, values, out);
  return out;
}

}  // namespace convlab

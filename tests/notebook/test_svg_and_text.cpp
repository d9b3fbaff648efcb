// The pieces that keep hostile text out of markup: the SVG sanitiser, HTML escaping, the JSON a
// page carries, and the YAML highlighter, which must keep the config's text byte for byte.
#include <gtest/gtest.h>

#include <regex>

#include "html/html_text.hpp"
#include "html/svg_sanitizer.hpp"
#include "html/yaml_highlight.hpp"

namespace convlab {
namespace {

SvgSanitizeOptions prefixed(const std::string& prefix) {
  SvgSanitizeOptions options;
  options.id_prefix = prefix;
  return options;
}

TEST(SvgSanitizer, DropsScriptsHandlersStylesAndForeignContent) {
  const std::string svg =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n"
      "<svg width=\"600\" height=\"400\" viewBox=\"0 0 600 400\" onload=\"evil()\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n"
      "<title>Gnuplot</title><desc>Produced by GNUPLOT</desc>"
      "<script type=\"text/javascript\"><![CDATA[ alert(1) ]]></script>"
      "<style>text { fill: red }</style>"
      "<foreignObject><div xmlns=\"http://www.w3.org/1999/xhtml\">x</div></foreignObject>"
      "<a href=\"https://example.org\"><text>link</text></a>"
      "<g id=\"gnuplot_plot_1\" onmouseover=\"evil()\" style=\"stroke: #123456; cursor: pointer\">"
      "<title>gnuplot_plot_1</title>"
      "<path d='M0,0 L1,1' stroke = 'black' fill=\"url(https://x.org/a)\"/>"
      "<text x=\"1\">a \"quoted\" &lt;b> &amp; 'x' &#60;</text>"
      "<use xlink:href='#gpPt6' href=\"javascript:evil()\"/>"
      "<image href=\"data:image/png;base64,AAAA\"/>"
      "</g></svg>\n";
  const std::string out = sanitize_svg(svg, prefixed("f1"));
  for (const char* gone : {"onload", "onmouseover", "<script", "alert", "<style", "foreignObject",
                           "<a ", ">link<", "<title", "<desc", "Gnuplot", "javascript", "<image",
                           "https://", "cursor", "width=\"600\"", "<?xml", "DOCTYPE"})
    EXPECT_EQ(out.find(gone), std::string::npos) << gone << "\n" << out;
  for (const char* kept :
       {"viewBox=\"0 0 600 400\"", "id=\"f1-gnuplot_plot_1\"", "stroke=\"#123456\"",
        "<path d=\"M0,0 L1,1\" stroke=\"black\"/>",
        "a &quot;quoted&quot; &lt;b&gt; &amp; &#39;x&#39; &lt;", "xlink:href=\"#f1-gpPt6\""})
    EXPECT_NE(out.find(kept), std::string::npos) << kept << "\n" << out;
}

TEST(SvgSanitizer, IdsOfTwoFiguresNeverClash) {
  const std::string svg =
      "<svg><defs><path id=\"gpPt1\" d=\"M0,0\"/><filter id=\"textbox\"/></defs>"
      "<use xlink:href=\"#gpPt1\"/><g filter=\"url(#textbox)\"/></svg>";
  const std::string a = sanitize_svg(svg, prefixed("f1"));
  const std::string b = sanitize_svg(svg, prefixed("f2"));
  EXPECT_NE(a.find("id=\"f1-gpPt1\""), std::string::npos) << a;
  EXPECT_NE(a.find("filter=\"url(#f1-textbox)\""), std::string::npos) << a;
  EXPECT_NE(b.find("xlink:href=\"#f2-gpPt1\""), std::string::npos) << b;
  EXPECT_EQ(b.find("f1-"), std::string::npos) << b;
}

TEST(SvgSanitizer, AnnotatesGroupsAppendsTheLayerAndRefusesMalformedInput) {
  SvgSanitizeOptions options = prefixed("f3");
  options.root_attributes = {{"class", "plot-svg"}, {"aria-label", "a \"title\" <b>"}};
  options.annotate_group = [](const std::string& id) -> SvgAttributes {
    if (id == "gnuplot_plot_2a") return {{"class", "series"}, {"data-series", "1"}};
    return {};
  };
  options.append = "<g class=\"hover-layer\"></g>";
  const std::string out = sanitize_svg(
      "<svg viewBox=\"0 0 1 1\"><g id=\"gnuplot_plot_2a\"></g><g id=\"other\"/></svg>", options);
  EXPECT_EQ(out,
            "<svg viewBox=\"0 0 1 1\" class=\"plot-svg\" aria-label=\"a &quot;title&quot; "
            "&lt;b&gt;\"><g id=\"f3-gnuplot_plot_2a\" class=\"series\" data-series=\"1\"></g>"
            "<g id=\"f3-other\"/><g class=\"hover-layer\"></g></svg>");
  for (const char* bad : {"<svg><g></svg>", "<svg><g a=b/></svg>", "<g/>", "<svg>&bogus;</svg>",
                          "<svg><text>a</text>", "text<svg/>", "<svg/><svg/>"})
    EXPECT_THROW(sanitize_svg(bad, prefixed("f")), SvgError) << bad;
}

TEST(HtmlText, EscapesMarkupQuotesControlsAndBrokenUtf8) {
  EXPECT_EQ(html_escape("<a href=\"x\" onclick='y'>&</a>"),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  EXPECT_EQ(html_escape("ok\x01\xff\xc3\x97"), "ok\xEF\xBF\xBD\xEF\xBF\xBD\xC3\x97");
  EXPECT_EQ(html_id("a b/<c>"), "a-b--c-");
  EXPECT_EQ(url_path("figures/a b/<x>.svg"), "figures/a%20b/%3Cx%3E.svg");
}

TEST(HtmlText, ScriptJsonCannotEndItsElement) {
  const std::string json = script_json({{"label", "</script><script>alert(1)</script> & <!--"}});
  EXPECT_EQ(json.find('<'), std::string::npos);
  EXPECT_EQ(json.find('>'), std::string::npos);
  EXPECT_EQ(json.find('&'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(json)["label"], "</script><script>alert(1)</script> & <!--");
}

TEST(YamlHighlight, KeepsTheTextAndMarksItsParts) {
  const std::string yaml =
      "# comment <b>\nname: x\nimages:\n  - {type: generated, sizes: [64, 128], seed: 3}\n"
      "description: |\n  a block <i>\n  with \"quotes\"\nflag: true  # trailing\n"
      "title: 'it''s # not a comment'\r\n";
  const std::string html = yaml_html(yaml);
  // Without its spans and with its references decoded, the HTML is the YAML.
  std::string text = std::regex_replace(html, std::regex("<[^>]*>"), "");
  for (const auto& [entity, character] :
       std::vector<std::pair<std::string, std::string>>{{"&lt;", "<"},
                                                        {"&gt;", ">"},
                                                        {"&quot;", "\""},
                                                        {"&#39;", "'"},
                                                        {"&#13;", "\r"},
                                                        {"&amp;", "&"}})
    text = std::regex_replace(text, std::regex(entity), character);
  EXPECT_EQ(text, yaml);
  for (const char* part :
       {"<span class=\"y-com\"># comment &lt;b&gt;</span>", "<span class=\"y-key\">name</span>",
        "<span class=\"y-num\">64</span>", "<span class=\"y-bool\">true</span>",
        "<span class=\"y-str\">  a block &lt;i&gt;</span>",
        "<span class=\"y-com\"># trailing</span>"})
    EXPECT_NE(html.find(part), std::string::npos) << part << "\n" << html;
  EXPECT_EQ(html.find("y-com\"># not"), std::string::npos) << html;
}

}  // namespace
}  // namespace convlab

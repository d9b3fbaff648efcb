#include "notebook/gallery_cell.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "gallery/gallery.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Appends words and math to rich text, joining neighbouring words into one piece.
class Words {
 public:
  Words& text(const std::string& words) {
    if (!out_.empty() && out_.back().kind == MarkdownInline::Kind::text)
      out_.back().text += words;
    else
      out_.push_back(text_inline(words));
    return *this;
  }
  Words& math(const std::string& tex) {
    out_.push_back(math_inline(tex));
    return *this;
  }
  RichText done() { return std::move(out_); }

 private:
  RichText out_;
};

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

bool from_reference(const GalleryPicture& picture) {
  return picture.implementation.empty();
}

// "all 4" or "2 of 4": points whose output is byte-identical to the shown one.
std::string identical_words(const GalleryPicture& picture) {
  if (picture.identical == picture.ran) {
    if (picture.ran <= 2) return picture.ran == 1 ? "the only one that ran" : "both";
    return "all " + std::to_string(picture.ran);
  }
  return std::to_string(picture.identical) + " of " + std::to_string(picture.ran);
}

// Kernels grouped by a key, in first-appearance order.
std::vector<std::pair<std::string, std::vector<std::string>>> group_kernels(
    const std::vector<GalleryPicture>& pictures, std::string (*key)(const GalleryPicture&)) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& picture : pictures) {
    if (from_reference(picture)) continue;
    const std::string k = key(picture);
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == k; });
    if (group == groups.end()) group = groups.insert(groups.end(), {k, {}});
    group->second.push_back(picture.kernel);
  }
  return groups;
}

void sources_sentence(const std::vector<GalleryPicture>& pictures, const std::string& main,
                      Words& words) {
  words.text("Each picture is an implementation's own saved output: " + main + "'s");
  const auto by_implementation =
      group_kernels(pictures, [](const GalleryPicture& p) { return p.implementation; });
  if (by_implementation.size() == 1) {
    words.text(" for every filter");
  } else {
    words.text(" for the others");
    for (const auto& [implementation, kernels] : by_implementation)
      if (implementation != main) words.text("; " + implementation + "'s for " + joined(kernels));
  }
  std::vector<std::string> reasons;
  for (const auto& picture : pictures)
    if (!picture.fallback.empty() &&
        std::find(reasons.begin(), reasons.end(), picture.fallback) == reasons.end())
      reasons.push_back(picture.fallback);
  if (reasons.empty()) {
    words.text(". ");
    return;
  }
  words.text(
      " (standing in for the config's choice as the next implementation in its order whose "
      "point is ok: ");
  for (size_t i = 0; i < reasons.size(); ++i) words.text((i ? "; " : "") + reasons[i]);
  words.text("). ");
}

void identical_sentence(const std::vector<GalleryPicture>& pictures, Words& words) {
  const auto groups = group_kernels(
      pictures, [](const GalleryPicture& p) { return identical_words(p) + "|" + p.output; });
  words.text("Implementations whose output has the same bytes as the one shown: ");
  for (size_t i = 0; i < groups.size(); ++i) {
    const std::string& key = groups[i].first;
    const size_t bar = key.find('|');
    words.text((i ? "; " : "") + key.substr(0, bar) + " for " + joined(groups[i].second) + " (" +
               key.substr(bar + 1) + ")");
  }
  words.text(". ");
}

RichText caption(const GalleryGroup& group) {
  Words words;
  words.text(group.image + ": the input and every filter applied to it (" + group.border +
             " border). ");
  const std::string& main = group.main_implementation;
  if (main.empty())
    return words
        .text(
            "Drawn from the reference computation in float, not from an implementation's output "
            "(results of an earlier version; running the experiment again shows the "
            "implementations' own outputs): derivatives (Prewitt, Sobel) signed around mid-grey, "
            "the other zero-sum filters as their magnitude, both stretched so that the 99.5th "
            "percentile reaches full range; the rest as u8 output.")
        .done();
  sources_sentence(group.pictures, main, words);
  identical_sentence(group.pictures, words);
  if (std::any_of(group.pictures.begin(), group.pictures.end(), from_reference))
    words.text(
        "Pictures marked [reference] are drawn from the reference computation (results of an "
        "earlier version). ");
  return words
      .text(
          "Derivatives (Prewitt, Sobel; signed) are the f32 output around mid-grey, darker where "
          "brightness falls along the kernel's axis; the other zero-sum filters (")
      .math("|\\cdot|")
      .text(") the magnitude of the f32 output; both stretched so that the 99.5th percentile of ")
      .math("|")
      .text("value")
      .math("|")
      .text(" reaches full range. The rest are the u8 output as is.")
      .done();
}

RichText label(const GalleryPicture& picture, const std::string& main) {
  Words words;
  words.text(picture.kernel);
  if (picture.mapping == "signed") words.text(" (signed)");
  if (picture.mapping == "magnitude") words.text(" (").math("|\\cdot|").text(")");
  if (from_reference(picture)) {
    if (!main.empty()) words.text(" [reference]");
  } else if (picture.implementation != main) {
    words.text(" [" + picture.implementation + "]");
  }
  return words.done();
}

// A picture named by the results file, inside its folder; empty when the name leads out of it
// (an absolute path, or a .. component): a results file does not choose files elsewhere to show.
std::string inside(const fs::path& directory, const std::string& name) {
  const fs::path relative(name);
  if (name.empty() || relative.is_absolute()) return "";
  for (const auto& part : relative)
    if (part == "..") return "";
  return (directory / relative).generic_string();
}

// What a gallery picture was drawn from (gallery/gallery.hpp).
void describe_source(const json& item, GalleryPicture& picture) {
  const json& source = item["source"];
  picture.implementation = source.value("implementation", "");
  picture.output = source.value("output", "");
  picture.mapping = item.value("mapping", json::object()).value("kind", "straight");
  picture.fallback = item.value("fallback", "");
  for (const auto& count : item.value("identical", json::array()))
    if (count.is_object() && count.value("output", "") == picture.output) {
      picture.identical = count.value("identical", 0);
      picture.ran = count.value("ran", 0);
    }
}

}  // namespace

std::string gallery_main_implementation(const std::vector<GalleryPicture>& pictures) {
  std::map<std::string, int> counts;
  std::string main;
  for (const auto& picture : pictures)
    if (!from_reference(picture) && ++counts[picture.implementation] > counts[main])
      main = picture.implementation;
  return main;
}

GalleryCell gallery_cell(const ResultsDocument& results) {
  GalleryCell cell;
  const json& gallery = results.file.gallery;
  if (!gallery.is_array()) return cell;
  const fs::path directory(results.directory);
  for (const auto& item : gallery) {
    const std::string image = item.value("image", "");
    auto group = std::find_if(cell.groups.begin(), cell.groups.end(),
                              [&](const GalleryGroup& g) { return g.image == image; });
    if (group == cell.groups.end()) {
      group = cell.groups.insert(cell.groups.end(), GalleryGroup{});
      group->image = image;
      group->border = item.value("border", "");
      group->input_path = inside(directory, item.value("input", ""));
    }
    GalleryPicture picture;
    picture.kernel = item.value("kernel", "");
    picture.output_path = inside(directory, gallery_display_path(item));
    if (item.contains("source") && item["source"].is_object()) describe_source(item, picture);
    group->pictures.push_back(std::move(picture));
  }
  for (auto& group : cell.groups) {
    group.main_implementation = gallery_main_implementation(group.pictures);
    for (auto& picture : group.pictures) picture.label = label(picture, group.main_implementation);
    group.caption = caption(group);
  }
  return cell;
}

}  // namespace convlab

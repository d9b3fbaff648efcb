#include "report/gallery_caption.hpp"

#include <algorithm>
#include <map>

namespace convlab {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

bool from_reference(const GalleryImage& item) {
  return item.implementation.empty();
}

std::string possessive(const std::string& implementation) {
  return latex_text(implementation) + "'s";
}

// "all 4" or "2 of 4": points whose output is byte-identical to the shown one.
std::string identical_words(const GalleryImage& item) {
  if (item.identical == item.ran) {
    if (item.ran <= 2) return item.ran == 1 ? "the only one that ran" : "both";
    return "all " + std::to_string(item.ran);
  }
  return std::to_string(item.identical) + " of " + std::to_string(item.ran);
}

// Kernels grouped by a key, in first-appearance order.
std::vector<std::pair<std::string, std::vector<std::string>>> group_kernels(
    const std::vector<GalleryImage>& items, std::string (*key)(const GalleryImage&)) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& item : items) {
    if (from_reference(item)) continue;
    const std::string k = key(item);
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == k; });
    if (group == groups.end()) group = groups.insert(groups.end(), {k, {}});
    group->second.push_back(latex_text(item.kernel));
  }
  return groups;
}

std::string sources_sentence(const std::vector<GalleryImage>& items, const std::string& main) {
  std::string text = "Each picture is an implementation's own saved output: " + possessive(main);
  const auto by_implementation =
      group_kernels(items, [](const GalleryImage& i) { return i.implementation; });
  if (by_implementation.size() == 1) {
    text += " for every filter";
  } else {
    text += " for the others";
    for (const auto& [implementation, kernels] : by_implementation)
      if (implementation != main)
        text += "; " + possessive(implementation) + " for " + joined(kernels);
  }
  std::vector<std::string> reasons;
  for (const auto& item : items)
    if (!item.fallback.empty() &&
        std::find(reasons.begin(), reasons.end(), item.fallback) == reasons.end())
      reasons.push_back(item.fallback);
  if (reasons.empty()) return text + ". ";
  text +=
      " (standing in for the config's choice as the next implementation in its order whose "
      "point is ok: ";
  for (size_t i = 0; i < reasons.size(); ++i) text += (i ? "; " : "") + latex_text(reasons[i]);
  return text + "). ";
}

std::string identical_sentence(const std::vector<GalleryImage>& items) {
  const auto groups = group_kernels(
      items, [](const GalleryImage& i) { return identical_words(i) + "|" + i.output; });
  std::string text = "Implementations whose output has the same bytes as the one shown: ";
  for (size_t i = 0; i < groups.size(); ++i) {
    const std::string& key = groups[i].first;
    const size_t bar = key.find('|');
    text += (i ? "; " : "") + key.substr(0, bar) + " for " + joined(groups[i].second) + " (" +
            key.substr(bar + 1) + ")";
  }
  return text + ". ";
}

}  // namespace

std::string gallery_main_implementation(const std::vector<GalleryImage>& items) {
  std::map<std::string, int> counts;
  std::string main;
  for (const auto& item : items)
    if (!from_reference(item) && ++counts[item.implementation] > counts[main])
      main = item.implementation;
  return main;
}

std::string gallery_cell_label(const GalleryImage& item, const std::string& main_implementation) {
  std::string label = latex_text(item.kernel);
  if (item.mapping == "signed") label += " (signed)";
  if (item.mapping == "magnitude") label += " ($|\\cdot|$)";
  if (from_reference(item)) {
    if (!main_implementation.empty()) label += " [reference]";
  } else if (item.implementation != main_implementation)
    label += " [" + latex_text(item.implementation) + "]";
  return label;
}

std::string gallery_caption(const std::vector<GalleryImage>& items) {
  const std::string image = items.empty() ? "" : items.front().image;
  const std::string border = items.empty() ? "" : items.front().border;
  std::string text = latex_text(image) + ": the input and every filter applied to it (" +
                     latex_text(border) + " border). ";
  const std::string main = gallery_main_implementation(items);
  if (main.empty())
    return text +
           "Drawn from the reference computation in float, not from an implementation's output "
           "(results of an earlier version; running the experiment again shows the "
           "implementations' own outputs): derivatives (Prewitt, Sobel) signed around mid-grey, "
           "the other zero-sum filters as their magnitude, both stretched so that the 99.5th "
           "percentile reaches full range; the rest as u8 output.";
  text += sources_sentence(items, main) + identical_sentence(items);
  if (std::any_of(items.begin(), items.end(), from_reference))
    text +=
        "Pictures marked [reference] are drawn from the reference computation (results of an "
        "earlier version). ";
  return text +
         "Derivatives (Prewitt, Sobel; signed) are the f32 output around mid-grey, darker where "
         "brightness falls along the kernel's axis; the other zero-sum filters ($|\\cdot|$) the "
         "magnitude of the f32 output; both stretched so that the 99.5th percentile of $|$value$|$ "
         "reaches full range. The rest are the u8 output as is.";
}

}  // namespace convlab

#include "run/devices.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>

#include "impl/cuda/device_facts.hpp"
#include "run/run_options.hpp"

namespace convlab {
namespace {

constexpr int kMaxDeviceIndex = 1023;

int visible_device_count() {
  if (const char* pretend = std::getenv("CONVLAB_TEST_DEVICE_COUNT"))
    return std::max(0, std::atoi(pretend));
  return cuda_device_count();
}

// CONVLAB_TEST_DEVICE_GMACS as rates in MAC/s, one per device; empty when unset, when any is not a
// positive number, or without CONVLAB_TEST_DEVICE_COUNT.
std::vector<double> pretend_device_rates() {
  const char* count = std::getenv("CONVLAB_TEST_DEVICE_COUNT");
  const char* gmacs = std::getenv("CONVLAB_TEST_DEVICE_GMACS");
  if (count == nullptr || gmacs == nullptr) return {};
  std::vector<double> rates;
  std::stringstream items(gmacs);
  std::string item;
  while (std::getline(items, item, ',')) {
    char* end = nullptr;
    const double rate = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(rate > 0.0)) return {};
    rates.push_back(rate * 1e9);
  }
  return rates;
}

std::string device_list(int count) {
  std::string list;
  for (int d = 0; d < count; ++d) list += (d ? "," : "") + std::to_string(d);
  return list;
}

}  // namespace

std::optional<DeviceChoice> parse_devices(const std::string& text, std::string* error) {
  const auto fail = [&](const std::string& why) -> std::optional<DeviceChoice> {
    if (error) *error = why;
    return std::nullopt;
  };
  DeviceChoice choice;
  choice.text = text;
  if (text == "all") {
    choice.all = true;
    return choice;
  }
  std::set<int> seen;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty() || item.size() > 4 ||
        !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); }))
      return fail("expected 'all' or a list of CUDA device indices such as 0,1 (got '" + item +
                  "')");
    const int device = std::stoi(item);
    if (device > kMaxDeviceIndex) return fail("device " + item + " is beyond any machine");
    if (!seen.insert(device).second) return fail("device " + item + " is listed twice");
    choice.listed.push_back(device);
  }
  if (choice.listed.empty() || text.back() == ',')
    return fail("expected 'all' or a list of CUDA device indices such as 0,1");
  return choice;
}

std::vector<int> resolve_devices(const DeviceChoice& choice, bool check) {
  if (!choice.all && !check) return choice.listed;
  const int count = visible_device_count();
  if (count == 0)
    throw RunArgumentError("--devices " + choice.text +
                           ": no CUDA device on this machine (or convlab was built without CUDA)");
  if (choice.all) {
    std::vector<int> all(count);
    for (int d = 0; d < count; ++d) all[d] = d;
    return all;
  }
  for (int device : choice.listed)
    if (device >= count)
      throw RunArgumentError("--devices " + choice.text + ": CUDA device " +
                             std::to_string(device) + " not present (this machine has " +
                             std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") +
                             ": " + device_list(count) + ")");
  return choice.listed;
}

double pretend_device_seconds(const Config& config, const Point& point, int device) {
  static const std::vector<double> rates = pretend_device_rates();
  if (rates.empty() || point.implementation->family != Family::cuda) return 0.0;
  const std::size_t which = std::min<std::size_t>(std::max(device, 0), rates.size() - 1);
  return point_macs(config, point) / rates[which];
}

}  // namespace convlab

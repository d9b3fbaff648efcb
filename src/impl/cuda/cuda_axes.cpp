// The catalogue of the CUDA rungs' axes and their reading from params (see cuda_axes.hpp). An axis
// two rungs name alike but declare differently (its default, range or help) has a key of its own,
// "<stem>.<axis>".
#include "impl/cuda/cuda_axes.hpp"

#include <sstream>
#include <stdexcept>
#include <utility>

namespace convlab {
namespace {

AxisSpec pair_axis(std::string name, std::string help, int x, int y, int max_value) {
  AxisSpec axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::integer_pair;
  axis.help = std::move(help);
  axis.default_value = nlohmann::json::array({x, y});
  axis.max_value = max_value;
  return axis;
}

AxisSpec integer_axis(std::string name, std::string help, int default_value, int max_value) {
  AxisSpec axis;
  axis.name = std::move(name);
  axis.help = std::move(help);
  axis.default_value = default_value;
  axis.max_value = max_value;
  return axis;
}

AxisSpec choice_axis(std::string name, std::string help, std::vector<std::string> choices) {
  AxisSpec axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::choice;
  axis.help = std::move(help);
  axis.default_value = choices.front();
  axis.choices = std::move(choices);
  return axis;
}

AxisSpec boolean_axis(std::string name, std::string help) {
  AxisSpec axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::boolean;
  axis.help = std::move(help);
  axis.default_value = false;
  return axis;
}

struct CatalogueEntry {
  std::string key;
  AxisSpec axis;
};

const std::vector<CatalogueEntry>& catalogue() {
  static const std::vector<CatalogueEntry> entries = {
      // Rungs 1-4.
      {"block",
       pair_axis("block", "threads per block [x, y]; x * y at most the device's limit (1024)", 16,
                 16, 1024)},
      {"tile", integer_axis("tile",
                            "output tile edge in pixels computed by one block (8..32 typical); its "
                            "input footprint must fit the device's shared memory",
                            16, 256)},
      // Rung 5: outputs per thread and threads per channel plane.
      {"per_thread",
       pair_axis("per_thread",
                 "outputs per thread [x, y]: x adjacent pixels of one channel (4 or 8) on y rows "
                 "(1, 2 or 4); the tile is block x per_thread",
                 8, 2, 8)},
      {"regblock.block",
       pair_axis("block",
                 "threads per block and channel plane [x, y] (the block has x * y * channels "
                 "threads); x a multiple of 32 / per_thread x, y of per_thread x",
                 4, 16, 1024)},
      // Rung 6: strip geometry, rows per step, threads.
      {"strip", pair_axis("strip",
                          "[width, height] in pixels of the strip one block walks down: width 32, "
                          "64 or 128, height any (rows per block)",
                          32, 256, 1 << 20)},
      {"chunk", integer_axis("chunk",
                             "filtered rows a block produces per step (ring buffer: chunk + K - 1 "
                             "rows)",
                             32, 1024)},
      {"rows_per_thread",
       integer_axis("rows_per_thread", "output rows per thread in the column pass (4 or 8)", 8, 8)},
      {"threads", integer_axis("threads", "threads per block (a multiple of 32)", 256, 1024)},
      // Rung 7: warp tile, warps per block and channel, weight precision.
      {"n_tiles", integer_axis("n_tiles",
                               "8-column mma tiles per warp (4 or 8): a warp computes 16 rows x "
                               "8 n_tiles pixels of one channel",
                               8, 8)},
      {"warp_rows",
       integer_axis("warp_rows", "warps stacked vertically per channel plane in a block", 2, 32)},
      {"weights", choice_axis("weights",
                              "weight precision on the tensor cores: fp16 (one product, weights "
                              "rounded to 2^-11) or fp16x2 (high and low fp16 parts, two products, "
                              "about 2^-22)",
                              {"fp16", "fp16x2"})},
      // Rung 8: rows per warp and warps per block.
      {"rows", integer_axis("rows",
                            "output rows one warp walks down (its segment); more rows amortise the "
                            "2r rows of the window's prologue, fewer make more warps",
                            64, 1 << 20)},
      {"warps",
       integer_axis("warps", "warps per block (1 to 8), each walking its own strip", 4, 8)},
      // Rung 9: 16-pixel tiles per block and rows per block.
      {"tensor_separable.n_tiles",
       integer_axis("n_tiles",
                    "16-pixel tiles across a block's strip, one warp per tile and channel", 4, 32)},
      {"tensor_separable.rows",
       integer_axis("rows", "output rows one block walks down in steps of 16", 128, 1 << 20)},
      // Every rung, the NPP peer too.
      {"layout", choice_axis("layout",
                             "device layout: interleaved (HWC, one launch for all channels) or "
                             "planar (CHW, one launch per channel; converted on the host outside "
                             "timing)",
                             {"interleaved", "planar"})},
      {"streams", boolean_axis("streams",
                               "one CUDA stream per channel so uploads, kernels and downloads of "
                               "different channels overlap (needs layout: planar)")},
  };
  return entries;
}

const AxisSpec& catalogued(const std::string& key) {
  for (const CatalogueEntry& entry : catalogue())
    if (entry.key == key) return entry.axis;
  throw std::logic_error("no CUDA axis '" + key + "' in the catalogue (cuda_axes.cpp)");
}

}  // namespace

std::vector<AxisSpec> cuda_axes(const std::string& keys) {
  std::vector<AxisSpec> axes;
  std::istringstream words(keys + " layout streams");
  for (std::string key; words >> key;) axes.push_back(catalogued(key));
  return axes;
}

cuda::LaunchParams launch_params(const std::vector<AxisSpec>& axes, const Params& params) {
  cuda::LaunchParams launch;
  for (const AxisSpec& axis : axes) {
    const nlohmann::json& value =
        params.contains(axis.name) ? params.at(axis.name) : axis.default_value;
    if (axis.name == "layout")
      launch.layout =
          value.get<std::string>() == "planar" ? cuda::Layout::planar : cuda::Layout::interleaved;
    else if (axis.name == "streams")
      launch.streams = value.get<bool>();
    else if (axis.kind == AxisKind::integer)
      launch.set_integer(axis.name, value.get<int>());
    else if (axis.kind == AxisKind::integer_pair)
      launch.set_pair(axis.name, {value.at(0).get<int>(), value.at(1).get<int>()});
    else if (axis.kind == AxisKind::choice)
      launch.set_choice(axis.name, value.get<std::string>());
    else
      launch.set_integer(axis.name, value.get<bool>() ? 1 : 0);
  }
  return launch;
}

}  // namespace convlab

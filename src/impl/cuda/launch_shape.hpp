// How a CUDA rung's launch covers the image, as its row of rungs.hpp writes it, and the launches no
// CUDA device can make (known without a device, so such configs are refused at validation).
#pragma once

#include <optional>

#include "impl/cuda/launch_params.hpp"
#include "impl/implementation.hpp"

namespace convlab {

// Three products of factors joined by '*': threads per block, and the output pixels one block
// covers in x and in y. A factor is a number, `planes` (channel planes per launch: the block has
// threads for each), an integer axis or a member of a pair axis ("block.x"). The first axis of
// `threads` is named when blocks have too many threads, the first of `step_y` when the grid is too
// large. Empty: the launch is a vendor's own.
struct LaunchShape {
  const char* threads;
  const char* step_x;
  const char* step_y;
};

// Threads per block beyond every device's 1024, or more blocks than grids hold (2^31 - 1 in x,
// 65535 in y), for a width x height image of `channels` channels; nullopt when it fits.
std::optional<ParamsProblem> impossible_launch(const LaunchShape& shape,
                                               const cuda::LaunchParams& launch, int width,
                                               int height, int channels);

}  // namespace convlab

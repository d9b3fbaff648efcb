// The vendor peers (libraries convlab measures itself against on the CPU), one row each:
//
//   PEER(folder, title)
//
// A new peer is its folder src/impl/<folder>/ (its registration *.cpp, defining the three functions
// below and giving each implementation its Appearance; peers/*.cpp, the only files that include
// the vendor's headers; not_built/*.cpp, standing in without the library), its find module
// cmake/peers/Find<folder>.cmake (cmake/vendor_peers.cmake builds every folder that has one), and
// its row here. The registry lists its implementations, and the build facts say whether it was
// built (run.build.<folder>_built, `convlab list`) and which version (run.build.<folder>_version).
// NPP, a CUDA peer, is a row of impl/cuda/rungs.hpp instead.
#pragma once

#include <string>
#include <vector>

#include "impl/implementation.hpp"

#define CONVLAB_VENDOR_PEERS(PEER) PEER(opencv, "OpenCV")

namespace convlab {

// make_<folder>_implementations: the peer's implementations, registered whether or not the library
// was built in (configs naming them validate everywhere). <folder>_built: whether it was.
// <folder>_version: the version of the library loaded at run time, "" when not built.
#define CONVLAB_VENDOR_PEER_FUNCTIONS(folder, title)             \
  std::vector<Implementation> make_##folder##_implementations(); \
  bool folder##_built();                                         \
  std::string folder##_version();
CONVLAB_VENDOR_PEERS(CONVLAB_VENDOR_PEER_FUNCTIONS)
#undef CONVLAB_VENDOR_PEER_FUNCTIONS

}  // namespace convlab

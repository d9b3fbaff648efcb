// Stands in for peers/opencv_peers.cpp when CMake found no OpenCV (core, imgproc). The
// registration skips every opencv point with "OpenCV not found at build time" before reaching
// prepare.
#include <stdexcept>

#include "impl/opencv/opencv_calls.hpp"

namespace convlab {

bool opencv_built() {
  return false;
}

std::string opencv_version() {
  return "";
}

namespace opencv {

std::vector<double> gaussian_kernel(int, double) {
  throw std::runtime_error("OpenCV not found at build time");
}

std::unique_ptr<PreparedPoint> prepare(const Problem&, const PeerRequest&) {
  throw std::runtime_error("OpenCV not found at build time");
}

}  // namespace opencv
}  // namespace convlab

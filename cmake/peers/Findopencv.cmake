# Finds OpenCV's core and imgproc for the opencv peers (src/impl/opencv/): sets opencv_FOUND,
# opencv_VERSION and the target convlab::opencv (cmake/vendor_peers.cmake). Debian's libopencv-dev
# (scripts/install-deps.sh build) is found without help; another copy with
# -DOpenCV_DIR=<dir holding OpenCVConfig.cmake> (scripts/gpu-machine/opencv-carry.sh makes one).
find_package(OpenCV QUIET CONFIG COMPONENTS core imgproc)
set(opencv_FOUND ${OpenCV_FOUND})
set(opencv_VERSION "${OpenCV_VERSION} (${OpenCV_DIR})")
if(OpenCV_FOUND AND NOT TARGET convlab::opencv)
  add_library(convlab::opencv INTERFACE IMPORTED)
  target_link_libraries(convlab::opencv INTERFACE opencv_core opencv_imgproc)
endif()

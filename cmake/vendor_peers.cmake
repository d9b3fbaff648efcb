# The OpenCV peers of convlab_engine. Registration (src/impl/opencv/*.cpp) is always compiled so
# configs naming opencv_* implementations validate everywhere; the calls into OpenCV
# (src/impl/opencv/peers/*.cpp, the only files that include OpenCV headers) are compiled only when
# CMake finds OpenCV's core and imgproc, otherwise src/impl/opencv/not_built/*.cpp skips their points
# with "OpenCV not found at build time".
#
# Debian's libopencv-dev (scripts/install-deps.sh build) is found without help; another copy with
# -DOpenCV_DIR=<dir holding OpenCVConfig.cmake> (scripts/gpu-machine/opencv-carry.sh makes one).
option(CONVLAB_WITH_OPENCV "Build the OpenCV peers when OpenCV is found" ON)
set(CONVLAB_OPENCV_ENABLED OFF)
if(CONVLAB_WITH_OPENCV)
  find_package(OpenCV QUIET COMPONENTS core imgproc)
endif()
file(GLOB CONVLAB_OPENCV_HOST_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/opencv/*.cpp)
target_sources(convlab_engine PRIVATE ${CONVLAB_OPENCV_HOST_SOURCES})
if(OpenCV_FOUND)
  set(CONVLAB_OPENCV_ENABLED ON)
  file(GLOB CONVLAB_OPENCV_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/opencv/peers/*.cpp)
  target_sources(convlab_engine PRIVATE ${CONVLAB_OPENCV_SOURCES})
  # PRIVATE: consumers of convlab_engine link OpenCV but do not see its headers.
  target_link_libraries(convlab_engine PRIVATE opencv_core opencv_imgproc)
  message(STATUS "convlab: OpenCV ${OpenCV_VERSION} found (${OpenCV_DIR}), building the opencv peers")
else()
  file(GLOB CONVLAB_NO_OPENCV_SOURCES CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/src/impl/opencv/not_built/*.cpp)
  target_sources(convlab_engine PRIVATE ${CONVLAB_NO_OPENCV_SOURCES})
  message(STATUS "convlab: OpenCV not found, opencv points will be skipped")
endif()

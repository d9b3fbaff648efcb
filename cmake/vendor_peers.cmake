# The vendor peers of convlab_engine (src/impl/vendor_peers.hpp), one folder each, built alike: every
# cmake/peers/Find<folder>.cmake names a peer. Its registration (src/impl/<folder>/*.cpp) is always
# compiled so configs naming its implementations validate everywhere; the calls into the library
# (src/impl/<folder>/peers/*.cpp, the only files that include its headers) are compiled only when
# the find module finds it (<folder>_FOUND, the target convlab::<folder>), otherwise
# src/impl/<folder>/not_built/*.cpp skips their points with the reason.
# -DCONVLAB_WITH_<FOLDER>=OFF leaves a peer out although its library is there.
list(APPEND CMAKE_MODULE_PATH ${PROJECT_SOURCE_DIR}/cmake/peers)
file(GLOB CONVLAB_PEER_FIND_MODULES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/peers/Find*.cmake)
foreach(find_module ${CONVLAB_PEER_FIND_MODULES})
  get_filename_component(peer ${find_module} NAME_WE)
  string(REGEX REPLACE "^Find" "" peer ${peer})
  string(TOUPPER ${peer} PEER)
  set(peer_dir ${PROJECT_SOURCE_DIR}/src/impl/${peer})
  option(CONVLAB_WITH_${PEER} "Build the ${peer} peers when the library is found" ON)
  file(GLOB peer_sources CONFIGURE_DEPENDS ${peer_dir}/*.cpp)
  if(CONVLAB_WITH_${PEER})
    find_package(${peer} QUIET)
  endif()
  if(CONVLAB_WITH_${PEER} AND ${peer}_FOUND)
    file(GLOB peer_calls CONFIGURE_DEPENDS ${peer_dir}/peers/*.cpp)
    list(APPEND peer_sources ${peer_calls})
    # PRIVATE: consumers of convlab_engine link the library but do not see its headers.
    target_link_libraries(convlab_engine PRIVATE convlab::${peer})
    message(STATUS "convlab: ${peer} ${${peer}_VERSION} found, building the ${peer} peers")
  else()
    file(GLOB peer_stubs CONFIGURE_DEPENDS ${peer_dir}/not_built/*.cpp)
    list(APPEND peer_sources ${peer_stubs})
    message(STATUS "convlab: ${peer} not found, ${peer} points will be skipped")
  endif()
  target_sources(convlab_engine PRIVATE ${peer_sources})
endforeach()

# Targets, each linking only those below it (docs/architecture.md, "Libraries"):
#   convlab_engine  every stage from core/ to html/: reading configs, running, measuring, recording,
#                   the results store, queries, tables, gallery, figures, notebook, report
#                   and HTML;
#   convlab_serve   the notebook's HTTP server (src/serve), on the engine;
#   convlab_app     the commands of src/app, on the engine and the server;
#   convlab         the executable (src/app/main.cpp), and the tests.
# Sources are picked up by folder, so a new filter, implementation or figure type is a new file in
# its folder plus its registration line. The folders globbed into convlab_engine are read by the test
# Architecture.TheEngineIncludesNoFolderAboveIt: an engine file may include only engine folders.
file(GLOB CONVLAB_ENGINE_SOURCES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/src/core/*.cpp
  ${PROJECT_SOURCE_DIR}/src/filters/*.cpp
  ${PROJECT_SOURCE_DIR}/src/images/*.cpp
  ${PROJECT_SOURCE_DIR}/src/config/*.cpp
  ${PROJECT_SOURCE_DIR}/src/plan/*.cpp
  ${PROJECT_SOURCE_DIR}/src/impl/*.cpp
  ${PROJECT_SOURCE_DIR}/src/user_kernels/*.cpp
  ${PROJECT_SOURCE_DIR}/src/reference/*.cpp
  ${PROJECT_SOURCE_DIR}/src/verify/*.cpp
  ${PROJECT_SOURCE_DIR}/src/measure/*.cpp
  ${PROJECT_SOURCE_DIR}/src/run/*.cpp
  ${PROJECT_SOURCE_DIR}/src/store/*.cpp
  ${PROJECT_SOURCE_DIR}/src/query/*.cpp
  ${PROJECT_SOURCE_DIR}/src/tables/*.cpp
  ${PROJECT_SOURCE_DIR}/src/history/*.cpp
  ${PROJECT_SOURCE_DIR}/src/gallery/*.cpp
  ${PROJECT_SOURCE_DIR}/src/figures/*.cpp
  ${PROJECT_SOURCE_DIR}/src/notebook/*.cpp
  ${PROJECT_SOURCE_DIR}/src/drawing/*.cpp
  ${PROJECT_SOURCE_DIR}/src/report/*.cpp
  ${PROJECT_SOURCE_DIR}/src/html/*.cpp)

# The notebook's script and style, built into the executable.
file(GLOB CONVLAB_NOTEBOOK_ASSETS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/html/assets/*)
set(CONVLAB_NOTEBOOK_ASSETS_SOURCE ${CMAKE_BINARY_DIR}/generated/notebook_assets.cpp)
add_custom_command(
  OUTPUT ${CONVLAB_NOTEBOOK_ASSETS_SOURCE}
  COMMAND ${CMAKE_COMMAND} -DASSET_DIR=${PROJECT_SOURCE_DIR}/src/html/assets
          -DOUTPUT=${CONVLAB_NOTEBOOK_ASSETS_SOURCE} -P ${PROJECT_SOURCE_DIR}/cmake/embed_assets.cmake
  DEPENDS ${CONVLAB_NOTEBOOK_ASSETS} ${PROJECT_SOURCE_DIR}/cmake/embed_assets.cmake
  COMMENT "Embedding the notebook's script and style"
  VERBATIM)
list(APPEND CONVLAB_ENGINE_SOURCES ${CONVLAB_NOTEBOOK_ASSETS_SOURCE})

# The kernel contract users include (include/convlab/kernel.h), built into the executable: convlab
# hands it to NVRTC and writes it into the kernel cache for the C++ compiler, wherever it runs.
set(CONVLAB_KERNEL_HEADER_SOURCE ${CMAKE_BINARY_DIR}/generated/kernel_header.cpp)
add_custom_command(
  OUTPUT ${CONVLAB_KERNEL_HEADER_SOURCE}
  COMMAND ${CMAKE_COMMAND} -DINPUT=${PROJECT_SOURCE_DIR}/include/convlab/kernel.h
          -DOUTPUT=${CONVLAB_KERNEL_HEADER_SOURCE} -DFUNCTION=embedded_kernel_header
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/include/convlab/kernel.h ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  COMMENT "Embedding the kernel contract header"
  VERBATIM)
list(APPEND CONVLAB_ENGINE_SOURCES ${CONVLAB_KERNEL_HEADER_SOURCE})

add_library(convlab_engine STATIC ${CONVLAB_ENGINE_SOURCES})
target_include_directories(convlab_engine PUBLIC ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include)
target_include_directories(convlab_engine SYSTEM PUBLIC ${STB_INCLUDE_DIR})
target_link_libraries(convlab_engine PUBLIC ${CONVLAB_YAML_TARGET} nlohmann_json::nlohmann_json
                                            PkgConfig::CMARK
                                            ${CMAKE_DL_LIBS}
                                            OpenMP::OpenMP_CXX Threads::Threads)
target_compile_options(convlab_engine PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${CONVLAB_WARNINGS}>)
# zlib reads results files kept gzip-compressed (core/gzip_reader.hpp); without it such a file is
# refused with the reason, and everything else works.
find_package(ZLIB QUIET)
if(ZLIB_FOUND)
  target_link_libraries(convlab_engine PUBLIC ZLIB::ZLIB)
  target_compile_definitions(convlab_engine PUBLIC CONVLAB_WITH_ZLIB=1)
else()
  message(STATUS "zlib not found: compressed results files (results.json.gz) cannot be read")
endif()

# A unity build: the C++ files of a target compiled in batches of CONVLAB_UNITY_BATCH, so that the
# headers every file includes (nlohmann/json above all) are parsed and their templates generated
# once per batch instead of once per file: about 2.5 times less CPU for those files (README.md,
# "Build time"). -DCONVLAB_UNITY_BUILD=OFF compiles file by file. Compiled on their own: the CPU
# implementations (src/impl/*.cpp), whose code generation is what is measured and must not depend on
# the files batched beside them, and the files below, which define a name in an anonymous namespace
# that a neighbour defines too, or (gpu_clocks.cpp) whose class holds a type of its anonymous
# namespace, which GCC warns about once the file is included in a batch (-Wsubobject-linkage).
option(CONVLAB_UNITY_BUILD "Compile the C++ sources in batches" ON)
set(CONVLAB_UNITY_BATCH 32 CACHE STRING "C++ files per batch of the unity build")
set(CONVLAB_UNITY_ALONE
  src/core/file_io.cpp
  src/figures/figure_type_heatmap.cpp
  src/figures/figure_type_line.cpp
  src/figures/figure_type_stacked.cpp
  src/measure/gpu_clocks.cpp
  src/query/record_fields.cpp
  src/query/search_outcomes.cpp
  src/query/versus.cpp
  src/query/winners.cpp
  src/store/results_schema.cpp
  src/store/run_block.cpp
  src/tables/versus_writer.cpp
  src/tables/winners_writer.cpp
  src/notebook/notebook_builder.cpp
  src/app/search_command.cpp)
list(TRANSFORM CONVLAB_UNITY_ALONE PREPEND ${PROJECT_SOURCE_DIR}/)
file(GLOB CONVLAB_CPU_IMPLEMENTATION_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/*.cpp)
list(APPEND CONVLAB_UNITY_ALONE ${CONVLAB_CPU_IMPLEMENTATION_SOURCES})
# CUDA sources (which CMake 3.31 and later also batches) each define their kernels' constants and
# helpers in an anonymous namespace of their own, and are the rungs measured: never batched.
file(GLOB_RECURSE CONVLAB_CUDA_UNITY_ALONE CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*.cu)
list(APPEND CONVLAB_UNITY_ALONE ${CONVLAB_CUDA_UNITY_ALONE})
set_source_files_properties(${CONVLAB_UNITY_ALONE} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
function(convlab_unity target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${CONVLAB_UNITY_BUILD}
                                             UNITY_BUILD_BATCH_SIZE ${CONVLAB_UNITY_BATCH})
endfunction()
convlab_unity(convlab_engine)

# Build facts recorded in every results file (docs/results-schema.md, run.build).
string(TOUPPER "${CMAKE_BUILD_TYPE}" CONVLAB_BUILD_TYPE_UPPER)
set(CONVLAB_RECORDED_FLAGS "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${CONVLAB_BUILD_TYPE_UPPER}} ${OpenMP_CXX_FLAGS}")
target_compile_definitions(convlab_engine PRIVATE
  CONVLAB_VERSION="${PROJECT_VERSION}"
  CONVLAB_BUILD_TYPE="${CMAKE_BUILD_TYPE}"
  CONVLAB_CXX_COMPILER_ID="${CMAKE_CXX_COMPILER_ID}"
  CONVLAB_CXX_COMPILER_VERSION="${CMAKE_CXX_COMPILER_VERSION}"
  CONVLAB_CXX_FLAGS="${CONVLAB_RECORDED_FLAGS}"
  CONVLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  # Users' own C/C++ kernels are compiled by this compiler with these flags: those of convlab's
  # own CPU implementations (src/user_kernels/kernel_compiler.cpp).
  CONVLAB_USER_CXX_COMPILER="${CMAKE_CXX_COMPILER}"
  CONVLAB_USER_CXX_FLAGS="${CONVLAB_RECORDED_FLAGS}")

# The notebook's HTTP server (src/serve): a library of its own on cpp-httplib, which reads files
# through the engine's core/. Left out when cpp-httplib is missing.
if(CONVLAB_HTTPLIB_FOUND)
  file(GLOB CONVLAB_SERVE_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/serve/*.cpp)
  add_library(convlab_serve STATIC ${CONVLAB_SERVE_SOURCES})
  target_include_directories(convlab_serve PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(convlab_serve PUBLIC convlab_engine Threads::Threads
                                      PRIVATE PkgConfig::CONVLAB_HTTPLIB)
  target_compile_options(convlab_serve PRIVATE ${CONVLAB_WARNINGS})
  convlab_unity(convlab_serve)
endif()

# The commands (src/app but main.cpp): on the engine, and on the server where it is built.
file(GLOB CONVLAB_APP_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/app/*.cpp)
list(FILTER CONVLAB_APP_SOURCES EXCLUDE REGEX ".*/src/app/main\\.cpp$")
add_library(convlab_app STATIC ${CONVLAB_APP_SOURCES})
target_link_libraries(convlab_app PUBLIC convlab_engine)
target_compile_options(convlab_app PRIVATE ${CONVLAB_WARNINGS})
convlab_unity(convlab_app)
# convlab report runs scripts/report/ of the source tree it was built from.
target_compile_definitions(convlab_app PRIVATE CONVLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
if(CONVLAB_HTTPLIB_FOUND)
  target_link_libraries(convlab_app PUBLIC convlab_serve)
  target_compile_definitions(convlab_app PRIVATE CONVLAB_WITH_SERVE=1)
endif()

include(${PROJECT_SOURCE_DIR}/cmake/cuda.cmake)
include(${PROJECT_SOURCE_DIR}/cmake/vendor_peers.cmake)

add_executable(convlab ${PROJECT_SOURCE_DIR}/src/app/main.cpp)
target_link_libraries(convlab PRIVATE convlab_app)
target_compile_options(convlab PRIVATE ${CONVLAB_WARNINGS})

# The scale-out benchmark (docs/scale-out.md): built on request, `cmake --build build --target
# convlab_scale_bench`, or by scripts/bench/scale-out.sh.
add_executable(convlab_scale_bench EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/scale_out.cpp)
target_link_libraries(convlab_scale_bench PRIVATE convlab_engine)
target_compile_options(convlab_scale_bench PRIVATE ${CONVLAB_WARNINGS})
# The host work of one problem of a device worker (docs/scale-out.md): built on request.
add_executable(convlab_host_work EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/host_work.cpp)
target_link_libraries(convlab_host_work PRIVATE convlab_engine)
target_compile_options(convlab_host_work PRIVATE ${CONVLAB_WARNINGS})
# What a kernel host costs (docs/own-kernels.md): built on request, or by
# scripts/bench/kernel-isolation.sh.
add_executable(convlab_kernel_host_costs EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/kernel_host_costs.cpp)
target_link_libraries(convlab_kernel_host_costs PRIVATE convlab_engine)
target_compile_options(convlab_kernel_host_costs PRIVATE ${CONVLAB_WARNINGS})
# The --dry-run estimate against the committed runs (docs/scale-out.md): built on request.
add_executable(convlab_eta_check EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/eta_check.cpp)
target_link_libraries(convlab_eta_check PRIVATE convlab_engine)
target_compile_options(convlab_eta_check PRIVATE ${CONVLAB_WARNINGS})
# The split of --devices and the workers' measured phases (docs/scale-out.md): built on request.
add_executable(convlab_device_scaling EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/device_scaling.cpp)
target_link_libraries(convlab_device_scaling PRIVATE convlab_engine)
target_compile_options(convlab_device_scaling PRIVATE ${CONVLAB_WARNINGS})

# The notebook server's bounded load test (docs/notebook.md, "Serving the notebook"): run by the
# test ServeLoad.* and by scripts/bench/serve-load.sh.
if(CONVLAB_HTTPLIB_FOUND)
  add_executable(convlab_serve_load ${PROJECT_SOURCE_DIR}/bench/serve_load.cpp)
  target_link_libraries(convlab_serve_load PRIVATE convlab_serve)
  target_compile_options(convlab_serve_load PRIVATE ${CONVLAB_WARNINGS})
  # From a save in the served page to its first new result (scripts/bench/save-to-result.sh).
  add_executable(convlab_save_to_result EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/save_to_result.cpp)
  target_link_libraries(convlab_save_to_result PRIVATE convlab_serve)
  target_compile_options(convlab_save_to_result PRIVATE ${CONVLAB_WARNINGS})
endif()

if(CONVLAB_BUILD_TESTS)
  enable_testing()
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests ${CMAKE_BINARY_DIR}/tests)
endif()

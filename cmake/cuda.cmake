# The CUDA side of convlab_engine. Host-side registration (src/impl/cuda/*.cpp) is always compiled so
# configs naming cuda_* implementations validate everywhere; the kernels (src/impl/cuda/*.cu) are
# compiled only when nvcc was found, otherwise src/impl/cuda/no_cuda/*.cpp answers "not built".
# The NPP peer (src/impl/cuda/npp/*.cu) is compiled only where the NPP headers and libraries exist;
# otherwise src/impl/cuda/no_npp/*.cu skips its points with "NPP not found at build time".
#
# Architectures: CMAKE_CUDA_ARCHITECTURES (default "90-real;90-virtual": sm_90 machine code for
# H100/H200 plus PTX that newer GPUs compile at load time); override with
# -DCMAKE_CUDA_ARCHITECTURES=native or a list such as "80;90".
file(GLOB CONVLAB_CUDA_HOST_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/*.cpp)
target_sources(convlab_engine PRIVATE ${CONVLAB_CUDA_HOST_SOURCES})
set(CONVLAB_NPP_ENABLED OFF)
if(CONVLAB_CUDA_ENABLED)
  file(GLOB CONVLAB_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/*.cu)
  target_sources(convlab_engine PRIVATE ${CONVLAB_CUDA_SOURCES})
  target_compile_definitions(convlab_engine PUBLIC CONVLAB_WITH_CUDA=1)
  target_link_libraries(convlab_engine PUBLIC CUDA::cudart)
  # NVRTC compiles users' own .cu kernels at run time (src/user_kernels/nvrtc_compile.cpp); it needs
  # no GPU, so CI compiles them too.
  if(TARGET CUDA::nvrtc)
    target_link_libraries(convlab_engine PUBLIC CUDA::nvrtc)
    target_compile_definitions(convlab_engine PRIVATE CONVLAB_WITH_NVRTC=1)
    message(STATUS "convlab: NVRTC found, users' CUDA kernels can be compiled")
  endif()
  # -lineinfo maps sanitizer and profiler reports to source lines without changing the code.
  target_compile_options(convlab_engine PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall,-Wextra>)

  find_path(CONVLAB_NPP_INCLUDE_DIR nppi_filtering_functions.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(CONVLAB_NPP_INCLUDE_DIR AND TARGET CUDA::nppif AND TARGET CUDA::nppc)
    set(CONVLAB_NPP_ENABLED ON)
    file(GLOB CONVLAB_NPP_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/npp/*.cu)
    target_sources(convlab_engine PRIVATE ${CONVLAB_NPP_SOURCES})
    target_compile_definitions(convlab_engine PUBLIC CONVLAB_WITH_NPP=1)
    target_link_libraries(convlab_engine PUBLIC CUDA::nppif CUDA::nppc)
    message(STATUS "convlab: NPP found, building the npp peer")
  else()
    file(GLOB CONVLAB_NO_NPP_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/no_npp/*.cu)
    target_sources(convlab_engine PRIVATE ${CONVLAB_NO_NPP_SOURCES})
    message(STATUS "convlab: NPP not found, npp points will be skipped")
  endif()
else()
  file(GLOB CONVLAB_NO_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/no_cuda/*.cpp)
  target_sources(convlab_engine PRIVATE ${CONVLAB_NO_CUDA_SOURCES})
endif()

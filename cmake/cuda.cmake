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
  # The rungs' kernels (src/impl/cuda/k<N>_*.cu, the ladder, and the NPP peer) are the largest part
  # of a first build (README.md, "Build time"). CONVLAB_CUDA_RUNGS AUTO builds them into convlab
  # where configure finds a GPU (nvidia-smi lists one); elsewhere they cannot run, so convlab gets
  # src/impl/cuda/no_rungs/ in their place (their points say why they are skipped) and the target
  # convlab_cuda_rungs, which the tests depend on, still compiles every one of them. ON or OFF
  # decides regardless of the GPU.
  set(CONVLAB_CUDA_RUNGS AUTO CACHE STRING
      "Build the CUDA rungs into convlab: AUTO (where a GPU is found), ON or OFF")
  set_property(CACHE CONVLAB_CUDA_RUNGS PROPERTY STRINGS AUTO ON OFF)
  set(CONVLAB_RUNGS_IN_CONVLAB ${CONVLAB_CUDA_RUNGS})
  if(CONVLAB_CUDA_RUNGS STREQUAL "AUTO")
    find_program(CONVLAB_NVIDIA_SMI nvidia-smi)
    set(CONVLAB_RUNGS_IN_CONVLAB OFF)
    if(CONVLAB_NVIDIA_SMI)
      execute_process(COMMAND ${CONVLAB_NVIDIA_SMI} -L OUTPUT_VARIABLE CONVLAB_GPU_LIST
                      RESULT_VARIABLE CONVLAB_GPU_LIST_STATUS ERROR_QUIET TIMEOUT 20)
      if(CONVLAB_GPU_LIST_STATUS EQUAL 0 AND CONVLAB_GPU_LIST MATCHES "GPU [0-9]")
        set(CONVLAB_RUNGS_IN_CONVLAB ON)
      endif()
    endif()
  endif()
  file(GLOB CONVLAB_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/*.cu)
  file(GLOB CONVLAB_CUDA_RUNG_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/k[0-9]*.cu)
  list(REMOVE_ITEM CONVLAB_CUDA_SOURCES ${CONVLAB_CUDA_RUNG_SOURCES})
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

  if(CONVLAB_RUNGS_IN_CONVLAB)
    target_sources(convlab_engine PRIVATE ${CONVLAB_CUDA_RUNG_SOURCES})
    target_compile_definitions(convlab_engine PRIVATE CONVLAB_WITH_CUDA_RUNGS=1)
  else()
    message(STATUS "convlab: no GPU found, the CUDA rungs are compiled only for the tests "
                   "(-DCONVLAB_CUDA_RUNGS=ON builds them into convlab)")
    target_sources(convlab_engine PRIVATE ${PROJECT_SOURCE_DIR}/src/impl/cuda/no_rungs/rungs_not_built.cu)
    add_library(convlab_cuda_rungs OBJECT EXCLUDE_FROM_ALL ${CONVLAB_CUDA_RUNG_SOURCES})
    target_link_libraries(convlab_cuda_rungs PRIVATE convlab_engine)
    target_compile_options(convlab_cuda_rungs PRIVATE -lineinfo -Xcompiler=-Wall,-Wextra)
  endif()

  find_path(CONVLAB_NPP_INCLUDE_DIR nppi_filtering_functions.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(CONVLAB_NPP_INCLUDE_DIR AND TARGET CUDA::nppif AND TARGET CUDA::nppc)
    file(GLOB CONVLAB_NPP_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/npp/*.cu)
    if(CONVLAB_RUNGS_IN_CONVLAB)
      set(CONVLAB_NPP_ENABLED ON)
      target_sources(convlab_engine PRIVATE ${CONVLAB_NPP_SOURCES})
      target_compile_definitions(convlab_engine PUBLIC CONVLAB_WITH_NPP=1)
      target_link_libraries(convlab_engine PUBLIC CUDA::nppif CUDA::nppc)
      message(STATUS "convlab: NPP found, building the npp peer")
    else()
      target_sources(convlab_cuda_rungs PRIVATE ${CONVLAB_NPP_SOURCES})
    endif()
  elseif(CONVLAB_RUNGS_IN_CONVLAB)
    file(GLOB CONVLAB_NO_NPP_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/no_npp/*.cu)
    target_sources(convlab_engine PRIVATE ${CONVLAB_NO_NPP_SOURCES})
    message(STATUS "convlab: NPP not found, npp points will be skipped")
  endif()
else()
  file(GLOB CONVLAB_NO_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/impl/cuda/no_cuda/*.cpp)
  target_sources(convlab_engine PRIVATE ${CONVLAB_NO_CUDA_SOURCES})
endif()

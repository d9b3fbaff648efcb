// The CUDA rungs (and the NPP peer), one row each. A new rung is its .cu file, which defines
// <stem>_unsupported and make_<stem>_plan (kernel_plan.cuh) and reads its axes from LaunchParams
// into a struct of its own, plus one row here; the rest follows from the row: the Variant value
// (device_calls.hpp), the device dispatch (point_runner.cu) and the registration with its name,
// axes, launch shape, requirements and description (cuda_implementations.cpp).
//
//   ROW(stem, name, words, colour, point_type, axes, threads, step_x, step_y, traits, description)
//
// words, colour, point_type: how readers see it (Appearance, implementation.hpp): its words in
// prose and tables, its colour and gnuplot point type in every figure (warm colours for the rungs).
// axes: the keys of its axes in the catalogue of cuda_axes.cpp, space-separated (layout and streams
// follow for every rung). threads, step_x, step_y: how a launch covers the image, for configs that
// cannot launch on any device (launch_shape.hpp). traits: a function of cuda_implementations.cpp,
// what the rung needs of a problem beyond the device (rank-1 kernels, NPP's border and output) and
// how it counts its arithmetic.
#pragma once

#define CONVLAB_CUDA_RUNGS(ROW)                                                                    \
  ROW(global, "cuda_global", "CUDA global memory", "#E69F00", 5, "block", "block.x*block.y",       \
      "block.x", "block.y", direct_traits,                                                         \
      "CUDA, one thread per output pixel (all channels); image and coefficients read from "        \
      "global memory")                                                                             \
  ROW(constant, "cuda_constant", "CUDA constant memory", "#B8860B", 13, "block",                   \
      "block.x*block.y", "block.x", "block.y", direct_traits,                                      \
      "CUDA, as cuda_global with the coefficients in __constant__ memory (warp-wide broadcast)")   \
  ROW(shared, "cuda_shared", "CUDA shared memory", "#D55E00", 7, "tile block", "block.x*block.y",  \
      "tile", "tile", direct_traits,                                                               \
      "CUDA, output tiles whose input footprint (tile plus halo) is loaded cooperatively and "     \
      "coalesced into shared memory; coefficients in __constant__ memory")                         \
  ROW(separable, "cuda_separable", "CUDA separable", "#CC79A7", 9, "tile block",                   \
      "block.x*block.y", "tile", "tile", rank1_traits,                                             \
      "CUDA, rank-1 kernels only: shared-memory tiled row pass then column pass through a "        \
      "float intermediate (2K instead of K^2 multiply-adds)")                                      \
  ROW(regblock, "cuda_regblock", "CUDA regblock", "#882255", 11, "per_thread regblock.block",      \
      "block.x*block.y*planes", "block.x*per_thread.x", "block.y*per_thread.y", direct_traits,     \
      "CUDA, register-blocked direct: each thread computes per_thread outputs from a register "    \
      "window of planar float rows staged in shared memory; 16-byte loads, coalesced stores")      \
  ROW(fused, "cuda_fused", "CUDA fused", "#7B2FBE", 15, "strip chunk rows_per_thread threads",     \
      "threads", "strip.x", "strip.y", rank1_traits,                                               \
      "CUDA, rank-1 kernels only: one kernel walks down image strips, row pass into a ring of "    \
      "K + chunk - 1 filtered rows in shared memory, column pass from the ring; no "               \
      "intermediate image")                                                                        \
  ROW(tensor, "cuda_tensor", "CUDA tensor", "#E41A1C", 3, "n_tiles warp_rows weights",             \
      "32*warp_rows*planes", "8*n_tiles", "16*warp_rows", tensor_traits,                           \
      "CUDA, direct convolution on the tensor cores: each kernel row as a banded Toeplitz "        \
      "matrix times 16 input rows (mma.sync m16n8k16, u8 values exact in FP16, FP32 "              \
      "accumulation)")                                                                             \
  ROW(streaming, "cuda_streaming", "CUDA streaming", "#A6761D", 1, "rows warps", "32*warps",       \
      "warps", "rows", streaming_traits,                                                           \
      "CUDA, each warp walks down a strip with the window in registers: 16-byte loads, "           \
      "shuffles for the horizontal halo, rolling vertical accumulators, 16-byte stores; rank-1 "   \
      "kernels as row and column passes, dyadic kernels summed exactly in integers")               \
  ROW(tensor_separable, "cuda_tensor_separable", "CUDA tensor separable", "#FF7F00", 2,            \
      "tensor_separable.n_tiles tensor_separable.rows", "32*n_tiles*planes", "16*n_tiles", "rows", \
      tensor_separable_traits,                                                                     \
      "CUDA, rank-1 kernels only: row and column passes on the tensor cores (mma.sync with "       \
      "banded Toeplitz factors); the row pass's accumulators are the column pass's operand")       \
  ROW(npp, "npp", "NPP", "#000000", 12, "", "", "", "", npp_traits,                                \
      "NVIDIA NPP nppiFilterBorder32f_8u_C1R/C3R (vendor peer; replicate border, u8 output)")

// The two tensor-core instructions convlab uses, as inline PTX (sm_80 and newer): ldmatrix, which
// loads a 16x16 FP16 A fragment from shared memory (each lane gives one 16-byte row address), and
// mma.sync m16n8k16 with FP16 inputs and FP32 accumulators (D = A x B + D, 2048 multiply-adds per
// warp). The fragment layouts are those of the PTX ISA for this shape: lane (g, t) = (lane / 4,
// lane % 4) holds A rows g and g + 8 at columns 2t, 2t + 1 and 2t + 8, 2t + 9; B rows 2t, 2t + 1
// and 2t + 8, 2t + 9 of column g; D rows g and g + 8 at columns 2t, 2t + 1.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

namespace convlab::cuda {

__device__ __forceinline__ void load_a(std::uint32_t (&a)[4], const __half* row_address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
  __trap();
#else
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row_address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(address));
#endif
}

__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], uint2 b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // not reached: the tensor rung and its calibration check compute capability 8.0
#else
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b.x), "r"(b.y));
#endif
}

}  // namespace convlab::cuda

// Owning wrappers for device memory, pinned host memory, streams and events, so that an exception
// thrown half-way through preparing a point releases everything it had taken.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "impl/cuda/cuda_check.cuh"

namespace convlab::cuda {

// Where a buffer's memory lives. Page-locked host memory: transfers from and to it run at full
// PCIe/NVLink speed and can overlap with kernels on other streams. Releasing is not checked: it
// may run during unwinding.
struct DeviceMemory {
  static void allocate(void** data, size_t bytes) { CONVLAB_CUDA_CHECK(cudaMalloc(data, bytes)); }
  static void release(void* data) { cudaFree(data); }
};
struct PinnedMemory {
  static void allocate(void** data, size_t bytes) {
    CONVLAB_CUDA_CHECK(cudaHostAlloc(data, bytes, cudaHostAllocDefault));
  }
  static void release(void* data) { cudaFreeHost(data); }
};

// `bytes` bytes of Memory; grows (never shrinks) through reserve().
template <typename Memory>
class Buffer {
 public:
  Buffer() = default;
  ~Buffer() { release(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void reserve(size_t bytes) {
    if (bytes <= bytes_) return;
    release();
    Memory::allocate(&data_, bytes);
    bytes_ = bytes;
  }
  void* data() const { return data_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  size_t bytes() const { return bytes_; }

 private:
  void release() {
    if (data_ != nullptr) Memory::release(data_);
    data_ = nullptr;
    bytes_ = 0;
  }
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

using DeviceBuffer = Buffer<DeviceMemory>;
using PinnedBuffer = Buffer<PinnedMemory>;

// Copies `count` host values into `buffer`, growing it to fit.
template <typename T>
void copy_to_device(DeviceBuffer& buffer, const T* values, size_t count) {
  buffer.reserve(count * sizeof(T));
  CONVLAB_CUDA_CHECK(cudaMemcpy(buffer.data(), values, count * sizeof(T), cudaMemcpyHostToDevice));
}

// A non-blocking stream: it does not synchronise with the legacy default stream.
class Stream {
 public:
  Stream() { CONVLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// A timing event.
class Event {
 public:
  Event() { CONVLAB_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) { CONVLAB_CUDA_CHECK(cudaEventRecord(event_, stream)); }

 private:
  cudaEvent_t event_ = nullptr;
};

// Milliseconds from `start` to `stop`; both must have completed.
inline double elapsed_ms(const Event& start, const Event& stop) {
  float ms = 0.0f;
  CONVLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return static_cast<double>(ms);
}

}  // namespace convlab::cuda

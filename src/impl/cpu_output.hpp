// Output buffers and the store rule shared by the CPU implementations.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/output_view.hpp"
#include "impl/float_lanes.hpp"
#include "impl/implementation.hpp"

namespace convlab {

// u8 output: round to nearest (halves up) and clamp to 0..255, the rule of every implementation.
inline std::uint8_t to_u8(float value) {
  const float rounded = std::floor(value + 0.5f);
  return static_cast<std::uint8_t>(rounded < 0.f ? 0.f : (rounded > 255.f ? 255.f : rounded));
}

class HostOutput {
 public:
  HostOutput(OutputType type, size_t count) : type_(type) {
    if (type == OutputType::u8)
      u8_.resize(count);
    else
      f32_.resize(count);
  }
  void store(size_t index, float value) {
    if (type_ == OutputType::u8)
      u8_[index] = to_u8(value);
    else
      f32_[index] = value;
  }
  // Stores count consecutive values, whole vectors with lanes::store_u8 (the same rule, branch
  // free: GCC compiles to_u8 to branches, which outputs on both sides of 0 or 255 -- a Laplacian on
  // noise -- mispredict).
  void store_row(size_t index, const float* values, size_t count) {
    if (type_ == OutputType::u8) {
      std::uint8_t* out = &u8_[index];
      size_t i = 0;
      for (; i + lanes::kWidth <= count; i += lanes::kWidth)
        lanes::store_u8(out + i, lanes::load(values + i));
      for (; i < count; ++i) out[i] = to_u8(values[i]);
    } else {
      std::copy(values, values + count, &f32_[index]);
    }
  }
  OutputView view() const {
    if (type_ == OutputType::u8) return {type_, u8_.data(), u8_.size()};
    return {type_, f32_.data(), f32_.size()};
  }
  OutputType type() const { return type_; }
  // Rungs that write whole vectors may write around the caches (non-temporal stores), which spares
  // the read of each output line before it is written, but sends every line to memory: worth it
  // only when the output does not fit the last-level cache anyway (a repeated measurement of a
  // smaller image finds its output still cached).
  // `mode`: "auto" (only outputs larger than the last-level cache), "always" or "never".
  void set_streaming(const std::string& mode) {
    const long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
    const size_t bytes = type_ == OutputType::u8 ? u8_.size() : f32_.size() * sizeof(float);
    streaming_ = mode == "always" ||
                 (mode == "auto" && bytes > static_cast<size_t>(cache > 0 ? cache : 32L << 20));
  }
  bool streaming() const { return streaming_; }
  // For rungs that write whole vectors in place.
  std::uint8_t* u8_data() { return u8_.data(); }
  float* f32_data() { return f32_.data(); }

 private:
  OutputType type_;
  bool streaming_ = false;
  std::vector<std::uint8_t> u8_;
  std::vector<float> f32_;
};

}  // namespace convlab

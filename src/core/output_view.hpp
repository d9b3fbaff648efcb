// Where an implementation's result lives after it ran: interleaved like the input, u8 or f32.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/types.hpp"

namespace convlab {

struct OutputView {
  OutputType type = OutputType::u8;
  const void* data = nullptr;
  size_t count = 0;  // values: width * height * channels

  const std::uint8_t* u8() const { return static_cast<const std::uint8_t*>(data); }
  const float* f32() const { return static_cast<const float*>(data); }
};

}  // namespace convlab

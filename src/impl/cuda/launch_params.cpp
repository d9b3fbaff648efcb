// LaunchParams' accessors (see launch_params.hpp). Always compiled: the registration sets the
// values everywhere, the .cu files read them where nvcc was found.
#include "impl/cuda/launch_params.hpp"

#include <stdexcept>

namespace convlab::cuda {

const LaunchParams::Value& LaunchParams::value(const std::string& name, size_t numbers) const {
  for (const Value& value : values_)
    if (value.name == name && value.numbers.size() == numbers) return value;
  throw std::logic_error("the CUDA launch has no axis '" + name + "' of that kind");
}

int LaunchParams::integer(const std::string& name) const {
  return value(name, 1).numbers[0];
}
AxisPair LaunchParams::pair(const std::string& name) const {
  const Value& pair = value(name, 2);
  return {pair.numbers[0], pair.numbers[1]};
}
const std::string& LaunchParams::choice(const std::string& name) const {
  return value(name, 0).choice;
}

void LaunchParams::set_integer(const std::string& name, int value) {
  values_.push_back({name, {value}, ""});
}
void LaunchParams::set_pair(const std::string& name, AxisPair value) {
  values_.push_back({name, {value.x, value.y}, ""});
}
void LaunchParams::set_choice(const std::string& name, const std::string& value) {
  values_.push_back({name, {}, value});
}

}  // namespace convlab::cuda

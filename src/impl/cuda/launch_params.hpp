// The launch parameters of one CUDA point, as the .cu files read them: the layout and streams the
// shared point runner (point_runner.cu) needs, and the rung's own axes by name. The registration
// fills it from the config's params (cuda_axes.cpp); each rung's .cu file reads its axes into its
// own typed struct. Plain C++, no JSON: the .cu files compile with nvcc alone.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace convlab::cuda {

// Where channels live in device memory. The runner's image and the output it reads are always
// interleaved; planar is converted on the host, outside timing (input in prepare, output when
// read).
enum class Layout { interleaved, planar };

// An integer_pair axis, e.g. block: [32, 8].
struct AxisPair {
  int x = 0;
  int y = 0;
};

class LaunchParams {
 public:
  Layout layout = Layout::interleaved;
  bool streams = false;

  // The value of the rung's axis `name`; reading an axis the rung does not declare (or as
  // another kind) is a programming error and throws std::logic_error.
  int integer(const std::string& name) const { return value(name, 1).numbers[0]; }
  AxisPair pair(const std::string& name) const {
    return {value(name, 2).numbers[0], value(name, 2).numbers[1]};
  }
  const std::string& choice(const std::string& name) const { return value(name, 0).choice; }

  // Set by the registration, one call per axis of the rung.
  void set_integer(const std::string& name, int value) { values_.push_back({name, {value}, ""}); }
  void set_pair(const std::string& name, AxisPair value) {
    values_.push_back({name, {value.x, value.y}, ""});
  }
  void set_choice(const std::string& name, const std::string& value) {
    values_.push_back({name, {}, value});
  }

 private:
  struct Value {
    std::string name;
    std::vector<int> numbers;  // one for an integer, x and y for a pair, none for a choice
    std::string choice;
  };
  const Value& value(const std::string& name, size_t numbers) const {
    for (const Value& value : values_)
      if (value.name == name && value.numbers.size() == numbers) return value;
    throw std::logic_error("the CUDA launch has no axis '" + name + "' of that kind");
  }
  std::vector<Value> values_;
};

}  // namespace convlab::cuda

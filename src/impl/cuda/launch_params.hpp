// The launch parameters of one CUDA point, as the .cu files read them: the layout and streams the
// shared point runner (point_runner.cu) needs, and the rung's own axes by name. The registration
// fills it from the config's params (cuda_axes.cpp); each rung's .cu file reads its axes into its
// own typed struct. Plain C++, no JSON: the .cu files compile with nvcc alone.
#pragma once

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
  int integer(const std::string& name) const;
  AxisPair pair(const std::string& name) const;
  const std::string& choice(const std::string& name) const;

  // Set by the registration, one call per axis of the rung.
  void set_integer(const std::string& name, int value);
  void set_pair(const std::string& name, AxisPair value);
  void set_choice(const std::string& name, const std::string& value);

 private:
  struct Value {
    std::string name;
    std::vector<int> numbers;  // one for an integer, x and y for a pair, none for a choice
    std::string choice;
  };
  const Value& value(const std::string& name, size_t numbers) const;
  std::vector<Value> values_;
};

}  // namespace convlab::cuda

// A new experiment as the served page makes it (app/page_actions.hpp): its config, its discussion
// and, when asked, a CPU kernel of its own written to the contract (include/convlab/kernel.h),
// each where the project keeps them: configs/NAME.yaml, experiments/NAME.md and
// configs/kernels/NAME.c (named `kernels/NAME.c` by the config, beside it). The config measures
// the kernel against the straightforward loops on a small generated image, so that its first
// sweep takes seconds and shows a figure and a table; the discussion quotes a computed value.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace convlab {

struct NewExperimentFiles {
  std::string config;                                      // the config's path
  std::string page;                                        // its page file, NAME.html
  std::vector<std::pair<std::string, std::string>> texts;  // path, text: config first
};

// Why `name` cannot name an experiment (it names a results folder and files): empty when it can.
// 1 to 64 of A-Z a-z 0-9 _ - ., starting with a letter or digit.
std::string experiment_name_problem(const std::string& name);

NewExperimentFiles new_experiment_files(const std::string& name, bool with_kernel,
                                        const std::string& configs_folder,
                                        const std::string& discussions_folder);

}  // namespace convlab

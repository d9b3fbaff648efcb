// `convlab export` and `convlab compare`. `args` are the words after the subcommand.
// Exit codes: 0 done, 1 compare found a regression, 2 bad input (the message names file and key).
#pragma once

#include <string>
#include <vector>

namespace convlab {

int export_command(const std::vector<std::string>& args);
int compare_command(const std::vector<std::string>& args);

}  // namespace convlab

#include <iostream>

#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "plan/plan.hpp"

namespace convlab {

int validate_command(const Arguments& args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: convlab validate CONFIG\n\nChecks the config (keys, types, kernel sizes, "
                 "image files) and prints the size of its plan. Exit 0 when valid, 2 otherwise.\n";
    return args.size() == 1 ? 0 : 2;
  }
  try {
    const Config config = load_config_for_command(args[0]);
    std::cout << args[0] << ": valid; " << config.images.size() << " images, "
              << config.filters.size() << " kernels, " << config.borders.size() << " borders, "
              << config.outputs.size() << " outputs, " << expand_plan(config).size() << " points\n";
    return 0;
  } catch (const ConfigError& error) {
    std::cerr << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab validate: " << args[0] << ": " << error.what() << "\n";
    return 2;
  }
}

}  // namespace convlab

#include <iostream>

#include "app/commands.hpp"
#include "config/config_schema.hpp"
#include "figures/declaration_keys.hpp"

namespace convlab {

int schema_command(const Arguments& args) {
  const CommandLine line(
      "schema",
      {{},
       "Prints the JSON Schema (draft 2020-12) of the config language, generated from the\n"
       "tables the config reader uses: every key, filter type, implementation and its axes,\n"
       "border and output. docs/config.schema.json is its output (make schema writes it);\n"
       "editors with the YAML language server check configs against it as you type.\n",
       "",
       ""});
  if (const auto status = line.parse(args)) return *status;
  std::cout << config_schema(declarations_schema()).dump(2) << "\n";
  return 0;
}

}  // namespace convlab

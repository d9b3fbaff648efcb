#include <iostream>

#include "app/commands.hpp"
#include "measure/provenance.hpp"

namespace convlab {
namespace {

// "label:" padded so the values line up.
std::string label(const std::string& name) {
  const std::string text = name + ":";
  return text + std::string(text.size() < 12 ? 12 - text.size() : 1, ' ');
}

std::string trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(' ');
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

}  // namespace

int version_command(const Arguments& args) {
  const CommandLine line("version", {{},
                                     "Prints the version, the source commit, the build type, the "
                                     "compiler and which optional\nparts are built in (also "
                                     "convlab --version).\n",
                                     "",
                                     ""});
  if (const auto status = line.parse(args)) return *status;
  const nlohmann::json build = build_facts();
  const GitFacts git = git_facts();
  std::string commit = "unknown (no git checkout of the sources)";
  if (git.commit) {
    // Read from the source tree when asked, not baked into the executable: a commit that changes
    // no code keeps the build id, so earlier measurements stay valid.
    commit = *git.commit;
    if (git.dirty.value_or(false)) commit += " with uncommitted changes";
    commit += " (of the source tree, now)";
  }
  std::cout << "convlab " << build["version"].get<std::string>() << "\n"
            << label("commit") << commit << "\n"
            << label("build type") << build["build_type"].get<std::string>() << "\n"
            << label("compiler") << build["compiler"].get<std::string>() << " "
            << build["compiler_version"].get<std::string>() << "\n"
            << label("flags") << trimmed(build["flags"].get<std::string>()) << "\n";
  for (const BuiltInPart& part : built_in_parts())
    std::cout << label(part.name) << (part.built ? "built in" : "not built in") << "\n";
  std::cout << label("build id") << build["id"].get<std::string>() << "\n";
  return 0;
}

}  // namespace convlab

#include <filesystem>
#include <iostream>

#include "app/commands.hpp"
#include "config/config_error.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"
#include "query/results_document.hpp"

namespace convlab {

int report_command_error(const std::string& command, const std::exception& error) {
  std::cerr << "convlab " << command << ": " << bounded_message(error.what()) << "\n";
  return 2;
}

int report_reading_error(const std::string& command, const std::string& path) {
  const std::string prefix = "convlab " + command + ": ";
  std::string message;
  try {
    throw;
  } catch (const ConfigError& error) {
    message = error.what();
  } catch (const ResultsError& error) {
    message = error.what();
  } catch (const FileError& error) {
    message = prefix + error.what();
  } catch (const std::filesystem::filesystem_error& error) {
    message = prefix + error.what();
  } catch (const std::exception& error) {
    message = prefix + (path.empty() ? "" : path + ": ") + error.what();
  }
  // A line's worth of each line: a path of any length does not make a message of its length.
  std::cerr << bounded_message(message) << "\n";
  return 2;
}

}  // namespace convlab

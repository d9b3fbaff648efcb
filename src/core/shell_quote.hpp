// Text for a POSIX shell: every command line convlab prints, writes into a script or puts on a
// page for copying goes through here, so that no path, filter or name in it runs as a command.
#pragma once

#include <string>

namespace convlab {

// 'text' with every character literal; a quote inside is written '\''.
std::string shell_quoted(const std::string& text);

// `text` as one shell word for people to read: as it is when it holds only characters no shell
// or make treats specially (letters, digits, and _ - . / + , : = @ %), otherwise shell_quoted.
std::string shell_word(const std::string& text);

}  // namespace convlab

#include "serve/action_requests.hpp"

#include <cctype>

namespace convlab {

bool is_action_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (unsigned char c : name)
    if (!std::isalnum(c) && c != '-' && c != '_') return false;
  return true;
}

}  // namespace convlab

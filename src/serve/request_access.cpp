#include "serve/request_access.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace convlab {

namespace {

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const std::size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

bool is_ipv4_literal(const std::string& host) {
  in_addr address{};
  return ::inet_pton(AF_INET, host.c_str(), &address) == 1;
}

bool is_ipv6_literal(const std::string& host) {
  in6_addr address{};
  return ::inet_pton(AF_INET6, host.c_str(), &address) == 1;
}

// "[::1]" for an IPv6 address, the address itself otherwise.
std::string host_form(const std::string& address) {
  return is_ipv6_literal(address) ? "[" + address + "]" : address;
}

}  // namespace

bool is_wildcard_address(const std::string& address) {
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1) return v4.s_addr == htonl(INADDR_ANY);
  in6_addr v6{};
  if (::inet_pton(AF_INET6, address.c_str(), &v6) == 1)
    return std::memcmp(&v6, &in6addr_any, sizeof v6) == 0;
  return false;
}

bool host_names_server(const std::string& host_header, const std::string& bind_address, int port) {
  const std::string suffix = ":" + std::to_string(port);
  const std::string host = lowercase(host_header);
  if (host.size() <= suffix.size() ||
      host.compare(host.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  const std::string name = host.substr(0, host.size() - suffix.size());
  if (name == "127.0.0.1" || name == "localhost" || name == "[::1]") return true;
  if (name == lowercase(host_form(bind_address))) return true;
  if (!is_wildcard_address(bind_address)) return false;
  if (is_ipv4_literal(name)) return true;
  return name.size() > 2 && name.front() == '[' && name.back() == ']' &&
         is_ipv6_literal(name.substr(1, name.size() - 2));
}

bool origin_names_server(const std::string& origin_header, const std::string& bind_address,
                         int port) {
  const std::string scheme = "http://";
  const std::string origin = lowercase(trimmed(origin_header));
  if (origin.compare(0, scheme.size(), scheme) != 0) return false;
  const std::string host = origin.substr(scheme.size());
  if (host.find('/') != std::string::npos) return false;
  return host_names_server(host, bind_address, port);
}

bool tokens_equal(std::string_view given, std::string_view expected) {
  // The length of the expected token is not secret (64 digits unless chosen); its digits are.
  unsigned difference = given.size() == expected.size() ? 0u : 1u;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const unsigned char g = i < given.size() ? static_cast<unsigned char>(given[i]) : 0u;
    difference |= g ^ static_cast<unsigned char>(expected[i]);
  }
  return difference == 0;
}

std::optional<std::string> cookie_value(const std::string& cookie_header, const std::string& name) {
  std::size_t start = 0;
  while (start <= cookie_header.size()) {
    std::size_t end = cookie_header.find(';', start);
    if (end == std::string::npos) end = cookie_header.size();
    const std::string pair = trimmed(cookie_header.substr(start, end - start));
    const std::size_t equals = pair.find('=');
    if (equals != std::string::npos && trimmed(pair.substr(0, equals)) == name)
      return trimmed(pair.substr(equals + 1));
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> authorization_token(const std::string& authorization_header) {
  const std::string header = trimmed(authorization_header);
  const std::size_t space = header.find(' ');
  if (space == std::string::npos || lowercase(header.substr(0, space)) != "token")
    return std::nullopt;
  return trimmed(header.substr(space + 1));
}

std::string random_token() {
  unsigned char bytes[32];
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(std::string("/dev/urandom: ") + std::strerror(errno));
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::read(fd, bytes + got, sizeof bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error("/dev/urandom: cannot read 32 bytes");
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  static const char digits[] = "0123456789abcdef";
  std::string token;
  for (unsigned char byte : bytes) {
    token += digits[byte >> 4];
    token += digits[byte & 15];
  }
  return token;
}

std::string token_problem(const std::string& token) {
  if (token.size() < 16) return "a token needs at least 16 characters";
  if (token.size() > 256) return "a token has at most 256 characters";
  for (unsigned char c : token)
    if (!std::isalnum(c) && c != '-' && c != '.' && c != '_' && c != '~')
      return "a token may hold only letters, digits and - . _ ~";
  return "";
}

}  // namespace convlab

#include "serve/response_headers.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace convlab {

const char* const kServedContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "base-uri 'none'; form-action 'none'; connect-src 'self'; frame-ancestors 'none'";

std::string content_type_of(const std::filesystem::path& file) {
  static const std::map<std::string, std::string> types = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".json", "application/json"},
      {".woff2", "font/woff2"},
      {".woff", "font/woff"},
      {".ttf", "font/ttf"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
      {".yaml", "text/plain; charset=utf-8"},
      {".tsv", "text/tab-separated-values; charset=utf-8"},
      {".csv", "text/csv; charset=utf-8"},
      {".pdf", "application/pdf"},
      {".ico", "image/vnd.microsoft.icon"},
  };
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto found = types.find(extension);
  return found == types.end() ? "application/octet-stream" : found->second;
}

const std::vector<std::pair<std::string, std::string>>& security_headers() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"X-Frame-Options", "DENY"},
      {"Content-Security-Policy", kServedContentSecurityPolicy},
      {"Cross-Origin-Resource-Policy", "same-origin"},
      {"Cache-Control", "no-store"},
  };
  return headers;
}

}  // namespace convlab

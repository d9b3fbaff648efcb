// Who may ask the notebook server for anything: a request must name this server in its Host header
// (which defeats DNS rebinding: a page of another site that resolves its name to 127.0.0.1 still
// sends its own name) and carry the server's token in the query (?token=), the server's cookie or
// an "Authorization: token X" header. Tokens are compared in constant time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace convlab {

// Whether `host_header` names the server listening on `bind_address`:`port`: 127.0.0.1,
// localhost, [::1] or the bind address itself, with exactly that port. When the server listens on
// every address (0.0.0.0 or ::), any IP literal is accepted too: only a host name can be rebound.
bool host_names_server(const std::string& host_header, const std::string& bind_address, int port);

// Whether an Origin header names this server as a page of it sends it: http://HOST:PORT, with a
// HOST that host_names_server accepts. "null", another scheme, a path or a missing port do not.
bool origin_names_server(const std::string& origin_header, const std::string& bind_address,
                         int port);

// Whether `address` is a wildcard address (0.0.0.0, ::) listening on every interface.
bool is_wildcard_address(const std::string& address);

// Equality that takes the same time wherever the first difference is.
bool tokens_equal(std::string_view given, std::string_view expected);

// The value of cookie `name` in a Cookie header ("a=1; name=v"), nullopt when absent.
std::optional<std::string> cookie_value(const std::string& cookie_header, const std::string& name);

// X from "token X" (the scheme case-insensitive), nullopt for any other Authorization header.
std::optional<std::string> authorization_token(const std::string& authorization_header);

// 32 bytes from /dev/urandom as 64 lowercase hexadecimal digits; throws std::runtime_error when
// /dev/urandom cannot be read.
std::string random_token();

// Why `token` cannot be a server token (it must be 16 to 256 characters out of A-Z a-z 0-9 - . _ ~,
// so that it needs no escaping in a URL or a cookie); empty when it can.
std::string token_problem(const std::string& token);

}  // namespace convlab

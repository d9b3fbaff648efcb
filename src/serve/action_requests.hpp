// What a page may ask the notebook server to do besides reading files: save a file of the
// experiment, run, stop, measure a point again, evaluate a query (convlab watch --serve). The
// server only admits such a request; what it does is the handler's, which the command that runs
// the experiment supplies (app/page_actions.hpp), so that the server itself writes nothing.
//
// An action is a request for /_api/NAME. Every one needs what every request needs (the Host
// header naming the server, the token); one that changes something is a POST and needs, besides,
// an Origin header naming the server, a Sec-Fetch-Site of same-origin where the browser sends one,
// Content-Type application/json, the session's CSRF token in X-Convlab-CSRF (a page reads it from
// GET /_api/session, which another site's page cannot read) and a body of at most
// ServeLimits::max_request_body_bytes, given by Content-Length and arriving before its deadline.
// A request that fails any of these is answered without its body being read or the handler called.
#pragma once

#include <functional>
#include <string>

namespace convlab {

// The path prefix of actions: /_api/NAME.
inline constexpr const char* kActionPrefix = "/_api/";
// The header that carries the CSRF token of a state-changing request.
inline constexpr const char* kCsrfHeader = "X-Convlab-CSRF";

struct ActionRequest {
  std::string method;  // GET or POST
  std::string name;    // NAME of /_api/NAME (letters, digits, '-' and '_')
  std::string body;    // a POST's JSON, as sent; empty for GET
};

struct ActionAnswer {
  int status = 200;
  std::string json = "{}";  // the answer's body, application/json
  std::string allow;        // with 405: the methods NAME takes
};

// Called on a worker thread of the server, perhaps on several at once.
using ActionHandler = std::function<ActionAnswer(const ActionRequest&)>;

// Whether `name` may name an action: 1 to 64 of A-Z a-z 0-9 - _.
bool is_action_name(const std::string& name);

}  // namespace convlab

#include "run/hand_out_channel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace convlab {
namespace {

// A message longer than this is not one of ours: the channel is treated as closed.
constexpr std::size_t kLongestLine = 256;

std::optional<std::size_t> item_number(const std::string& text, std::size_t items) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const std::size_t item = std::stoul(text);
  return item < items ? std::optional<std::size_t>(item) : std::nullopt;
}

}  // namespace

bool LineChannel::send(const std::string& line) {
  if (fd_ < 0) return false;
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool LineChannel::take_line(std::string& line) {
  const std::size_t end = buffer_.find('\n');
  if (end == std::string::npos) return false;
  line = buffer_.substr(0, end);
  buffer_.erase(0, end + 1);
  return true;
}

std::optional<std::string> LineChannel::receive() {
  std::string line;
  while (!take_line(line)) {
    if (fd_ < 0 || buffer_.size() > kLongestLine) return std::nullopt;
    char chunk[256];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  return line;
}

bool LineChannel::receive_available(std::vector<std::string>& lines) {
  if (fd_ < 0) return false;
  while (true) {
    char chunk[256];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      std::string line;
      while (take_line(line)) lines.push_back(line);
      return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  std::string line;
  while (take_line(line)) lines.push_back(line);
  return buffer_.size() <= kLongestLine;
}

void LineChannel::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
}

bool hand_out_socket_pair(int fds[2]) {
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return false;
  // The worker's end survives the worker's exec; the worker marks it close-on-exec itself, so
  // that what it starts does not hold it.
  ::fcntl(fds[1], F_SETFD, 0);
  return true;
}

HandOutClient::HandOutClient(int fd, const Schedule& schedule, std::vector<HandOutItem> items,
                             const std::string& digest, bool ask_ahead)
    : channel_(fd), schedule_(schedule), items_(std::move(items)), ask_ahead_(ask_ahead) {
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (!channel_.send("hello " + digest)) ended_ = true;
}

HandOutClient::~HandOutClient() {
  channel_.close();
}

std::optional<std::size_t> HandOutClient::ask(const std::string& message) {
  if (ended_) return std::nullopt;
  const std::optional<std::string> reply =
      channel_.send(message) ? channel_.receive() : std::nullopt;
  if (!reply || *reply == "end") {
    ended_ = true;
    return std::nullopt;
  }
  if (*reply == "none") return std::nullopt;
  const std::optional<std::size_t> item = item_number(*reply, items_.size());
  if (!item) ended_ = true;  // not an answer of ours: take nothing more
  return item;
}

const WorkUnit* HandOutClient::next() {
  if (current_ && unit_in_item_ < items_[*current_].units.size())
    return &schedule_.units[items_[*current_].units[unit_in_item_++]];
  current_ = reserved_ ? reserved_ : ask("take");
  reserved_.reset();
  unit_in_item_ = 0;
  if (!current_ || items_[*current_].units.empty()) return nullptr;
  return &schedule_.units[items_[*current_].units[unit_in_item_++]];
}

const WorkUnit* HandOutClient::after() {
  if (current_ && unit_in_item_ < items_[*current_].units.size())
    return &schedule_.units[items_[*current_].units[unit_in_item_]];
  if (!ask_ahead_) return nullptr;
  if (!reserved_) reserved_ = ask("ahead");
  return reserved_ ? &schedule_.units[items_[*reserved_].units.front()] : nullptr;
}

void HandOutClient::finished() {
  if (current_ && unit_in_item_ == items_[*current_].units.size())
    channel_.send("done " + std::to_string(*current_));
}

HandOutServer::HandOutServer(HandOut& queue, std::string digest)
    : queue_(queue),
      digest_(std::move(digest)),
      channels_(static_cast<std::size_t>(queue.workers())),
      waiting_(static_cast<std::size_t>(queue.workers()), false),
      refused_(static_cast<std::size_t>(queue.workers()), false) {}

HandOutServer::~HandOutServer() {
  for (auto& channel : channels_) channel.close();
}

void HandOutServer::add_worker(int worker, int fd) {
  channels_[worker] = LineChannel(fd);
}

void HandOutServer::serve(int timeout_ms) {
  std::vector<pollfd> polled;
  std::vector<int> worker_of;
  for (int w = 0; w < static_cast<int>(channels_.size()); ++w)
    if (channels_[w].fd() >= 0) {
      polled.push_back({channels_[w].fd(), POLLIN, 0});
      worker_of.push_back(w);
    }
  if (polled.empty()) {
    ::poll(nullptr, 0, timeout_ms);
    return;
  }
  if (::poll(polled.data(), polled.size(), timeout_ms) <= 0) return;
  for (std::size_t i = 0; i < polled.size(); ++i) {
    if (polled[i].revents == 0) continue;
    const int w = worker_of[i];
    std::vector<std::string> lines;
    const bool open = channels_[w].receive_available(lines);
    for (const auto& line : lines) handle(w, line);
    // Closed: the worker is ending; what it held goes back when it is reaped (ended).
    if (!open) channels_[w].close();
  }
}

void HandOutServer::handle(int worker, const std::string& message) {
  if (message.rfind("hello ", 0) == 0) {
    if (message.substr(6) != digest_ && !refused_[worker]) {
      refused_[worker] = true;
      if (on_event) on_event({Event::Kind::refused, worker, 0});
    }
  } else if (message == "take") {
    waiting_[worker] = true;
    answer_take(worker);
  } else if (message == "ahead") {
    // Near the end a group taken ahead would wait for its worker while another is idle: only while
    // more groups are queued than there are workers.
    const bool plenty = queue_.queued() > static_cast<std::size_t>(queue_.workers());
    const std::optional<std::size_t> item =
        refused_[worker] || !plenty ? std::nullopt : queue_.take(worker);
    channels_[worker].send(item ? std::to_string(*item) : "none");
    if (item && on_event) on_event({Event::Kind::taken, worker, *item});
  } else if (message.rfind("done ", 0) == 0) {
    const std::optional<std::size_t> item = item_number(message.substr(5), queue_.items().size());
    if (item && queue_.done(worker, *item)) {
      if (on_event) on_event({Event::Kind::done, worker, *item});
      answer_waiting();
    }
  }
}

void HandOutServer::answer_take(int worker) {
  if (!waiting_[worker]) return;
  const std::optional<std::size_t> item = refused_[worker] ? std::nullopt : queue_.take(worker);
  if (item) {
    waiting_[worker] = false;
    channels_[worker].send(std::to_string(*item));
    if (on_event) on_event({Event::Kind::taken, worker, *item});
  } else if (refused_[worker] || queue_.finished()) {
    // Nothing can come back to the queue any more: every item is done or abandoned.
    waiting_[worker] = false;
    channels_[worker].send("end");
  }
  // Otherwise it waits: items held by others may be given back if their worker ends.
}

void HandOutServer::answer_waiting() {
  for (int w = 0; w < static_cast<int>(waiting_.size()); ++w) answer_take(w);
}

HandOut::Lost HandOutServer::ended(int worker) {
  channels_[worker].close();
  waiting_[worker] = false;
  const HandOut::Lost lost = queue_.lost(worker);
  answer_waiting();
  return lost;
}

}  // namespace convlab

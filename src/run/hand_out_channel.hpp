// The messages of the hand-out (run/hand_out.hpp) between `convlab run --devices` and its device
// workers: one Unix stream socket per worker, the worker's end given to it as a file descriptor
// (`--hand-out FD`). Lines of text, one message each:
//
//   worker -> run:  hello DIGEST   the items as the worker expanded them (hand_out_digest)
//                   take           give me the next item; answered when one is free for it, or
//                                  "end" once nothing is queued or held
//                   ahead          the item after the current one, if one is free now and more
//                                  are queued than there are workers (CONVLAB_PREPARE_AHEAD=1);
//                                  answered at once, or "none"
//                   done ITEM      the item is measured and its records are in the journal
//   run -> worker:  ITEM | end | none
//
// A worker that ends (a crash, a signal) closes its end: the run learns it from the socket and from
// the exit status, and gives back what the worker held. A run that ends closes the other end: the
// worker then takes no further item.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/hand_out.hpp"
#include "run/unit_feed.hpp"

namespace convlab {

// Lines over a stream socket; sends never raise SIGPIPE.
class LineChannel {
 public:
  explicit LineChannel(int fd = -1) : fd_(fd) {}
  int fd() const { return fd_; }
  bool send(const std::string& line);
  // The next line, waiting for it; nullopt when the other end is closed.
  std::optional<std::string> receive();
  // The lines that arrived, without waiting; false once the other end is closed.
  bool receive_available(std::vector<std::string>& lines);
  void close();

 private:
  bool take_line(std::string& line);
  int fd_;
  std::string buffer_;
};

// A Unix stream socket pair: [0] for the run, [1] for the worker (not closed on exec).
bool hand_out_socket_pair(int fds[2]);

// The worker's end: its units, one item at a time.
class HandOutClient final : public UnitFeed {
 public:
  // `fd`: the socket given by --hand-out; `schedule` and `items` as the worker expanded them.
  HandOutClient(int fd, const Schedule& schedule, std::vector<HandOutItem> items,
                const std::string& digest, bool ask_ahead);
  ~HandOutClient() override;
  const WorkUnit* next() override;
  const WorkUnit* after() override;
  void finished() override;

 private:
  std::optional<std::size_t> ask(const std::string& message);

  LineChannel channel_;
  const Schedule& schedule_;
  std::vector<HandOutItem> items_;
  bool ask_ahead_;
  bool ended_ = false;
  std::optional<std::size_t> current_, reserved_;
  std::size_t unit_in_item_ = 0;  // the next unit of the current item
};

// The run's end: answers every worker's messages from the queue.
class HandOutServer {
 public:
  struct Event {
    enum class Kind { taken, done, refused } kind;
    int worker = 0;
    std::size_t item = 0;
  };
  HandOutServer(HandOut& queue, std::string digest);
  ~HandOutServer();
  void add_worker(int worker, int fd);
  // Reads what the workers sent and answers it, waiting up to `timeout_ms` for a message.
  void serve(int timeout_ms);
  // Worker `worker` ended: its socket is closed and what it held goes back to the queue.
  HandOut::Lost ended(int worker);
  // Called for every item taken and done, and for a worker refused (another plan).
  std::function<void(const Event&)> on_event;

 private:
  void handle(int worker, const std::string& message);
  void answer_waiting();
  void answer_take(int worker);

  HandOut& queue_;
  std::string digest_;
  std::vector<LineChannel> channels_;  // per worker; fd -1 when none or closed
  std::vector<bool> waiting_, refused_;
};

}  // namespace convlab

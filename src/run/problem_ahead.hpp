// The next problem's input image and double reference, made on a background thread while the
// current problem's CUDA points are timed, so that a device worker's GPU does not wait for the host
// at each new problem (docs/scale-out.md, "Where a device worker's time goes"). At most one problem
// ahead, so at most two images and two references are held. The reference is the same one
// (reference/reference.hpp compute_reference_rows: the same scalar double code and order per
// value), computed by threads of this class on the CPUs the caller names, which leave out the
// timing thread's own. Only the point executor (run/point_executor.hpp) starts it, and only
// between CUDA points: CPU points keep the machine to themselves.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "core/image.hpp"
#include "core/problem.hpp"
#include "reference/reference.hpp"

namespace convlab {

// (image, kernel, border, output) as indices into the config: a reference's identity.
using ReferenceId = std::tuple<std::size_t, std::size_t, Border, OutputType>;

// compute_reference on `cpus` (every one when empty) with threads of its own, rows handed out in
// blocks of four as OpenMP's dynamic schedule does; the same bytes as compute_reference.
Reference compute_reference_on(const Problem& problem, const std::vector<int>& cpus);

class ProblemAhead {
 public:
  struct Made {
    std::size_t image_index = 0;
    std::shared_ptr<const Image> image;
    ReferenceId id;
    std::unique_ptr<Reference> reference;
    double seconds = 0.0;  // the background thread's wall time
  };
  // What the background thread needs: the image when it is already made (else `make_image`), and
  // the rest of the problem.
  struct Job {
    std::size_t image_index = 0;
    std::shared_ptr<const Image> image;
    std::function<Image()> make_image;
    ReferenceId id;
    Filter filter;
    Border border = Border::replicate;
    OutputType output = OutputType::u8;
    std::vector<int> cpus;
  };

  ~ProblemAhead();
  void start(Job job);
  bool pending() const { return result_.valid(); }
  const ReferenceId& id() const { return id_; }
  // Waits for the job; nullopt when none was started or it failed (the caller then makes the
  // image or reference itself, and meets the error where a run without this one would).
  std::optional<Made> take();

 private:
  std::future<Made> result_;
  ReferenceId id_{};
};

// CONVLAB_PREPARE_AHEAD=1 turns it on (default off).
bool prepare_ahead_enabled();

}  // namespace convlab

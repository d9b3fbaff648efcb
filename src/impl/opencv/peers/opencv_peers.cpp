// The OpenCV peers: cv::filter2D, cv::sepFilter2D and cv::GaussianBlur on the same image, kernel,
// border and output type as the convlab CPU rungs, timed like them (the runner's steady_clock
// around execute(), which is the OpenCV call alone). The only file that includes OpenCV.
//
// - Correlation: filter2D and sepFilter2D do not flip their kernels, as convlab does not, so the
//   KxK matrix (and convlab's own column/row factors) are handed over unchanged.
// - Borders: zero -> BORDER_CONSTANT (value 0), replicate -> BORDER_REPLICATE, reflect ->
//   BORDER_REFLECT_101, symmetric -> BORDER_REFLECT; wrap is skipped by the registration.
// - Output: u8 directly (ddepth CV_8U, OpenCV's saturating round). f32: filter2D and sepFilter2D
//   write CV_32F from the u8 input; GaussianBlur keeps the input depth, so for f32 the input is
//   converted to float once when the point is prepared (not timed) and blurred as float.
// - Threads: cv::setNumThreads(threads) when the point is prepared, and again before a call when
//   another point changed it meanwhile (interleaved timing prepares several points at once; the
//   setting is OpenCV's, process-wide). Debian's OpenCV runs its parallel loops on TBB, whose
//   workers are created by the calling thread and inherit its CPU affinity; convlab pins the
//   OpenMP initial thread to one core (OMP_PROC_BIND), so while an OpenCV point is prepared and
//   while each call runs, the calling thread may run on every OpenMP place; its own affinity comes
//   back after each (before_call / after_call, outside the timing).
#include <omp.h>
#include <sched.h>

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <stdexcept>

#include "impl/opencv/opencv_calls.hpp"

namespace convlab {

bool opencv_built() {
  return true;
}

std::string opencv_version() {
  return cv::getVersionString();
}

namespace opencv {
namespace {

int border_type(Border border) {
  switch (border) {
    case Border::zero:
      return cv::BORDER_CONSTANT;
    case Border::replicate:
      return cv::BORDER_REPLICATE;
    case Border::reflect:
      return cv::BORDER_REFLECT_101;
    case Border::symmetric:
      return cv::BORDER_REFLECT;
    case Border::wrap:
      break;
  }
  throw std::invalid_argument("OpenCV's filters do not support the wrap border");
}

// Every CPU of the OpenMP places (with OMP_PLACES=cores: every core convlab may use), for the
// calling thread while it lives; its earlier affinity is restored on destruction.
class WideAffinity {
 public:
  WideAffinity() {
    CPU_ZERO(&saved_);
    saved_ok_ = sched_getaffinity(0, sizeof saved_, &saved_) == 0;
    const int places = omp_get_num_places();
    if (!saved_ok_ || places <= 0) return;
    cpu_set_t wide;
    CPU_ZERO(&wide);
    for (int place = 0; place < places; ++place) {
      std::vector<int> ids(static_cast<size_t>(omp_get_place_num_procs(place)));
      omp_get_place_proc_ids(place, ids.data());
      for (int id : ids)
        if (id >= 0 && id < CPU_SETSIZE) CPU_SET(id, &wide);
    }
    changed_ = sched_setaffinity(0, sizeof wide, &wide) == 0;
  }
  ~WideAffinity() {
    if (changed_) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  WideAffinity(const WideAffinity&) = delete;
  WideAffinity& operator=(const WideAffinity&) = delete;

 private:
  cpu_set_t saved_;
  bool saved_ok_ = false;
  bool changed_ = false;
};

// The count this file last handed to cv::setNumThreads (-1: none yet). It is compared with what
// a point needs rather than cv::getNumThreads(), which reports OpenCV's view of it.
int threads_set = -1;

void set_threads(int threads) {
  cv::setNumThreads(threads);
  threads_set = threads;
}

cv::Mat row_vector(const std::vector<float>& values) {
  return cv::Mat(1, static_cast<int>(values.size()), CV_32F, const_cast<float*>(values.data()))
      .clone();
}

class OpencvPoint : public PreparedPoint {
 public:
  OpencvPoint(const Problem& problem, const PeerRequest& request)
      : request_(request), output_type_(problem.output), border_(border_type(problem.border)) {
    const Image& in = problem.input;
    const Filter& filter = problem.filter;
    const int ddepth = problem.output == OutputType::u8 ? CV_8U : CV_32F;
    // The input is wrapped, not copied: OpenCV reads convlab's pixels in place.
    src_ = cv::Mat(in.height, in.width, CV_8UC(in.channels),
                   const_cast<std::uint8_t*>(in.pixels.data()));
    if (request.function == Function::gaussianblur && ddepth == CV_32F)
      src_.convertTo(src_, CV_32F);
    dst_.create(in.height, in.width, CV_MAKETYPE(ddepth, in.channels));
    ddepth_ = ddepth;
    ksize_ = filter.size;
    kernel_ = cv::Mat(filter.size, filter.size, CV_32F, const_cast<float*>(filter.weights.data()))
                  .clone();
    if (request.function == Function::sepfilter2d) {
      if (!filter.separable) throw std::invalid_argument("sepFilter2D needs a separable kernel");
      kernel_x_ = row_vector(filter.row);
      kernel_y_ = row_vector(filter.column);
    }
    const WideAffinity affinity;  // OpenCV may start its pool here
    set_threads(request.threads);
  }

  void before_call() override {
    affinity_.emplace();
    if (threads_set != request_.threads) set_threads(request_.threads);
  }
  void after_call() override { affinity_.reset(); }

  std::optional<PhaseTimes> execute() override {
    const cv::Point anchor(-1, -1);
    switch (request_.function) {
      case Function::filter2d:
        cv::filter2D(src_, dst_, ddepth_, kernel_, anchor, 0.0, border_);
        break;
      case Function::sepfilter2d:
        cv::sepFilter2D(src_, dst_, ddepth_, kernel_x_, kernel_y_, anchor, 0.0, border_);
        break;
      case Function::gaussianblur:
        cv::GaussianBlur(src_, dst_, cv::Size(ksize_, ksize_), request_.gaussian_sigma,
                         request_.gaussian_sigma, border_);
        break;
    }
    return std::nullopt;
  }

  OutputView output() const override {
    if (!dst_.isContinuous() || dst_.depth() != ddepth_)
      throw std::runtime_error("OpenCV reallocated the output buffer");
    return {output_type_, dst_.data, dst_.total() * dst_.channels()};
  }

 private:
  std::optional<WideAffinity> affinity_;  // during a call
  PeerRequest request_;
  OutputType output_type_;
  int border_;
  int ddepth_ = CV_8U;
  int ksize_ = 1;
  cv::Mat src_, dst_, kernel_, kernel_x_, kernel_y_;
};

}  // namespace

std::vector<double> gaussian_kernel(int size, double sigma) {
  const cv::Mat kernel = cv::getGaussianKernel(size, sigma, CV_64F);
  return std::vector<double>(kernel.begin<double>(), kernel.end<double>());
}

std::unique_ptr<PreparedPoint> prepare(const Problem& problem, const PeerRequest& request) {
  return std::make_unique<OpencvPoint>(problem, request);
}

}  // namespace opencv
}  // namespace convlab

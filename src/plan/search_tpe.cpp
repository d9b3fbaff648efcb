// tpe — model-based: a tree-structured Parzen estimator (Bergstra et al. 2011, the model of
// Hyperopt and Optuna). After a first set of random variants (ten, or two per param if more),
// the variants measured are split into the good (the fastest `gamma` share) and the others; per
// param, each set gives a density over its values (a Parzen window over the value's index, one
// index wide, plus a uniform prior), and of 24 candidates drawn from the good densities the one
// with the highest ratio of good to other density is measured next. Failed variants count among
// the others.
#include <algorithm>
#include <cmath>

#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

constexpr int kCandidates = 24;

using Density = std::vector<std::vector<double>>;  // per param, per value, normalised

class TpeRun final : public SearchStrategyRun {
 public:
  TpeRun(const StrategyContext& context)
      : memory_(context.space, context.seed),
        gamma_(context.spec.setting("gamma")),
        initial_(std::max<std::size_t>(10, 2 * context.space.axes().size())) {}

  std::optional<Coordinate> propose() override {
    if (memory_.measured_count() >= initial_ && !ran_.empty())
      if (auto modelled = from_model()) return memory_.propose(std::move(*modelled));
    return memory_.propose_fresh_random();
  }

  void observe(const Coordinate& variant, std::optional<double> objective) override {
    memory_.observe(variant, objective);
    if (!objective) {
      failed_.push_back(variant);
      return;
    }
    // Kept fastest first; equal times in the order they came.
    const std::pair<double, Coordinate> entry{*objective, variant};
    ran_.insert(std::upper_bound(ran_.begin(), ran_.end(), entry,
                                 [](const auto& a, const auto& b) { return a.first < b.first; }),
                entry);
  }

 private:
  // Counts per value, then the window over them: the cost grows with the values, not the
  // variants measured.
  Density density(const std::vector<const Coordinate*>& variants) const {
    const auto& axes = memory_.space().axes();
    Density density(axes.size());
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const std::size_t n = axes[a].values.size();
      std::vector<double> counts(n, 0.0);
      for (const Coordinate* variant : variants)
        counts[static_cast<std::size_t>((*variant)[a])] += 1.0;
      density[a].assign(n, 1.0 / double(n));  // the prior, worth one variant
      double sum = 0.0;
      for (std::size_t v = 0; v < n; ++v) {
        for (std::size_t u = 0; u < n; ++u) {
          const double d = double(v) - double(u);
          if (counts[u] > 0.0 && d * d < 50.0) density[a][v] += counts[u] * std::exp(-0.5 * d * d);
        }
        sum += density[a][v];
      }
      for (double& w : density[a]) w /= sum;
    }
    return density;
  }

  std::size_t draw(const std::vector<double>& weights) {
    double u = memory_.random().unit();
    for (std::size_t v = 0; v < weights.size(); ++v) {
      if (u < weights[v]) return v;
      u -= weights[v];
    }
    return weights.size() - 1;
  }

  std::optional<Coordinate> from_model() {
    const std::size_t good_count = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::ceil(gamma_ * double(ran_.size() + failed_.size()))));
    std::vector<const Coordinate*> good, other;
    for (const Coordinate& variant : failed_) other.push_back(&variant);
    for (std::size_t i = 0; i < ran_.size(); ++i)
      (i < good_count ? good : other).push_back(&ran_[i].second);
    const Density l = density(good), g = density(other);
    std::optional<Coordinate> chosen;
    double chosen_score = -INFINITY;
    for (int c = 0; c < kCandidates; ++c) {
      Coordinate candidate(l.size());
      double score = 0.0;
      for (std::size_t a = 0; a < l.size(); ++a) {
        const std::size_t v = draw(l[a]);
        candidate[a] = static_cast<int>(v);
        score += std::log(l[a][v]) - std::log(g[a][v]);
      }
      if (score <= chosen_score || memory_.proposed(candidate) ||
          !memory_.space().allows(candidate))
        continue;
      chosen = std::move(candidate);
      chosen_score = score;
    }
    return chosen;
  }

  SearchMemory memory_;
  double gamma_;
  std::size_t initial_;
  std::vector<Coordinate> failed_;
  std::vector<std::pair<double, Coordinate>> ran_;  // fastest first
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_tpe_search(const StrategyContext& context) {
  return std::make_unique<TpeRun>(context);
}

}  // namespace convlab

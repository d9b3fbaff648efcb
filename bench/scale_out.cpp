// How far shards and merge scale (docs/scale-out.md, "How far it scales"): a plan of 100,000
// points on one 8x8 image cut into 1,000 shards, and 10,000 of its points (--filter
// 'params.chunk<4') in 100 shards, so that both merges read files of 100 records under the same
// config and differ only in how many there are.
//
//   convlab_scale_bench CONVLAB WORKDIR [REPEATS]
//
// For each plan it measures
//   - cutting the plan into shards (make_schedule + cut_into_shards: what every shard computes),
//     and everything a shard does before its first point (load the config, expand it, cut,
//     select its units, name its points);
//   - `CONVLAB merge DIR` over the shard files, as a child process: wall time, time per record and
//     peak resident memory (getrusage of the child), first into a folder without results.json,
//     then again into the results.json it wrote (merging is idempotent).
// The shard files are written as `convlab run --shard` writes them (the same part block, run
// block and record writers), with records copied from one point really measured here and given
// each planned point's identity, so merging them finds no point missing. Medians of REPEATS
// runs (default 3). A benchmark, not a test: the numbers depend on the machine.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "measure/provenance.hpp"
#include "plan/plan.hpp"
#include "run/point_executor.hpp"
#include "run/schedule.hpp"
#include "store/part_files.hpp"
#include "store/results_file.hpp"

namespace {

using namespace convlab;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double median_seconds(int repeats, const std::function<void()>& work) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    work();
    times.push_back(seconds_since(start));
  }
  return median(times);
}

// kernels x 5 borders x 2 outputs problems of 40 openmp points each, on one 8x8 image.
std::string write_config(const fs::path& dir, int kernels) {
  const fs::path path = dir / "bench.yaml";
  std::ofstream out(path);
  out << "name: scale\nimages:\n  - {type: generated, sizes: [8], channels: [1], seed: 1}\n"
      << "kernels:\n";
  for (int k = 0; k < kernels; ++k) {
    char name[16];
    std::snprintf(name, sizeof name, "k%04d", k);
    out << "  - {type: custom, name: " << name
        << ", matrix: [[0, 1, 0], [1, 4, 1], [0, 1, 0]], normalize: true}\n";
  }
  out << "border: [zero, replicate, reflect, symmetric, wrap]\noutput: [u8, f32]\n"
      << "implementations:\n  openmp: {threads: [1], chunk: [";
  for (int c = 0; c < 40; ++c) out << (c ? ", " : "") << c;
  out << "]}\nmeasure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}\n";
  return path.string();
}

struct ChildRun {
  double seconds = 0;
  long peak_kib = 0;
  int status = -1;
};

ChildRun run_child(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  ChildRun run;
  run.seconds = seconds_since(start);
  run.peak_kib = usage.ru_maxrss;
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

struct PlanFigures {
  std::size_t points = 0, shards = 0;
  double cut_seconds = 0, shard_start_seconds = 0, write_seconds = 0;
  ChildRun merge, merge_again;
};

PlanFigures measure_plan(const std::string& convlab, const fs::path& dir, int kernels, int shards,
                         int chunks, int repeats) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string config_path = write_config(dir, kernels);
  PlanFigures figures;
  figures.shards = shards;
  const Config config = load_config(config_path);
  // The points a --filter 'params.chunk<CHUNKS' keeps.
  const auto filtered = [chunks](const std::vector<Point>& all) {
    std::vector<Point> kept;
    for (const auto& point : all)
      if (point.params.value("chunk", 0) < chunks) kept.push_back(point);
    return kept;
  };
  const std::vector<Point> plan = filtered(expand_plan(config));
  figures.points = plan.size();

  figures.cut_seconds = median_seconds(repeats, [&] {
    const ShardCut cut = cut_into_shards(make_schedule(config, plan), shards);
    if (cut.points.size() != static_cast<std::size_t>(shards)) std::abort();
  });
  // What one shard's run does before its first point.
  figures.shard_start_seconds = median_seconds(repeats, [&] {
    const Config loaded = load_config(config_path);
    const std::vector<Point> expanded = filtered(expand_plan(loaded));
    const Schedule schedule = make_schedule(loaded, expanded);
    const Schedule mine = units_of_shard(schedule, cut_into_shards(schedule, shards), shards / 2);
    std::vector<std::string> digests;
    for (const auto& unit : mine.units)
      for (std::size_t i : unit.points)
        digests.push_back(expanded[i].digest);
  });

  // The shard files, as the shards would write them.
  const auto write_start = Clock::now();
  const std::string out = (dir / "out").string();
  const Schedule schedule = make_schedule(config, plan);
  const ShardCut cut = cut_into_shards(schedule, shards);
  PointExecutor executor(config, plan, out, out + "/results.json", 0);
  RunBlock run;
  run.started = utc_timestamp();
  run.finished = run.started;
  run.config_path = config_path;
  run.config_sha256 = config.sha256;
  run.resolved_config = config.resolved;
  run.build = build_facts();
  run.host = host_facts();
  run.measure = RunMeasure{config.measure, config.measure_overrides};
  executor.stamp_records_with(run);
  const Record measured = executor.measure({executor.identify(0)}).front();
  if (measured.status != Status::ok) {
    std::cerr << "the template point failed: " << measured.reason << "\n";
    std::exit(1);
  }
  fs::create_directories(shards_folder(out));
  for (int shard = 0; shard < shards; ++shard) {
    ResultsFile file;
    file.experiment = {{"name", config.name}, {"title", config.title}};
    RunBlock shard_run = run;
    shard_run.id = run.started + "-" + std::to_string(shard);
    PartBlock part;
    part.config_sha256 = config.sha256;
    if (chunks < 40) part.filter = "params.chunk<" + std::to_string(chunks);
    part.shard = ShardIndex{shard, shards};
    part.partition = cut.digest;
    part.shard_points = cut.points;
    for (const auto& unit : units_of_shard(schedule, cut, shard).units)
      for (std::size_t i : unit.points) {
        const IdentifiedPoint point = executor.identify(i);
        part.points.push_back(point.digest);
        Record record = measured;
        record.key = point.key;
        record.point_id = point.id;
        record.run_id = shard_run.id;
        record.params = plan[i].params;
        const Filter& filter = config.filters[plan[i].filter];
        record.kernel = {filter.name, filter.type, filter.size, filter.separable,
                         filter.parameters};
        record.border = to_string(plan[i].border);
        record.output = to_string(plan[i].output);
        if (record.description().digest() != point.digest) {
          std::cerr << "a written record does not describe its point\n";
          std::exit(1);
        }
        file.records.push_back(std::move(record));
      }
    file.runs.push_back(shard_run);
    file.part = part;
    write_results_atomically(shards_folder(out) + "/" + shard_file_name(*part.shard), file);
  }
  figures.write_seconds = seconds_since(write_start);

  std::vector<ChildRun> first, again;
  for (int r = 0; r < repeats; ++r) {
    fs::remove(out + "/results.json");
    first.push_back(run_child({convlab, "merge", out}));
    again.push_back(run_child({convlab, "merge", out}));
  }
  const auto middle = [](std::vector<ChildRun> runs) {
    std::sort(runs.begin(), runs.end(),
              [](const ChildRun& a, const ChildRun& b) { return a.seconds < b.seconds; });
    return runs[runs.size() / 2];
  };
  figures.merge = middle(first);
  figures.merge_again = middle(again);
  for (const auto& r : first)
    if (r.status != 0) std::cerr << "merge exited " << r.status << "\n";
  return figures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: " << argv[0] << " CONVLAB WORKDIR [REPEATS]\n";
    return 2;
  }
  const std::string convlab = fs::absolute(argv[1]).string();
  const fs::path work = argv[2];
  const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  const PlanFigures small = measure_plan(convlab, work / "10k", 250, 100, 4, repeats);
  const PlanFigures large = measure_plan(convlab, work / "100k", 250, 1000, 40, repeats);
  std::printf(
      "| points | shards | cut into shards | one shard before its first point | "
      "shard files written | merge | per record | peak memory | merge again | per record "
      "| peak memory |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const PlanFigures* f : {&small, &large}) {
    const double n = double(f->points);
    std::printf(
        "| %zu | %zu | %.3f s | %.3f s | %.1f s | %.2f s | %.1f us | %.0f MiB | %.2f s | "
        "%.1f us | %.0f MiB |\n",
        f->points, f->shards, f->cut_seconds, f->shard_start_seconds, f->write_seconds,
        f->merge.seconds, f->merge.seconds / n * 1e6, f->merge.peak_kib / 1024.0,
        f->merge_again.seconds, f->merge_again.seconds / n * 1e6, f->merge_again.peak_kib / 1024.0);
  }
  std::printf(
      "\nmerge time per record, 100,000 against 10,000 records: %.2f (first merge), %.2f "
      "(merging again)\n",
      (large.merge.seconds / large.points) / (small.merge.seconds / small.points),
      (large.merge_again.seconds / large.points) / (small.merge_again.seconds / small.points));
  return 0;
}

#!/usr/bin/env bash
# The split of a config over 1, 2 and 4 devices and, for results folders of runs that were made,
# the time each worker took (docs/scale-out.md, "Where a device worker's time goes"). Needs no GPU
# for the split: it is the --dry-run cost model's, on a host of CPUS logical CPUs whose workers
# get CPUS / N each.
#
#   scripts/bench/device-scaling.sh [BUILD_DIR] [CONFIG] [CPUS] [RESULTS_DIR ...]
#   scripts/bench/device-scaling.sh build configs/gpu_pair.yaml 32
#   scripts/bench/device-scaling.sh build configs/gpu_pair_quick.yaml 32 out/runs/new-0 out/runs/new-all
#
# Prints the planned problems, points and estimated seconds per worker for N = 1, 2 and 4, then
# for each results folder every run's wall time and phase totals (run.phases): a worker that
# takes much longer than its estimate, or than the others, shows a regression. A note, not a test.
set -euo pipefail
build=${1:-build}
config=${2:-configs/gpu_pair.yaml}
cpus=${3:-$(nproc)}
shift $(($# > 3 ? 3 : $#))
cmake --build "$build" --target convlab_device_scaling -j "$(nproc)" >/dev/null
"$build/convlab_device_scaling" plan "$config" --cpus "$cpus" 1 2 4
(($# == 0)) || "$build/convlab_device_scaling" measured "$@"

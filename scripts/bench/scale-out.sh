#!/usr/bin/env bash
# The scale-out benchmark (docs/scale-out.md, "How far it scales"): builds bench/scale_out.cpp and
# runs it against BUILD_DIR/convlab in a temporary folder (about 1 GB of shard files and results,
# removed afterwards). Prints one table row per plan and the ratio of merge time per record.
#
#   scripts/bench/scale-out.sh [BUILD_DIR] [REPEATS]      (defaults: build, 3)
#
# A note, not a test: the numbers depend on the machine and on what else it is doing.
set -euo pipefail
build=${1:-build}
repeats=${2:-3}
cmake --build "$build" --target convlab convlab_scale_bench -j "$(nproc)" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/convlab_scale_bench" "$build/convlab" "$work" "$repeats"

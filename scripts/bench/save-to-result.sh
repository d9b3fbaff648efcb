#!/usr/bin/env bash
# From a save in the served page to the first new result in it, without the points' own time
# (docs/notebook.md, "Writing and running in the page"): builds bench/save_to_result.cpp and runs
# it against `convlab watch --serve` on a small config of its own. It saves as the page's
# Ctrl-Enter does (POST /_api/save), alternately the config with one kernel size more and the
# user's CPU kernel with a new comment (compiled again), SAVES times each, and prints one JSON
# object: per save the time to the first `page` event of its sweep, the measured time of the points
# that event shows, and the difference (the overhead); then the median and maximum overhead of
# each kind of save. The goal is under a second on the 2-core development machine.
#
#   scripts/bench/save-to-result.sh [BUILD_DIR] [--saves N]
#
# A note, not a test: the numbers depend on the machine and on what else it is doing (the load
# average is printed with them).
set -euo pipefail
build=${1:-build}
shift || true
cmake --build "$build" --target convlab convlab_save_to_result -j "$(nproc)" >/dev/null
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
     "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$build/convlab_save_to_result" "$build/convlab" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

#!/usr/bin/env bash
# The notebook server's load figures (docs/notebook.md, "Serving the notebook"): builds
# bench/serve_load.cpp and runs it on the loopback address: 200 concurrent clients, 10,000 requests
# a round, 50 held /_events streams, two rounds by default. Prints its JSON (requests/s, p50/p99
# latency per round, the server's VmRSS before and after each round) and exits non-zero when an
# answer was wrong or the memory grew.
#
#   scripts/bench/serve-load.sh [BUILD_DIR] [ARGUMENTS...]   (e.g. build --rounds 8)
#
# A note, not a test: the numbers depend on the machine and on what else it is doing.
set -euo pipefail
build=${1:-build}
shift || true
cmake --build "$build" --target convlab_serve_load -j "$(nproc)" >/dev/null
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" >&2
"$build/convlab_serve_load" "$@"

#!/usr/bin/env bash
# The time of a first build from a fresh copy of the tree (README.md, "Build time"): for
# each revision, `git archive` into a new folder, then
#   experiment  configure and build what `make experiment` builds (the convlab executable), as a
#               new user's first `make experiment` does after installing the packages;
#   tests       then the rest of what `make test` builds (the test binaries, every CUDA source);
# each with its wall time and the CPU time (user + system) of all its processes. Nothing is
# cached between revisions or kept afterwards (the folder is removed; ccache is turned off).
#
#   scripts/bench/build-time.sh [REV...]        (default: HEAD)
#   scripts/bench/build-time.sh cbec4e9 HEAD    (before and after a change)
#
# BUILD_TIME_TESTS=0 leaves out the second row (the test build takes several times longer).
# Run it on a quiet machine: `uptime`'s load average is printed with each build, and a build that
# shares its cores measures the sharing. JOBS (default nproc) is make's -j.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
revs=("$@")
((${#revs[@]})) || revs=(HEAD)
jobs=${JOBS:-$(nproc)}
export CCACHE_DISABLE=1
work=$(mktemp -d "${TMPDIR:-/tmp}/convlab-build-time.XXXXXX")
trap 'rm -rf "$work"' EXIT

# timed LABEL COMMAND...: one row, wall and CPU seconds (children's user + system).
timed() {
  local label=$1
  shift
  local t0 t1 before after
  before=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  t0=$(date +%s.%N)
  "$@" >"$work/log" 2>&1 || { tail -20 "$work/log"; exit 1; }
  t1=$(date +%s.%N)
  after=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  printf '| %s | %s | %.0f | %.0f | %s |\n' "$rev" "$label" "$(echo "$t1 - $t0" | bc)" \
    "$(echo "($after - $before) / $(getconf CLK_TCK)" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
}

echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), -j $jobs"
echo
echo "| revision | build | wall s | CPU s | load before |"
echo "|---|---|---|---|---|"
for rev in "${revs[@]}"; do
  tree=$work/$(git rev-parse --short "$rev")
  mkdir -p "$tree"
  git archive "$rev" | tar -x -C "$tree"
  timed experiment bash -c "cmake -S '$tree' -B '$tree/build' -DCMAKE_BUILD_TYPE=Release &&
    cmake --build '$tree/build' -j $jobs --target convlab"
  [[ "${BUILD_TIME_TESTS:-1}" == 0 ]] || timed tests cmake --build "$tree/build" -j "$jobs"
  rm -rf "$tree"
done

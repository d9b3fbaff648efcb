#!/usr/bin/env bash
# What running users' kernels apart costs per point and per kernel host (docs/own-kernels.md,
# "What is isolated, and how"), for each convlab executable named, so that two builds can be put
# side by side (one before the isolation, one after):
#
#   scripts/bench/kernel-isolation.sh [CONVLAB...] [-- ROUNDS]
#   scripts/bench/kernel-isolation.sh /path/to/old/convlab build/convlab -- 7
#
# Per point: POINTS tiny points (an 8..47 x 8 one-channel image, the 1x1 identity kernel, five
# borders, one call each) of a user's C kernel, against the same points of the built-in
# `sequential`; the difference of the two whole runs' wall times, over POINTS, is what the
# user-kernel path adds to a point outside its timing (the host's round trips, the image's sealed
# copy, preparing and releasing the point, stopping the host when convlab's own sequential runs).
# Per call: one point of 2020 calls against one of 20; the difference over 2000 is what one call
# of a user's kernel costs outside its own timing (the round trip to its host).
# Per host: eight implementations of one point each (the same source under eight names: eight
# hosts) against one implementation of eight points (one host); the difference over seven is
# what starting and ending one more host costs. Each figure is the median of ROUNDS runs (5);
# the kernel cache is filled before timing, so nothing is compiled while timed.
#
# Then, where convlab_kernel_host_costs stands beside an executable (`cmake --build build --target
# convlab_kernel_host_costs`), the host's own costs timed directly: a host's start and end, a
# request's round trip, and a stop and continue (bench/kernel_host_costs.cpp).
#
# Prints the machine and its load first, then one line per executable and figure. A note, not a test: the numbers depend on the machine
# and on what else it is doing.
set -euo pipefail

executables=()
rounds=5
while (($#)); do
  if [[ $1 == -- ]]; then
    rounds=${2:-5}
    break
  fi
  executables+=("$(realpath "$1")")
  shift
done
((${#executables[@]})) || executables=("$(realpath build/convlab)")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat >kernel.c <<'EOF'
#include <convlab/kernel.h>
CONVLAB_CONTRACT(1);
CONVLAB_CPU_ENTRY(const convlab_problem* p) {
  const long long values = (long long)p->width * p->height * p->channels;
  for (long long i = 0; i < values; ++i) convlab_store(p->out, i, p->output, p->weights[0] * p->in[i]);
  return 0;
}
EOF

# config NAME IMAGE_SIZES BORDERS CALLS IMPLEMENTATION_LINES...
config() {
  local name=$1 sizes=$2 borders=$3 calls=$4
  shift 4
  {
    echo "name: $name"
    echo "images: [{type: generated, sizes: [$sizes], channels: 1, seed: 1}]"
    echo "kernels: [{type: custom, name: identity, matrix: [[1]]}]"
    echo "border: [$borders]"
    echo "output: u8"
    echo "implementations:"
    printf '  %s\n' "$@"
    echo "measure: {warmup: 0, min_reps: $calls, max_reps: $calls, max_seconds: 1000}"
  } >"$name.yaml"
}

sizes40=$(seq -s, 8 47 | sed 's/\([0-9]*\)/[\1, 8]/g')
borders5="zero, replicate, reflect, symmetric, wrap"
points=$((40 * 5))
config user "$sizes40" "$borders5" 1 "mine: {source: kernel.c}"
config builtin "$sizes40" "$borders5" 1 "sequential: {}"
config many_calls "[8, 8]" replicate 2020 "mine: {source: kernel.c}"
config few_calls "[8, 8]" replicate 20 "mine: {source: kernel.c}"
hosts=()
for i in 1 2 3 4 5 6 7 8; do hosts+=("mine$i: {source: kernel.c}"); done
config eight_hosts "[8, 8]" replicate 1 "${hosts[@]}"
config one_host "$(seq -s, 8 15 | sed 's/\([0-9]*\)/[\1, 8]/g')" replicate 1 "mine: {source: kernel.c}"

# The median wall time, in seconds, of `rounds` runs of CONFIG from an empty results folder.
median_run() {
  local convlab=$1 name=$2 times=()
  for ((r = 0; r < rounds; ++r)); do
    rm -rf "outputs/$name"
    local start=$EPOCHREALTIME
    "$convlab" run "$name.yaml" --quiet >/dev/null 2>&1 || {
      echo "kernel-isolation: $convlab run $name.yaml failed" >&2
      exit 1
    }
    times+=("$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{print b - a}')")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{d[++n] = $1} END {print n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2}'
}

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for convlab in "${executables[@]}"; do
  export CONVLAB_KERNEL_CACHE="$work/cache-$(echo "$convlab" | sha256sum | cut -c1-12)"
  for name in user builtin many_calls few_calls eight_hosts one_host; do
    "$convlab" validate "$name.yaml" >/dev/null 2>&1 || {
      echo "kernel-isolation: $convlab validate $name.yaml failed" >&2
      exit 1
    }
  done
  user=$(median_run "$convlab" user)
  builtin=$(median_run "$convlab" builtin)
  many=$(median_run "$convlab" many_calls)
  few=$(median_run "$convlab" few_calls)
  eight=$(median_run "$convlab" eight_hosts)
  one=$(median_run "$convlab" one_host)
  awk -v c="$convlab" -v u="$user" -v b="$builtin" -v p="$points" -v e="$eight" -v o="$one" -v m="$many" -v f="$few" \
    -v r="$rounds" 'BEGIN {
      printf "%s: per point: user kernel %.3f ms, sequential %.3f ms, the user path adds %.3f ms (%d points, median of %d runs)\n", c, u / p * 1000, b / p * 1000, (u - b) / p * 1000, p, r
      printf "%s: per call: 2020 calls %.1f ms, 20 calls %.1f ms, one call costs %.1f us\n", c, m * 1000, f * 1000, (m - f) / 2000 * 1e6
      printf "%s: per host: 8 hosts of 1 point %.1f ms, 1 host of 8 points %.1f ms, one more host costs %.2f ms\n", c, e * 1000, o * 1000, (e - o) / 7 * 1000
    }'
  costs="$(dirname "$convlab")/convlab_kernel_host_costs"
  if [[ -x $costs ]]; then
    "$costs" "$convlab" $((rounds * 20)) | sed "s|^|$convlab: |"
  fi
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end"

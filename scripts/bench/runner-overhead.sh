#!/usr/bin/env bash
# The runner's own time per point, outside the timed regions: a config of POINTS tiny points (an
# 8x8 one-channel image, the 1x1 identity kernel, openmp on one thread swept over `chunk`, one
# repetition each) is run with --verbose, every progress line is stamped with bash's
# $EPOCHREALTIME as it arrives, and the time between consecutive points, less the point's timed
# repetition, is summarised over a window of 100 points ending at each checkpoint, and over the
# whole run (points 2..POINTS). Medians resist the noise of a shared machine; means show the tail.
#
#   scripts/bench/runner-overhead.sh [CONVLAB] [POINTS] [CHECKPOINTS...]
#   scripts/bench/runner-overhead.sh build/convlab 20000 1000 20000
#
# Prints one line per checkpoint and one for the whole run: median and mean milliseconds per point.
# The final fold of the journal into results.json and the summary table come after the last point
# and are not counted; "convlab run: ... s" is the whole wall time. A note, not a test: the
# numbers depend on the machine and on what else it is doing.
set -euo pipefail

convlab=$(realpath "${1:-build/convlab}")
points=${2:-20000}
shift $(($# > 2 ? 2 : $#))
checkpoints=("$@")
((${#checkpoints[@]})) || checkpoints=(1000 "$points")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "name: overhead"
  echo "images:"
  echo "  - {type: generated, sizes: [8], channels: [1], seed: 1}"
  echo "kernels:"
  echo "  - {type: custom, name: identity, matrix: [[1]]}"
  echo "border: replicate"
  echo "output: u8"
  echo "implementations:"
  printf '  openmp: {threads: [1], chunk: [%s]}\n' "$(seq -s, 0 $((points - 1)))"
  echo "measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}"
} >"$work/overhead.yaml"

cd "$work"
start=$EPOCHREALTIME
"$convlab" run overhead.yaml --verbose 2>&1 >/dev/null |
  while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >stamped.log
finish=$EPOCHREALTIME
echo "convlab run: $points points in $(awk -v a="$start" -v b="$finish" 'BEGIN{printf "%.1f", b - a}') s"

# The milliseconds outside the timed region of points FIRST..LAST, one a line: lines
# "<stamp> [i/N] ...: median M ms, ..." say that point i ended at <stamp> and was timed for M ms.
gaps() {
  awk -v first="$1" -v last="$2" '
    match($0, /^[0-9.]+ \[[0-9]+\//) {
      split(substr($2, 2), at, "/"); i = at[1]
      median = 0
      if (match($0, /median [0-9.e+-]+ ms/)) median = substr($0, RSTART + 7, RLENGTH - 10) / 1000
      stamp[i] = $1; timed[i] = median
    }
    END {
      for (i = first; i <= last; ++i)
        if ((i in stamp) && ((i - 1) in stamp)) printf "%.6f\n", (stamp[i] - stamp[i - 1] - timed[i]) * 1000
    }' stamped.log
}

summarise() {
  local first=$1 last=$2
  gaps "$first" "$last" | sort -g | awk -v first="$first" -v last="$last" '
    { d[++n] = $1; sum += $1 }
    END {
      if (n == 0) { print "points " first "-" last ": not reached"; exit }
      median = n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2
      printf "points %d-%d: median %.3f ms, mean %.3f ms per point outside the timed region (%d points)\n", first, last, median, sum / n, n
    }'
}

for checkpoint in "${checkpoints[@]}"; do summarise $((checkpoint > 100 ? checkpoint - 99 : 2)) "$checkpoint"; done
summarise 2 "$points"

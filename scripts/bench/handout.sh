#!/usr/bin/env bash
# The hand-out of `convlab run --devices` timed without a GPU (docs/scale-out.md, "Hand-out"):
# CONVLAB_TEST_DEVICE_COUNT=N pretend devices, each taking a CUDA point's multiply-adds at
# CONVLAB_TEST_DEVICE_GMACS (the process sleeps; the point is recorded as skipped), on a config of
# 30 problem groups whose work differs by 10x (images of 100^2 to 316^2 pixels, three borders, two
# launches of cuda_global each). For each device count, the queue (the default) and the split made
# before the run (CONVLAB_HAND_OUT=fixed) are run one after the other, with devices of one speed
# and with the last device at half the speed (which the cost model does not know, as it does not
# know how far its estimates are off on a real machine); each run prints every worker's problem
# groups, points, wall and busy seconds (run.phases; a worker of the queue waits idle at the end
# until the others are done), the workers' average busy time, and the command's wall time against
# that average. The goal: at most 1.1x with the queue.
#
#   scripts/bench/handout.sh [BUILD_DIR] [SECONDS] [DEVICES...]
#   scripts/bench/handout.sh build 40 2 4
#
# SECONDS: the pretend work of the whole config on one device (default 40); DEVICES: the device
# counts (default 2 4). Sleeping workers leave the CPUs to the others, so the numbers say what the
# hand-out does, not what a GPU would: a note, not a test. Also run first on one device, for the
# total.
set -euo pipefail
build=${1:-build}
seconds=${2:-40}
shift $(($# > 2 ? 2 : $#))
counts=("$@")
((${#counts[@]})) || counts=(2 4)
cmake --build "$build" --target convlab convlab_device_scaling -j 2 >/dev/null
convlab=$(realpath "$build/convlab")
scaling=$(realpath "$build/convlab_device_scaling")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/handout.yaml" <<'EOF'
name: handout
title: Problem groups of tenfold different work, for the hand-out of --devices
images:
  - {type: generated, sizes: [100, 141, 173, 200, 224, 245, 265, 283, 300, 316], channels: 1, seed: 1}
kernels:
  - {type: gaussian, size: [3]}
border: [replicate, reflect, zero]
implementations:
  cuda_global: {block: [[16, 16], [32, 8]]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
EOF
# The config's multiply-adds: 3 borders x 2 launches x 9 taps x the pixels of the ten images.
macs=$(awk 'BEGIN { s = 0; split("100 141 173 200 224 245 265 283 300 316", w, " ");
                    for (i in w) s += w[i] * w[i]; printf "%.0f", s * 3 * 2 * 9 }')
gmacs=$(awk -v m="$macs" -v s="$seconds" 'BEGIN { printf "%.9f", m / s / 1e9 }')
echo "config: 30 problem groups (60 points) of 10^4 to 10^5 pixels, $macs multiply-adds;"
echo "pretend devices at $gmacs GMAC/s: ${seconds} s of work on one device"
echo "machine: $(nproc) logical CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# rates DEVICES HALF: the pretend devices' rates, the last at half the speed when HALF is 1.
rates() {
  local list="" d
  for ((d = 0; d < $1; ++d)); do
    if (($2 == 1 && d == $1 - 1)); then
      list+=$(awk -v g="$gmacs" 'BEGIN { printf "%.9f", g / 2 }')
    else
      list+=$gmacs
    fi
    ((d == $1 - 1)) || list+=,
  done
  echo "$list"
}

# run NAME DEVICES HALF [ENV...]: one run into $work/NAME; prints its workers and wall time.
run() {
  local name=$1 devices=$2 half=$3
  shift 3
  local start end wall
  start=$(date +%s.%N)
  env CONVLAB_TEST_DEVICE_COUNT="$devices" CONVLAB_TEST_DEVICE_GMACS="$(rates "$devices" "$half")" "$@" \
    "$convlab" run "$work/handout.yaml" --out "$work/$name" --devices all --quiet --force \
    >"$work/$name.log" 2>&1 || { echo "$name: failed"; cat "$work/$name.log"; return 1; }
  end=$(date +%s.%N)
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  echo
  echo "## $name: $devices pretend devices ($(rates "$devices" "$half") GMAC/s), $wall s"
  echo
  if ((devices > 1)); then
    "$scaling" workers "$work/$name" "$wall"
  else
    echo "(one device: a plain run, no workers)"
  fi
}

run one-device 1 0
for half in 0 1; do
  for n in "${counts[@]}"; do
    suffix=$n
    ((half == 0)) || suffix+=-half
    run "queue-$suffix" "$n" "$half"
    run "fixed-$suffix" "$n" "$half" CONVLAB_HAND_OUT=fixed
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

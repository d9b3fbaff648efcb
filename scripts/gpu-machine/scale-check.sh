#!/usr/bin/env bash
# One GPU against all of them on a host with two (or four) GPUs, under the settings that decide how
# device workers scale (docs/scale-out.md, "Where a device worker's time goes"), in one short
# session. Each run is `convlab run CONFIG --devices 0|all --force --quiet --phases` into a folder
# of its own under OUT/runs; then OUT/summary.md gets the wall times, the ratio of one device to
# all, every worker's phase totals (run.phases), whether every point's verdict is the same as in
# the first run, and `convlab compare` of each pair (the medians of device 0 against both devices).
#
#   scripts/gpu-machine/scale-check.sh BUILD_DIR OUT [CONFIG]
#
# BUILD_DIR: a configured build (as tests/gpu/gpu_machine_check.sh makes it: cmake -S . -B build-gpu
# -DCONVLAB_STB_INCLUDE_DIR=$PWD/.stb -DCMAKE_CUDA_ARCHITECTURES=90, with PKG_CONFIG_PATH and
# LD_LIBRARY_PATH naming the carried libcmark); convlab and convlab_device_scaling are built in it
# when missing. CONFIG: configs/gpu_pair_quick.yaml by default (8 problems, 248 points; estimated
# at 67 s on one GPU of a 32-CPU host, 39 s on two). Run from the repository root.
#
# The runs, in this order (each named VARIANT-DEVICES; the variables switch the candidate fixes):
#   new-0, new-all        the defaults: workers on whole cores of their own (CONVLAB_WORKER_CPUS=
#                         cores), verification on every OpenMP thread
#   ahead-0, ahead-all    the same with CONVLAB_PREPARE_AHEAD=1: the next problem's image and
#                         reference made while the current problem's CUDA points are timed
#   legacy-0, legacy-all  as before: CONVLAB_WORKER_CPUS=legacy (slices of the one core OpenMP bound
#                         the first thread to), CONVLAB_VERIFY_THREADS=1; with --filter
#                         'kernel.size<=5' (the issue's 4 problems), since they are slow
#   shared-all            CONVLAB_WORKER_CPUS=shared CONVLAB_PREPARE_AHEAD=1: every worker on all
#                         CPUs
# Environment: SCALE_CHECK_RUNS (names to run, default all of the above in that order),
# SCALE_CHECK_BUDGET (seconds of runs in all, default 450: a run that would not fit is skipped and
# said so), SCALE_CHECK_LIMIT (seconds per run, default 240), SCALE_CHECK_PACK (default 1: the
# results folders, logs and host.txt go into OUT/scale-check.tgz, so that OUT holds two files, as
# few as the GPU machine sends back; 0 leaves them as they are).
# On the GPU machine: scripts/gpu-machine/session.sh CARRY build, then ... CARRY scale.
set -u
[[ $# -ge 2 && $# -le 3 ]] || { sed -n '2,32p' "$0"; exit 2; }
build=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
config=${3:-configs/gpu_pair_quick.yaml}
runs=${SCALE_CHECK_RUNS:-new-0 new-all ahead-0 ahead-all legacy-all legacy-0 shared-all}
budget=${SCALE_CHECK_BUDGET:-450}
limit=${SCALE_CHECK_LIMIT:-240}
convlab=$build/convlab
scaling=$build/convlab_device_scaling
mkdir -p "$out/runs" "$out/logs"

if [[ ! -x $convlab || ! -x $scaling ]]; then
  cmake --build "$build" -j"$(nproc)" --target convlab convlab_device_scaling >"$out/logs/build.txt" 2>&1 ||
    { echo "build failed: $out/logs/build.txt"; tail -20 "$out/logs/build.txt"; exit 1; }
fi

{
  echo "# host"; nproc; lscpu | grep -E "^(Model name|Socket|Core|Thread|NUMA)"
  echo; nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv
  echo; nvidia-smi topo -m 2>/dev/null
  for gpu in /sys/bus/pci/drivers/nvidia/0000:*; do
    [[ -e $gpu/numa_node ]] && echo "$(basename "$gpu") numa_node $(cat "$gpu/numa_node")"
  done
  echo; echo "# the plan's split"; "$scaling" plan "$config" --cpus "$(nproc)" 1 2 4
} >"$out/host.txt" 2>&1

# name -> the environment and arguments of that run.
settings() {
  case $1 in
    new-*) echo "" ;;
    ahead-*) echo "CONVLAB_PREPARE_AHEAD=1" ;;
    legacy-*) echo "CONVLAB_WORKER_CPUS=legacy CONVLAB_VERIFY_THREADS=1" ;;
    shared-*) echo "CONVLAB_WORKER_CPUS=shared CONVLAB_PREPARE_AHEAD=1" ;;
  esac
}
filter_of() { [[ $1 == legacy-* ]] && echo "kernel.size<=5"; }
devices_of() { [[ $1 == *-all ]] && echo all || echo 0; }

declare -A wall status
spent=0
for name in $runs; do
  # What it may take: the other run of its pair, else the defaults' run on as many devices, else
  # the limit.
  pair=${name%-*}-$([[ $name == *-all ]] && echo 0 || echo all)
  expect=${wall[$pair]:-${wall[new-${name##*-}]:-$limit}}
  expect=${expect%.*}
  if (( spent + expect > budget )); then
    echo "$name: skipped, $spent s spent of a budget of $budget s" | tee -a "$out/logs/skipped.txt"
    continue
  fi
  filter=$(filter_of "$name")
  args=(run "$config" --out "$out/runs/$name" --force --quiet --phases --devices "$(devices_of "$name")")
  [[ -n $filter ]] && args+=(--filter "$filter")
  start=$(date +%s.%N)
  # shellcheck disable=SC2046  # the settings are NAME=VALUE words
  env $(settings "$name") timeout "$limit" "$convlab" "${args[@]}" >"$out/logs/$name.txt" 2>&1
  status[$name]=$?
  wall[$name]=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  spent=$(awk -v a="$spent" -v b="${wall[$name]}" 'BEGIN { printf "%d", a + b }')
  printf '%s: exit %s, %.1f s (%s)\n' "$name" "${status[$name]}" "${wall[$name]}" "$(settings "$name")"
done

{
  echo "# scale check: $config, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${CONVLAB_SOURCE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
  echo
  echo "| run | devices | settings | filter | exit | wall s | one device / this |"
  echo "|---|---|---|---|---|---|---|"
  for name in $runs; do
    [[ -n ${wall[$name]:-} ]] || continue
    one=${wall[${name%-*}-0]:-}
    ratio=$([[ -n $one ]] && awk -v a="$one" -v b="${wall[$name]}" 'BEGIN { printf "%.2f", a / b }')
    echo "| $name | $(devices_of "$name") | $(settings "$name") | $(filter_of "$name") | ${status[$name]} | ${wall[$name]} | $ratio |"
  done
  echo
  echo "## phases (seconds; each run block of each folder: a plain run, or one row per worker)"
  done_runs=()
  for name in $runs; do [[ -n ${wall[$name]:-} ]] && done_runs+=("$out/runs/$name"); done
  "$scaling" measured "${done_runs[@]}"
  echo
  echo "## verdicts against the first run (points of both)"
  first=${done_runs[0]}
  for dir in "${done_runs[@]:1}"; do "$scaling" verdicts "$first" "$dir" | tail -3; done
  echo
  echo "## convlab compare: one device (A) against all (B), median kernel time"
  for name in $runs; do
    [[ $name == *-all && -n ${wall[$name]:-} && -n ${wall[${name%-*}-0]:-} ]] || continue
    "$convlab" compare "$out/runs/${name%-*}-0" "$out/runs/$name" \
      --json "$out/logs/compare-${name%-*}.json" >"$out/logs/compare-${name%-*}.txt" 2>&1
    echo "${name%-*}: $(grep -iE "geometric|slower|faster" "$out/logs/compare-${name%-*}.txt" | tail -3 | tr '\n' ' ')"
  done
} >"$out/summary.md" 2>&1
cat "$out/summary.md"
if [[ ${SCALE_CHECK_PACK:-1} == 1 ]]; then
  tar czf "$out/scale-check.tgz" -C "$out" runs logs host.txt && rm -rf "$out/runs" "$out/logs" "$out/host.txt"
fi

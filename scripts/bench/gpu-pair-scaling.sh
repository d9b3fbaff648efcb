#!/usr/bin/env bash
# One GPU against all of a host's GPUs on configs/gpu_pair.yaml (docs/scale-out.md, "Hand-out"), in
# one session of at most ten minutes with the build: builds convlab and convlab_device_scaling,
# then runs, one after the other, each into OUT/runs/NAME with --force --quiet --phases:
#
#   one         --devices 0                              (one GPU: the baseline)
#   all         --devices all                            (the hand-out, the default)
#   ahead-all   --devices all, CONVLAB_PREPARE_AHEAD=1   (the next problem's image and reference
#                                                         made while the current one is timed)
#   ahead-one   --devices 0,   CONVLAB_PREPARE_AHEAD=1
#   fixed-all   --devices all, CONVLAB_HAND_OUT=fixed    (the split before the run, as before)
#
# A run whose expected time (its counterpart's, else the one-GPU run's) would take the session past
# SCALE_LIMIT seconds since the script started (default 540) is skipped and said so. Then prints,
# and writes to OUT/summary.md: the wall times and one GPU / this; each --devices all run's workers
# (problem groups, points, wall and busy seconds) and its wall time against their average; what
# each worker paid per image (making it, the first prepare, the later ones); the ETA replayed on
# each run (the estimate before it and elapsed + ETA during it against its time); and whether every
# point's status and verdict in each run is the one-GPU run's. The runs' folders and logs go into
# OUT/scale.tgz, so that OUT holds few files.
#
#   OUT=DIR scripts/bench/gpu-pair-scaling.sh CARRY [CONFIG]
#
# CARRY: a folder with stb/ (stb headers) and cmark/ (scripts/gpu-machine/cmark-carry.sh), which the
# GPU machine lacks. CONFIG: configs/gpu_pair.yaml by default (12 problems, 372 points, 96.5 s on
# one H200 at 474074c). Run from the repository root; the build goes to $CONVLAB_GPU_BUILD
# (default build-gpu). Environment: SCALE_RUNS (the names to run, in order), SCALE_LIMIT,
# SCALE_BUILD=0 (use the build as it is, when it has both programs).
set -u
[[ $# -ge 1 && $# -le 2 ]] || { sed -n '2,30p' "$0"; exit 2; }
started=$(date +%s)
carry=$(cd "$1" && pwd)
config=${2:-configs/gpu_pair.yaml}
out=$(mkdir -p "${OUT:-gpu-pair-scaling}" && cd "${OUT:-gpu-pair-scaling}" && pwd)
build=${CONVLAB_GPU_BUILD:-build-gpu}
runs=${SCALE_RUNS:-one all ahead-all ahead-one fixed-all}
limit=${SCALE_LIMIT:-540}
mkdir -p "$out/runs" "$out/logs"
export PATH=/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH="$carry/cmark/usr/lib/x86_64-linux-gnu/pkgconfig"
export LD_LIBRARY_PATH="$carry/cmark/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

if [[ ${SCALE_BUILD:-1} == 0 && -x $build/convlab && -x $build/convlab_device_scaling ]]; then
  : # as it is
elif ! { cmake -S . -B "$build" -DCONVLAB_STB_INCLUDE_DIR="$carry" -DCMAKE_CUDA_ARCHITECTURES=90 \
         -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$build" -j"$(nproc)" --target convlab convlab_device_scaling; } \
       >"$out/logs/build.txt" 2>&1; then
  echo "build failed: $out/logs/build.txt"
  grep -E "error|Error" "$out/logs/build.txt" | head -20
  exit 1
fi
convlab=$build/convlab
scaling=$build/convlab_device_scaling
echo "built in $(($(date +%s) - started)) s"

{
  echo "# host"; nproc; lscpu | grep -E "^(Model name|Socket|Core|Thread|NUMA)"
  echo; nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv
  echo; nvidia-smi topo -m 2>/dev/null
  echo; echo "# the cost model's forecast"; "$scaling" plan "$config" --cpus "$(nproc)" 1 2 4
} >"$out/logs/host.txt" 2>&1

settings() {
  case $1 in
    ahead-*) echo "CONVLAB_PREPARE_AHEAD=1" ;;
    fixed-*) echo "CONVLAB_HAND_OUT=fixed" ;;
    *) echo "" ;;
  esac
}
devices_of() { [[ $1 == *all ]] && echo all || echo 0; }
counterpart() { [[ $1 == *all ]] && echo "${1%all}one" || echo "${1%one}all"; }

declare -A wall status
done_runs=()
for name in $runs; do
  expect=${wall[$(counterpart "$name")]:-${wall[one]:-120}}
  expect=${expect%.*}
  if (($(date +%s) - started + expect > limit)); then
    echo "$name: skipped, the session would pass $limit s" | tee -a "$out/logs/skipped.txt"
    continue
  fi
  start=$(date +%s.%N)
  # shellcheck disable=SC2046  # the settings are NAME=VALUE words
  env $(settings "$name") timeout 300 "$convlab" run "$config" --out "$out/runs/$name" --force \
    --quiet --phases --devices "$(devices_of "$name")" >"$out/logs/$name.txt" 2>&1
  status[$name]=$?
  wall[$name]=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  done_runs+=("$name")
  printf '%s: exit %s, %s s (%s)\n' "$name" "${status[$name]}" "${wall[$name]}" "$(settings "$name")"
done

{
  echo "# $config: one GPU against all, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${CONVLAB_SOURCE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
  echo
  echo "$(nproc) logical CPUs; $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  echo
  echo "| run | devices | settings | exit | wall s | one GPU / this |"
  echo "|---|---|---|---|---|---|"
  for name in "${done_runs[@]}"; do
    base=${wall[$( [[ $name == ahead-all ]] && echo ahead-one || echo one)]:-${wall[one]:-}}
    ratio=$([[ -n $base ]] && awk -v a="$base" -v b="${wall[$name]}" 'BEGIN { printf "%.2f", a / b }')
    echo "| $name | $(devices_of "$name") | $(settings "$name") | ${status[$name]} | ${wall[$name]} | $ratio |"
  done
  for name in "${done_runs[@]}"; do
    [[ $name == *all ]] || continue
    echo
    echo "## $name: the workers"
    echo
    "$scaling" workers "$out/runs/$name" "${wall[$name]}"
  done
  echo
  echo "## what each worker paid per image"
  echo
  dirs=()
  for name in "${done_runs[@]}"; do dirs+=("$out/runs/$name"); done
  "$scaling" setup "${dirs[@]}"
  echo
  echo "## the ETA replayed (estimate before the run, elapsed + ETA during it, against its time)"
  echo
  "$scaling" eta "${dirs[@]}"
  echo
  echo "## verdicts against the one-GPU run"
  for name in "${done_runs[@]}"; do
    [[ $name == one ]] && continue
    echo "$name: $("$scaling" verdicts "$out/runs/one" "$out/runs/$name" | tail -1)"
  done
} >"$out/summary.md" 2>&1
cat "$out/summary.md"
tar czf "$out/scale.tgz" -C "$out" runs logs && rm -rf "$out/runs" "$out/logs"
echo "session: $(($(date +%s) - started)) s"

#!/usr/bin/env bash
# Measures the autotuning literature's convolution space whole on the GPU machine
# (docs/search.md, "The convolution space of the literature"): configs/tuning_convolution.yaml,
# 6768 variants of examples/kernels/tuning_convolution.cu, each compiled by NVRTC, verified and
# timed, in parts that fit a call each. From the repository root:
#
#   OUT=DIR [CARRY=DIR] scripts/bench/tuning-space-gpu.sh [PART/PARTS]
#
# PART/PARTS: 1/1 (the default: the whole space), K/2 (read_only 0 and 1: 3384 variants each),
# K/4 (use_padding and read_only 00, 01, 10, 11: 1692 each) or K/8 (each quarter split at
# tile_size_y 1..3 and 4..8: 864 and 828 variants). Writes $OUT/outputs/tuning_convolution/
# results.json: when outputs/tuning_convolution/results.json is in the tree (the parts measured
# before, copied back from $OUT), the run adds the part to a copy of it; the parts' records join
# in one file, which `convlab search outputs/tuning_convolution` replays once every part is in.
# Once the space is whole the file is also written compressed, results.json.gz (about 5 MB where
# the JSON is 36 MB): the form committed as outputs/tuning_convolution, which convlab reads as it
# reads results.json (a run does not add to it; the parts above resume from results.json only).
# Also $OUT/tuning-space.txt: the build, the machine, the run's end, the records the file holds
# and, once the space is whole, the replay's table.
#
# Builds convlab (Release, CUDA for sm_90) in $CONVLAB_GPU_BUILD (default build-gpu) unless
# $CONVLAB names an executable; CARRY, as for scripts/gpu-machine/session.sh, is a folder holding
# stb/ and cmark/ for a machine without those Debian packages. The run compiles the first variant,
# then the others ahead of their measurements on every core but one, each measured as soon as its
# compile is done; a part stops cleanly (its records kept) at TUNING_SPACE_LIMIT seconds (default
# 420), and the same part run again measures only what is missing.
#
# Measured on an H200 host of 16 cores: the build takes 108-140 s; with the compiles on the cores
# the measuring thread leaves, the run measures about 7 variants a second (334 in 50 s; NVRTC
# 0.26-1.6 s a variant, 15 at a time, a point 0.023 s of measuring): the whole space, 1/1, is
# about 16 minutes, which two calls in a row on the same (warm) machine hold, the second
# resuming the first; eighths fit a call each with the build.
set -euo pipefail
ROOT=$(pwd)
OUT=${OUT:?set OUT to the folder whose files come back}
part=${1:-1/1}
limit=${TUNING_SPACE_LIMIT:-420}
[[ "$part" =~ ^([1-8])/([1248])$ ]] || { echo "tuning-space-gpu.sh: PART/PARTS is 1/1, K/2, K/4 or K/8, not '$part'" >&2; exit 2; }
index=${BASH_REMATCH[1]} parts=${BASH_REMATCH[2]}
((index <= parts)) || { echo "tuning-space-gpu.sh: part $index of $parts" >&2; exit 2; }
case $parts in
  1) filter=() ;;
  2) filter=(--filter "params.read_only=$((index - 1))") ;;
  4) filter=(--filter "params.use_padding=$(((index - 1) / 2)),params.read_only=$(((index - 1) % 2))") ;;
  8)
    quarter=$(((index - 1) / 2))
    if (((index - 1) % 2 == 0)); then rows='params.tile_size_y<=3'; else rows='params.tile_size_y>=4'; fi
    filter=(--filter "params.use_padding=$((quarter / 2)),params.read_only=$((quarter % 2)),$rows")
    ;;
esac

mkdir -p "$OUT"
log=$OUT/tuning-space.txt
: >"$log"
export PATH=/usr/local/cuda/bin:$PATH
if [[ -n "${CARRY:-}" ]]; then
  export PKG_CONFIG_PATH="$CARRY/cmark/usr/lib/x86_64-linux-gnu/pkgconfig"
  export LD_LIBRARY_PATH="$CARRY/cmark/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
convlab=${CONVLAB:-}
if [[ -z "$convlab" ]]; then
  build=${CONVLAB_GPU_BUILD:-$ROOT/build-gpu}
  start=$(date +%s)
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    ${CARRY:+-DCONVLAB_STB_INCLUDE_DIR="$CARRY"} >"$OUT/tuning-build.txt" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target convlab >>"$OUT/tuning-build.txt" 2>&1 ||
    { tail -30 "$OUT/tuning-build.txt"; exit 1; }
  echo "build: $(($(date +%s) - start)) s" | tee -a "$log"
  convlab=$build/convlab
fi

{ date -u; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nproc; } >>"$log" 2>&1
results=$OUT/outputs/tuning_convolution
mkdir -p "$results"
if [[ -f outputs/tuning_convolution/results.json ]]; then
  cp outputs/tuning_convolution/results.json "$results/"
  echo "adding part $part to outputs/tuning_convolution/results.json of the tree" | tee -a "$log"
fi
start=$(date +%s)
status=0
timeout -k 30 --signal=INT "$limit" "$convlab" run configs/tuning_convolution.yaml \
  "${filter[@]}" --out "$results" >"$OUT/tuning-run.txt" 2>&1 || status=$?
echo "part $part: run exit $status in $(($(date +%s) - start)) s" | tee -a "$log"
grep -E "your kernels|kept .* ran|interrupted|error" "$OUT/tuning-run.txt" | tail -5 | tee -a "$log"
records=$(grep -o '"key"' "$results/results.json" | wc -l)
echo "records in $results/results.json: $records of 6768" | tee -a "$log"
if ((records >= 6768)); then
  "$convlab" search "$results" >"$OUT/tuning-replay.md" 2>&1 && cat "$OUT/tuning-replay.md" >>"$log"
  gzip -9 -n -c "$results/results.json" >"$results/results.json.gz"
fi
exit "$status"

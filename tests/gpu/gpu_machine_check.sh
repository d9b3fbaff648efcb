#!/usr/bin/env bash
# Builds convlab on the GPU machine and runs, each with its own time limit and log under $OUT (or
# ./gpu-check-logs): the GPU tests, the benchmark driver, and compute-sanitizer memcheck, initcheck
# and racecheck (reduced grid). Usage, from the repository root:
#   tests/gpu/gpu_machine_check.sh [stb-include-dir]
# libcmark must be found (pkg-config): on a machine without libcmark-dev, carry it with
# scripts/gpu-machine/cmark-carry.sh and set PKG_CONFIG_PATH and LD_LIBRARY_PATH as its header says.
# Environment: CONVLAB_GPU_BUILD, the build folder (default ./build-gpu; one outside the tree
# survives a fresh copy of the tree); CONVLAB_GPU_PHASES, which of "tests bench sanitizers
# sanitizers-all" to run (default "tests bench sanitizers": the sanitizers on the rungs of
# k8/k9 and the large-K test; sanitizers-all on every rung's grid).
set -u
ROOT=$(pwd)
LOGS=${OUT:-$ROOT/gpu-check-logs}
mkdir -p "$LOGS"
STB=${1:-$ROOT/.stb}
BUILD=${CONVLAB_GPU_BUILD:-$ROOT/build-gpu}
PHASES=${CONVLAB_GPU_PHASES:-tests bench sanitizers}
export PATH=/usr/local/cuda/bin:$PATH
has() { [[ " $PHASES " == *" $1 "* ]]; }

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv
  nvcc --version | tail -2
} >"$LOGS/device.txt" 2>&1

start=$(date +%s)
if ! { cmake -S . -B "$BUILD" -DCONVLAB_STB_INCLUDE_DIR="$STB" -DCMAKE_CUDA_ARCHITECTURES=90 &&
       cmake --build "$BUILD" -j"$(nproc)" --target convlab_gpu_tests convlab; } >"$LOGS/build.txt" 2>&1; then
  echo "BUILD FAILED"; grep -E "error|Error" "$LOGS/build.txt" | head -30; tail -20 "$LOGS/build.txt"; exit 1
fi
echo "build: $(( $(date +%s) - start )) s; NPP: $(grep -o 'NPP [a-z ]*found[^,]*' "$LOGS/build.txt" | head -1)"

TESTS=$BUILD/tests/gpu/convlab_gpu_tests
run() {  # name limit command...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" >"$LOGS/$name.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc, $(( $(date +%s) - t0 )) s"
}
# The rungs of k8_streaming.cu and k9_tensor_separable.cu, and the large-K test of every rung.
NEW='Params/CudaStreaming.*:Params/CudaTensorSeparable.*:CudaStreamingSkips.*:CudaLarge.*'
if has tests; then
  run tests 300 "$TESTS"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|INFO|FAILED" "$LOGS/tests.txt" | tail -60
fi
if has bench; then
  CONVLAB_GPU_BENCH=1 run bench 200 "$TESTS" --gtest_filter='CudaBenchmark.*'
  sed -n '/implementation/,/OK \]\|FAILED \]/p' "$LOGS/bench.txt" | grep -v skipped
fi
sanitize() {  # log tool limit filter
  local log=$1 tool=$2 limit=$3 filter=$4 extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check no)
  CONVLAB_GPU_TEST_QUICK=1 run "$log" "$limit" compute-sanitizer --tool "$tool" "${extra[@]}" \
    --error-exitcode 9 "$TESTS" --gtest_filter="$filter"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|tests? ran" "$LOGS/$log.txt" | tail -5
}
if has sanitizers; then
  sanitize memcheck memcheck 200 "$NEW"
  sanitize initcheck initcheck 200 "$NEW"
  sanitize racecheck racecheck 150 "$NEW"
fi
if has sanitizers-all; then
  sanitize memcheck-all memcheck 200 'AllImplementations/*:CudaLarge.*'
  sanitize racecheck-all racecheck 120 'AllImplementations/*cuda_s*'
fi

#!/usr/bin/env bash
# Builds convlab on the GPU machine and runs, each with its own time limit and log under $OUT (or
# ./gpu-check-logs): the GPU tests, the benchmark driver, and the CUDA implementations under
# compute-sanitizer memcheck and racecheck (reduced grid). Usage, from the repository root:
#   tests/gpu/gpu_machine_check.sh [stb-include-dir]
set -u
ROOT=$(pwd)
LOGS=${OUT:-$ROOT/gpu-check-logs}
mkdir -p "$LOGS"
STB=${1:-$ROOT/.stb}
BUILD=$ROOT/build-gpu
export PATH=/usr/local/cuda/bin:$PATH

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv
  nvcc --version | tail -2
} >"$LOGS/device.txt" 2>&1

start=$(date +%s)
if ! { cmake -S . -B "$BUILD" -DCONVLAB_STB_INCLUDE_DIR="$STB" -DCMAKE_CUDA_ARCHITECTURES=90 &&
       cmake --build "$BUILD" -j"$(nproc)" --target convlab_gpu_tests; } >"$LOGS/build.txt" 2>&1; then
  echo "BUILD FAILED"; tail -40 "$LOGS/build.txt"; exit 1
fi
cmake --build "$BUILD" -j"$(nproc)" --target convlab >>"$LOGS/build.txt" 2>&1 || echo "convlab executable did not build (see build.txt)"
echo "build: $(( $(date +%s) - start )) s; NPP: $(grep -o 'NPP [a-z ]*found[^,]*' "$LOGS/build.txt" | head -1)"

TESTS=$BUILD/tests/gpu/convlab_gpu_tests
run() {  # name limit command...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" >"$LOGS/$name.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc, $(( $(date +%s) - t0 )) s"
}
run tests 150 "$TESTS"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|INFO" "$LOGS/tests.txt" | tail -40
CONVLAB_GPU_BENCH=1 run bench 100 "$TESTS" --gtest_filter='CudaBenchmark.*'
sed -n '/implementation/,/OK \]\|FAILED \]/p' "$LOGS/bench.txt"
CONVLAB_GPU_TEST_QUICK=1 run memcheck 150 compute-sanitizer --tool memcheck --leak-check no \
  --error-exitcode 9 "$TESTS" --gtest_filter='AllImplementations/*:CudaLarge.*'
tail -4 "$LOGS/memcheck.txt"
CONVLAB_GPU_TEST_QUICK=1 run racecheck 90 compute-sanitizer --tool racecheck --error-exitcode 9 \
  "$TESTS" --gtest_filter='AllImplementations/*cuda_s*'
tail -4 "$LOGS/racecheck.txt"

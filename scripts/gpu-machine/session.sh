#!/usr/bin/env bash
# Steps of a session on the GPU machine, each with its own time limit and its log under $OUT, so
# that a lease of a few minutes builds once and runs what is asked. From the repository root:
#
#   scripts/gpu-machine/session.sh CARRY STEP...
#
# A step written STEP@N runs on CUDA device N alone (CUDA_VISIBLE_DEVICES=N); steps joined by '+'
# run at the same time (e.g. "tests@1+grid@0" on a host with two GPUs).
# CARRY is a folder holding stb/ (stb headers) and cmark/ (scripts/gpu-machine/cmark-carry.sh),
# copied to the machine beside the tree. Steps, in the order given:
#   build      configure and build convlab and the GPU tests in $CONVLAB_GPU_BUILD (build-gpu)
#   tests      the whole GPU suite
#   own        the own-kernel GPU tests (compute-sanitizer into the kernel host among them)
#   own-fault  only the own-kernel test of faulting, trapping, hanging and wrong kernels
#   memcheck   compute-sanitizer memcheck over every CUDA example of configs/own_kernels.yaml
#   overhead   configs/own_kernels_overhead_{gpu,cpu}.yaml, their results and show --best
#              (overhead-gpu, overhead-cpu: one of them)
#   grid       configs/search_grid.yaml, its results and the strategies replayed on it
#   examples   configs/own_kernels.yaml, its results and show --best
#   isolation  what running users' kernels apart costs: scripts/bench/kernel-isolation.sh (per
#              point, per call, per host, on this host's CPU) and scripts/gpu-machine/
#              kernel-host-contexts.sh (the device memory of each kernel host's CUDA context)
#   scale      scripts/gpu-machine/scale-check.sh: one GPU against all of them under each setting
#              of the device workers (about 8 minutes; $OUT/scale/summary.md and scale-check.tgz)
# Results are written to outputs/<name>/ as usual and copied to $OUT (results-<name>.json).
# CONVLAB_SOURCE_COMMIT names the commit measured in the results' run blocks.
set -u
ROOT=$(pwd)
OUT=${OUT:-$ROOT/gpu-session}
mkdir -p "$OUT"
[[ $# -ge 2 ]] || { echo "usage: $0 CARRY STEP..." >&2; exit 2; }
CARRY=$(cd "$1" && pwd)
shift
BUILD=${CONVLAB_GPU_BUILD:-$ROOT/build-gpu}
export PATH=/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH="$CARRY/cmark/usr/lib/x86_64-linux-gnu/pkgconfig"
export LD_LIBRARY_PATH="$CARRY/cmark/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CONVLAB=$BUILD/convlab
TESTS=$BUILD/tests/gpu/convlab_gpu_tests
SUMMARY=$OUT/summary.txt

step() {  # name limit command...
  local name=$1 limit=$2
  shift 2
  local t0
  t0=$(date +%s)
  timeout -k 10 "$limit" "$@" >"$OUT/$name.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc, $(($(date +%s) - t0)) s" | tee -a "$SUMMARY"
  return $rc
}

run_config() {  # name config [run options...]; CONVLAB_RUN_LIMIT seconds (default 400)
  local name=$1 config=$2
  shift 2
  step "run-$name" "${CONVLAB_RUN_LIMIT:-400}" "$CONVLAB" run "$config" --force "$@"
  tail -5 "$OUT/run-$name.txt" >>"$SUMMARY"
  "$CONVLAB" show "outputs/$name" --best >"$OUT/best-$name.txt" 2>&1
  cp "outputs/$name/results.json" "$OUT/results-$name.json"
}

{
  date -u
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
  nproc
} >>"$SUMMARY" 2>&1

run_step() {  # one step, in this shell
  local what=$1
  case "$what" in
    build)
      step build 480 bash -c "cmake -S . -B '$BUILD' -DCONVLAB_STB_INCLUDE_DIR='$CARRY' \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        cmake --build '$BUILD' -j$(nproc) --target convlab convlab_gpu_tests convlab_device_scaling" ||
        { tail -30 "$OUT/build.txt"; exit 1; }
      grep -E "NPP|NVRTC" "$OUT/build.txt" | head -3 >>"$SUMMARY"
      ;;
    tests)
      step tests 280 "$TESTS"
      grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|FAILED" "$OUT/tests.txt" | tail -20 >>"$SUMMARY"
      ;;
    own)
      step own 300 "$TESTS" --gtest_filter='OwnKernelsCuda.*'
      grep -E "^\[ +(OK|FAILED|SKIPPED) \]|tests? ran" "$OUT/own.txt" >>"$SUMMARY"
      ;;
    own-fault)
      step own-fault 120 "$TESTS" --gtest_filter='OwnKernelsCuda.AFaulting*'
      grep -E "^\[ +(OK|FAILED|SKIPPED) \]|tests? ran" "$OUT/own-fault.txt" >>"$SUMMARY"
      ;;
    memcheck)
      step memcheck 300 compute-sanitizer --tool memcheck --target-processes all --error-exitcode 9 \
        "$CONVLAB" run configs/own_kernels.yaml --force --quiet --out "$OUT/memcheck-run" \
        --filter 'family=cuda,image.width<2000'
      grep -E "ERROR SUMMARY|kept|failed" "$OUT/memcheck.txt" | tail -5 >>"$SUMMARY"
      rm -rf "$OUT/memcheck-run"
      ;;
    overhead)
      run_config own_kernels_overhead_gpu configs/own_kernels_overhead_gpu.yaml
      run_config own_kernels_overhead_cpu configs/own_kernels_overhead_cpu.yaml
      ;;
    overhead-gpu)
      run_config own_kernels_overhead_gpu configs/own_kernels_overhead_gpu.yaml
      ;;
    overhead-cpu)  # CPU timings: run it when nothing else runs on the host
      run_config own_kernels_overhead_cpu configs/own_kernels_overhead_cpu.yaml
      ;;
    grid)
      # Variants compiled beforehand (NVRTC needs no GPU) come in the carry's kernel cache.
      [[ -d "$CARRY/kernel-cache" ]] && export CONVLAB_KERNEL_CACHE="$CARRY/kernel-cache"
      run_config search_grid configs/search_grid.yaml
      "$CONVLAB" search outputs/search_grid --implementation tunable --seeds 20 \
        >"$OUT/replay-search_grid.txt" 2>&1
      ;;
    examples)
      run_config own_kernels configs/own_kernels.yaml
      ;;
    isolation)
      step isolation 400 bash -c "cmake --build '$BUILD' -j$(nproc) --target convlab_kernel_host_costs \
        >/dev/null && scripts/bench/kernel-isolation.sh '$CONVLAB' -- 7 &&
        scripts/gpu-machine/kernel-host-contexts.sh '$CONVLAB' 6"
      cat "$OUT/isolation.txt" >>"$SUMMARY"
      ;;
    scale)
      step scale 570 scripts/gpu-machine/scale-check.sh "$BUILD" "$OUT/scale"
      sed -n '3,12p' "$OUT/scale/summary.md" >>"$SUMMARY"
      ;;
    *)
      echo "unknown step $what" >&2
      return 2
      ;;
  esac
}

for group in "$@"; do
  IFS='+' read -r -a parts <<<"$group"
  for part in "${parts[@]}"; do
    name=${part%@*}
    if [[ "$part" == *@* ]]; then
      (export CUDA_VISIBLE_DEVICES=${part##*@}; run_step "$name") &
    else
      run_step "$name" &
    fi
    [[ ${#parts[@]} -gt 1 ]] || wait
  done
  wait
  [[ "$group" == build && ! -x "$CONVLAB" ]] && exit 1
done
cat "$SUMMARY"
# At most eight files come back from the machine: the logs travel as one archive.
(cd "$OUT" && tar czf logs.tgz --exclude summary.txt ./*.txt && find . -maxdepth 1 -name '*.txt' ! -name summary.txt -delete)

#!/usr/bin/env bash
# Nsight Compute on every CUDA rung and NPP at K = 3 and K = 21 (RGB 8192x8192 noise, Gaussian,
# replicate, u8; each rung with its best parameters of configs/npp_peer.yaml), one profiled run of
# the benchmark driver per rung and K. Sections: SpeedOfLight (DRAM and SM throughput),
# SchedulerStats (issue slots), WarpStateStats and the stall reasons per issued instruction,
# Occupancy. Clocks are left as the machine has them (--clock-control none). Writes ncu-<rung>-k<K>.csv under $OUT (or
# ./gpu-profile), from which the table of docs/cuda.md is read.
# Usage, from the repository root: tests/gpu/gpu_profile.sh BUILD_DIR [K...]
# PROFILE_RUNGS, when set, replaces the list below: entries 'rung|params-json' separated by spaces,
# e.g. PROFILE_RUNGS='cuda_streaming|{"rows":32,"warps":4} npp|{}'.
set -u
BUILD=$1
shift
KS=${*:-3 21}
LOGS=${OUT:-$(pwd)/gpu-profile}
mkdir -p "$LOGS"
export PATH=/usr/local/cuda/bin:$PATH
TESTS=$BUILD/tests/gpu/convlab_gpu_tests
RUNGS=(
  'cuda_global|{"block":[32,8]}'
  'cuda_constant|{"block":[32,8]}'
  'cuda_shared|{"tile":32,"block":[32,8]}'
  'cuda_separable|{"tile":32,"block":[32,8]}'
  'cuda_regblock|{"per_thread":[8,4],"block":[8,8]}'
  'cuda_fused|{"strip":[64,256],"chunk":16,"rows_per_thread":4,"threads":256}'
  'cuda_tensor|{"n_tiles":8,"warp_rows":2,"weights":"fp16"}'
  'cuda_streaming|{"rows":16,"warps":4}'
  'cuda_tensor_separable|{"n_tiles":4,"rows":512}'
  'npp|{}'
)
if [[ -n "${PROFILE_RUNGS:-}" ]]; then read -r -a RUNGS <<<"$PROFILE_RUNGS"; fi
# Stall reasons: cycles a warp spends stalled for each reason, per issued instruction.
STALLS=$(printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' long_scoreboard \
  short_scoreboard barrier wait math_pipe_throttle mio_throttle lg_throttle not_selected \
  dispatch_stall drain membar no_instruction branch_resolving imc_miss tex_throttle selected \
  sleeping misc)
STALLS=${STALLS%,}
for k in $KS; do
  for entry in "${RUNGS[@]}"; do
    rung=${entry%%|*}
    params=${entry#*|}
    t0=$(date +%s)
    # Skip the output poisoning and two warm-up repetitions; profile the next two launches (both
    # passes of cuda_separable, one repetition of the others twice).
    CONVLAB_GPU_BENCH=1 CONVLAB_GPU_BENCH_IMPLS=$rung CONVLAB_GPU_BENCH_PARAMS=$params \
      CONVLAB_GPU_BENCH_KS=$k timeout 120 ncu --clock-control none --launch-skip 3 \
      --launch-count 2 --section SpeedOfLight --section SchedulerStats --section WarpStateStats \
      --section Occupancy --metrics "$STALLS" --csv --page details --log-file "$LOGS/ncu-$rung-k$k.csv" "$TESTS" \
      --gtest_filter='CudaBenchmark.*' >"$LOGS/ncu-$rung-k$k.out" 2>&1
    echo "$rung K=$k: rc=$?, $(( $(date +%s) - t0 )) s"
  done
done

#!/usr/bin/env bash
# The device memory the kernel hosts of users' CUDA kernels hold (docs/own-kernels.md, "What is
# isolated, and how"): each user implementation runs in a host of its own, with a CUDA context of
# its own, and the hosts of a config stay up until their implementation's last point, at most four
# at once (starting a fifth ends the one asked least recently). A config of
# HOSTS copies of examples/kernels/naive_global.cu (one host each) beside cuda_global is run while
# nvidia-smi is sampled every 0.2 s; prints the most kernel-host processes seen at once and the
# device memory of each, and of the convlab process itself.
#
#   scripts/gpu-machine/kernel-host-contexts.sh CONVLAB [HOSTS]
#   scripts/gpu-machine/kernel-host-contexts.sh build-gpu/convlab 6
set -euo pipefail

[[ $# -ge 1 ]] || { echo "usage: $0 CONVLAB [HOSTS]" >&2; exit 2; }
convlab=$(realpath "$1")
hosts=${2:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
sampler=
cleanup() {
  [[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
{
  echo "name: contexts"
  echo "images: [{type: generated, sizes: [2048], channels: 3, seed: 1}]"
  echo "kernels: [{type: gaussian, size: [3, 5, 7]}]"
  echo "implementations:"
  for ((i = 1; i <= hosts; ++i)); do
    echo "  copy$i: {source: $root/examples/kernels/naive_global.cu, params: {BLOCK: [[32, 8]]}}"
  done
  echo "  cuda_global: {block: [32, 8]}"
  echo "measure: {warmup: 1, min_reps: 20, max_reps: 20, max_seconds: 10}"
} >contexts.yaml
"$convlab" validate contexts.yaml >/dev/null
(while :; do
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
    while IFS=', ' read -r pid mib; do
      printf '%s %s %s\n' "$EPOCHREALTIME" "$mib" "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
    done
  echo "--"
  sleep 0.2
done) >samples.txt &
sampler=$!
"$convlab" run contexts.yaml --quiet >run.txt 2>&1 || { cat run.txt; exit 1; }
kill "$sampler"
sampler=
awk '
  /^--$/ { if (hosts > most) most = hosts; hosts = 0; next }
  / kernel-host / { ++hosts; if ($2 > host_mib) host_mib = $2; next }
  / run contexts.yaml/ { if ($2 > run_mib) run_mib = $2 }
  END {
    printf "kernel hosts at once: %d (of %d user implementations)\n", most, '"$hosts"'
    printf "device memory per kernel host: %d MiB at most; convlab itself (cuda_global): %d MiB\n", host_mib, run_mib
  }' samples.txt

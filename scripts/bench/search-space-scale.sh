#!/usr/bin/env bash
# Spaces are walked, not listed (docs/search.md): `convlab validate` of a search over 15 params of
# ten values each (10^15 combinations) in well under a second and 100 MB, and a random search of
# budget 50 over it in the memory that the same search over 5 of those params (10^5 combinations)
# takes. The kernel is a C source (CPU, no GPU needed) on an 8 x 8 image; its variants are
# compiled by the system compiler into a kernel cache of the benchmark's own, as the search
# proposes them.
#
#   scripts/bench/search-space-scale.sh [CONVLAB]
#
# Prints, for each space, validate's wall time and peak resident memory (GNU time), twice (the
# first compiles the search's first variant, the second finds it in the cache), the space's size
# as validate gives it, those of `run --dry-run` (the space walked and counted, its first variant in the cache),
# and the search's wall time, peak memory and variants compiled. A note, not
# a test: the numbers depend on the machine and on what else it is doing.
set -euo pipefail

convlab=$(realpath "${1:-build/convlab}")
command -v /usr/bin/time >/dev/null || { echo "search-space-scale.sh: needs GNU time (Debian: time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export CONVLAB_KERNEL_CACHE=$work/cache

cat >kernel.c <<'SOURCE'
#include <convlab/kernel.h>
CONVLAB_CONTRACT(1);
CONVLAB_CPU_ENTRY(const convlab_problem* p) {
  const int r = p->ksize / 2;
  for (int y = 0; y < p->height; ++y)
    for (int x = 0; x < p->width; ++x)
      for (int c = 0; c < p->channels; ++c) {
        float sum = 0.f;
        for (int ky = 0; ky < p->ksize; ++ky)
          for (int kx = 0; kx < p->ksize; ++kx) {
            const int sy = convlab_border_index(y + ky - r, p->height, p->border);
            const int sx = convlab_border_index(x + kx - r, p->width, p->border);
            if (sy >= 0 && sx >= 0)
              sum += p->weights[ky * p->ksize + kx] * p->in[sy * p->in_pitch + sx * p->channels + c];
          }
        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c, p->output, sum);
      }
  return 0;
}
SOURCE

# CONFIG PARAMS: a search over P0..P(PARAMS-1), ten values each, with restrictions over groups of
# them (one group of seven params, 10^7 combinations, is estimated where there are 15).
write_config() {
  local name=$1 params=$2 restrict
  if ((params >= 15)); then
    restrict='"P0 * P1 <= 30", "P2 + P3 + P4 + P5 + P6 + P7 + P8 < 40", "P9 % 2 == 0"'
  else
    restrict='"P0 * P1 <= 30", "P2 + P3 < 15"'
  fi
  {
    echo "name: $name"
    echo "images: [{type: generated, sizes: [[8, 8]], channels: 1, seed: 1}]"
    echo "kernels: [{type: gaussian, size: 3}]"
    echo "implementations:"
    echo "  walked:"
    echo "    source: kernel.c"
    echo "    params:"
    for ((p = 0; p < params; ++p)); do echo "      P$p: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"; done
    echo "    search: {strategy: random, budget: 50, seed: 1, restrict: [$restrict]}"
    echo "measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}"
  } >"$name.yaml"
}

measured() {  # LABEL COMMAND...: wall seconds and peak resident KB of COMMAND
  local label=$1
  shift
  /usr/bin/time -f '%e %M' -o time.txt "$@" >out.txt 2>&1 || { cat out.txt >&2; exit 1; }
  read -r seconds kilobytes <time.txt
  printf '  %-32s %6.2f s %8.1f MB\n' "$label" "$seconds" "$(awk -v k="$kilobytes" 'BEGIN{print k / 1024}')"
}

for params in 5 15; do
  name=space$params
  write_config "$name" "$params"
  echo "10^$params combinations ($params params of ten values):"
  measured "validate (compiles one variant)" "$convlab" validate "$name.yaml"
  measured "validate again (from the cache)" "$convlab" validate "$name.yaml"
  sed -n 's/^search walked[^:]*: \(.*variants after restrictions ([^)]*)\).*/  the space: \1/p' out.txt
  measured "run --dry-run (from the cache)" "$convlab" run "$name.yaml" --dry-run
  before=$(find cache -mindepth 1 -maxdepth 1 | wc -l)
  measured "run: random search, budget 50" "$convlab" run "$name.yaml" --quiet
  after=$(find cache -mindepth 1 -maxdepth 1 | wc -l)
  echo "  variants compiled by the run: $((after - before)) (budget 50, 4 proposed ahead)"
done

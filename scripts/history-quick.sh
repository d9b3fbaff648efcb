#!/usr/bin/env bash
# The committed history outputs/history_quick: configs/quick.yaml measured by the convlab of each
# of five consecutive commits of this project, each built in a worktree of its own (cached under
# build/history) with the CMake arguments of CONVLAB's build.
#
#   scripts/history-quick.sh [CONVLAB] [--jobs N]
#   scripts/history-quick.sh build/convlab --jobs 2
#
# Run from the repository's top. On a machine that already has its runs in the folder nothing is
# built or run again (history run resumes); on another machine its runs are added beside the
# first one's, as a panel of their own. Then `convlab history show outputs/history_quick` and
# `convlab notebook` show it. The numbers are the machine's and its load's: see docs/history.md.
set -euo pipefail

convlab=$(realpath "${1:-build/convlab}")
shift $(($# > 0 ? 1 : 0))

# Five commits in a row, oldest first: the range 6da0b8b~1..694f6b8 along first parents.
commits=6da0b8b82334ace9b00fd53379c61f0645a805ff,4e991403548f512a77f6918f4160d7c092b08649,411c581f9efdfc1bffdaa93ab476a87303d53012,525f3ac8ed11533eb5f36401929d36ede9716280,694f6b8f67b0f228563f75b67883f02c89dfcaa8

cd "$(git rev-parse --show-toplevel)"
"$convlab" history run configs/quick.yaml "$commits" --out outputs/history_quick "$@"
"$convlab" history show outputs/history_quick

#!/usr/bin/env bash
# shellcheck disable=SC2317  # the cleanup and what it calls run from the trap
# The README's quick start on a machine that has never seen convlab. Builds a minimal Debian 12
# root with debootstrap (variant minbase, plus make, git and ca-certificates, nothing else), clones
# the commit under test into /root/convlab inside it, and runs the README's two commands there
# exactly as written, `make experiment` and then `make test`, as root, in a clean login shell: no
# variable of the caller's environment, no LANG. It reports each command's wall time and the test
# counts from ctest (passed, failed, skipped, with each skip's reason), and fails when either
# command fails, or when the tests leave processes running or convlab-* folders in /tmp.
#
# Why: the machines that run make test every day have every package installed, a UTF-8 locale,
# cgroups mounted and a checkout everyone can enter. A fresh one has none of these: a missing
# install step, a test that depends on the locale, on the home folder's mode (root's is 700) or on
# the checkout's path, and a daemon that needs what a chroot lacks show only here.
#
# Usage: scripts/fresh-box-check.sh [--commit REV] [--work DIR] [--logs DIR] [--cache DIR]
#                                   [--no-cache] [--mirror URL] [--security-mirror URL] [--keep]
#   --commit REV   the commit to clone (default HEAD; uncommitted changes are not part of it)
#   --work DIR     where the root is made, in a new folder removed afterwards
#                  (default ${TMPDIR:-/var/tmp}); about 5 GB are needed
#   --logs DIR     keep the two commands' full output here (default: inside the work folder, so
#                  removed; everything is also printed as it runs)
#   --cache DIR    downloaded packages kept between runs (default /var/cache/convlab-fresh-box)
#   --no-cache     download every package again
#   --mirror URL   the Debian mirror (default http://deb.debian.org/debian)
#   --security-mirror URL   the security mirror (default http://deb.debian.org/debian-security)
#   --keep         keep the root afterwards, to look inside (its mounts and processes still go)
# Exit codes: 0 both commands passed; 1 a command failed, or the tests left processes or folders
# behind, or the root could not be made; 2 usage; 77 it cannot run here (not root, no debootstrap,
# no unshare), with the reason.
#
# Fresh every run: the root is made anew each time, and the box's apt starts with no package
# lists, as a new machine does. Only downloaded .deb files are kept between runs, in the cache
# folder on this machine (debootstrap's through --cache-dir, and apt's inside the root through a
# bind mount on its /var/cache/apt/archives), which makes a run several minutes shorter. apt and
# debootstrap check every cached file against the signed package lists they have just downloaded,
# so a cached file is used only where it is the very file the mirror serves.
#
# Beyond debootstrap's files the root gets what Debian's installer always writes and debootstrap
# does not: /etc/hosts with localhost, and the bookworm-updates and bookworm-security suites in
# /etc/apt/sources.list.
#
# Mounts and processes: the root's mounts (/proc, /sys, /dev, /dev/pts, /dev/shm, /run and the
# cache) are made in a mount namespace of its own (unshare), so they never show in this machine's
# mount table and go when the namespace's last process ends. No cgroup file system is mounted on
# the root's /sys/fs/cgroup, as in a chroot or a container. Whatever happens (the trap runs on
# exit, INT and TERM), every process whose root directory is the box's (munged, slurmctld, slurmd,
# chromium, chromedriver, a build) is sent TERM, then KILL; any mount still showing under the work
# folder is unmounted lazily, and the work folder is removed only when no mount is left in it.
set -euo pipefail

usage() {
  sed -n 's/^# \{0,1\}//; /^Usage:/,/^Exit codes:/p' "$0" | sed '$d' >&2
  exit 2
}

self=$(realpath "$0")
source_dir=$(cd "$(dirname "$self")/.." && pwd)
suite=bookworm
name=convlab

say() { echo "fresh-box: $*"; }
duration() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# The processes whose root directory is `root` (the same directory, by device and inode, so that
# it holds in any mount namespace).
processes_in() {
  local root=$1 want pid
  want=$(stat -c %d:%i "$root" 2>/dev/null) || return 0
  for pid in /proc/[0-9]*; do
    pid=${pid#/proc/}
    [[ "$(stat -L -c %d:%i "/proc/$pid/root" 2>/dev/null)" == "$want" ]] && echo "$pid"
  done
  return 0
}

describe() {  # PID...: one line each, with its command line
  local pid
  for pid in "$@"; do
    printf '  %s %s\n' "$pid" "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-150)"
  done
}

# Ends every process in `root`: TERM, up to 10 s to go, then KILL.
end_processes_in() {
  local root=$1 left
  mapfile -t left < <(processes_in "$root")
  [[ ${#left[@]} -eq 0 ]] && return 0
  kill -TERM "${left[@]}" 2>/dev/null || true
  for _ in $(seq 100); do
    mapfile -t left < <(processes_in "$root")
    [[ ${#left[@]} -eq 0 ]] && return 0
    sleep 0.1
  done
  kill -KILL "${left[@]}" 2>/dev/null || true
  sleep 0.5
}

# ------------------------------------------------------------------------------------------------
# Inside the mount namespace: make the root, run the two commands, report.
# ------------------------------------------------------------------------------------------------
inside() {
  local work=$1 commit=$2 cache=$3 mirror=$4 security=$5 logs=$6
  local root=$work/root
  mount --make-rprivate /

  local started=$SECONDS
  local cache_options=()
  if [[ -n "$cache" ]]; then
    mkdir -p "$cache/debootstrap" "$cache/apt/partial"
    cache_options=(--cache-dir="$cache/debootstrap")
  fi
  say "debootstrap $suite (minbase, with make, git, ca-certificates) into $root"
  if ! debootstrap --variant=minbase --include=make,git,ca-certificates "${cache_options[@]}" \
       "$suite" "$root" "$mirror" >"$logs/debootstrap.log" 2>&1; then
    tail -n 30 "$logs/debootstrap.log"
    say "debootstrap failed (the full log: $logs/debootstrap.log)"
    return 1
  fi
  cat >"$root/etc/apt/sources.list" <<LIST
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
LIST
  printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
  [[ -s "$root/etc/resolv.conf" ]] || cp /etc/resolv.conf "$root/etc/resolv.conf"
  say "root made in $(duration $((SECONDS - started))) ($(du -sh "$root" | cut -f1))"

  git clone --quiet --no-hardlinks "$source_dir" "$root/root/$name"
  git -C "$root/root/$name" checkout --quiet --detach "$commit"
  chmod 700 "$root/root"

  mount -t proc proc "$root/proc"
  mount -t sysfs sysfs "$root/sys"
  mount --bind /dev "$root/dev"
  mount --bind /dev/pts "$root/dev/pts"
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
  mount -t tmpfs -o mode=755 run "$root/run"
  [[ -n "$cache" ]] && mount --bind "$cache/apt" "$root/var/cache/apt/archives"

  local status=0 experiment_status test_status t0 experiment_time test_time
  # A clean login shell as root: env -i leaves no variable behind, bash --login reads /etc/profile
  # (PATH) and root's .profile, as logging in on the console does.
  in_box() {
    chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
      /bin/bash --login -c "cd /root/$name && $1" </dev/null
  }
  t0=$SECONDS
  say "make experiment"
  set +e
  in_box "make experiment" 2>&1 | tee "$logs/make-experiment.log"
  experiment_status=${PIPESTATUS[0]}
  experiment_time=$((SECONDS - t0))
  t0=$SECONDS
  say "make test"
  in_box "make test" 2>&1 | tee "$logs/make-test.log"
  test_status=${PIPESTATUS[0]}
  test_time=$((SECONDS - t0))
  set -e

  # What the tests left: processes in the box, and folders in its /tmp.
  local left leftovers=()
  mapfile -t left < <(processes_in "$root")
  for entry in "$root"/tmp/convlab-*; do [[ -e "$entry" ]] && leftovers+=("${entry#"$root"}"); done

  echo
  say "Debian 12 ($suite) from debootstrap, commit $(git -C "$root/root/$name" rev-parse --short HEAD), checked out in /root/$name"
  say "make experiment: $(duration "$experiment_time"), exit $experiment_status"
  say "make test: $(duration "$test_time"), exit $test_status"
  # ctest's result lines: "  12/476 Test  #40: Name ......   Passed    0.12 sec"; a test marked
  # DISABLED in its source is "***Not Run (Disabled)": neither run nor failed, and counted apart.
  local results passed failed skipped disabled total
  results=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$logs/make-test.log" || true)
  total=$(grep -c . <<<"$results" || true)
  passed=$(grep -cE ' Passed +[0-9.]+ sec$' <<<"$results" || true)
  skipped=$(grep -cE '\*\*\*Skipped +[0-9.]+ sec$' <<<"$results" || true)
  disabled=$(grep -cE '\*\*\*Not Run \(Disabled\) +[0-9.]+ sec$' <<<"$results" || true)
  failed=$((total - passed - skipped - disabled))
  say "ctest: $total tests: $passed passed, $failed failed, $skipped skipped, $disabled disabled"
  local last_test=$root/root/$name/build/Testing/Temporary/LastTest.log
  if [[ $skipped -gt 0 ]]; then
    say "skipped, with the reason each gave:"
    grep -E '\*\*\*Skipped +[0-9.]+ sec$' <<<"$results" |
      sed -E 's/^.* Test +#[0-9]+: ([^ ]+) .*$/\1/' | while IFS= read -r test; do
        # In LastTest.log the test's output follows its "N/T Test: NAME" line: googletest's
        # "Skipped" line and then its message, or a script's own "skipped: reason" line.
        reason=$(awk -v test="$test" '
          $0 ~ "^[0-9]+/[0-9]+ Test: " { current = $3; next }
          current != test { next }
          /^skipped: / { print substr($0, 10); exit }
          after_skipped && NF { print; exit }
          / Skipped$/ { after_skipped = 1 }' "$last_test" 2>/dev/null | cut -c1-200)
        echo "  $test: ${reason:-(no reason found in LastTest.log)}"
      done
  fi
  if [[ $disabled -gt 0 ]]; then
    say "disabled in their source:"
    grep -E '\*\*\*Not Run \(Disabled\)' <<<"$results" | sed -E 's/^.* Test +#[0-9]+: ([^ ]+) .*$/  \1/'
  fi
  if [[ $failed -gt 0 ]]; then
    say "failed:"
    grep -vE ' Passed +[0-9.]+ sec$|\*\*\*(Skipped|Not Run \(Disabled\)) +[0-9.]+ sec$' <<<"$results" |
      sed -E 's/^.* Test +#[0-9]+: ([^ ]+) .*(\*\*\*.*[^ ]) +[0-9.]+ sec$/  \1 (\2)/'
  fi
  if [[ ${#left[@]} -gt 0 ]]; then
    say "${#left[@]} processes still running in the box after make test:"
    describe "${left[@]}"
    status=1
  else
    say "processes left running in the box: none"
  fi
  if [[ ${#leftovers[@]} -gt 0 ]]; then
    say "${#leftovers[@]} folders the tests left in /tmp: ${leftovers[*]:0:10}"
    status=1
  else
    say "folders the tests left in /tmp: none ($(find "$root/tmp" -mindepth 1 -maxdepth 1 | wc -l) entries in /tmp in all)"
  fi
  [[ $experiment_status -eq 0 && $test_status -eq 0 && $total -gt 0 && $failed -eq 0 ]] || status=1
  say "disk used by the box: $(du -sh --one-file-system "$root" 2>/dev/null | cut -f1)"
  return $status
}

# ------------------------------------------------------------------------------------------------
# On this machine: checks, the work folder, the namespace, and the cleanup that always runs.
# ------------------------------------------------------------------------------------------------
cannot() {
  echo "skipped: $*"
  exit 77
}

work=
keep=0
inner=
cleanup() {
  local code=$? mounts
  trap - EXIT INT TERM
  [[ -n "$inner" ]] && kill -TERM "$inner" 2>/dev/null
  end_processes_in "$work/root"
  [[ -n "$inner" ]] && wait "$inner" 2>/dev/null
  # The namespace's mounts went with its processes; anything still under the work folder here
  # was mounted from outside it, and is unmounted, deepest first.
  mapfile -t mounts < <(awk -v w="$work" '$5 == w || index($5, w "/") == 1 { print $5 }' \
                          /proc/self/mountinfo | sort -r)
  for mount in "${mounts[@]+"${mounts[@]}"}"; do umount -l "$mount" 2>/dev/null || true; done
  if awk -v w="$work" '$5 == w || index($5, w "/") == 1 { found = 1 } END { exit !found }' \
       /proc/self/mountinfo; then
    say "mounts left under $work; not removing it"
    code=1
  elif [[ $keep -eq 1 ]]; then
    say "the root is kept in $work/root"
  else
    rm -rf "$work"
  fi
  exit "$code"
}

outside() {
  local commit=HEAD work_base=${TMPDIR:-/var/tmp} logs='' cache=/var/cache/convlab-fresh-box
  local mirror=http://deb.debian.org/debian security=http://deb.debian.org/debian-security
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --commit) commit=${2:?--commit needs a revision}; shift 2 ;;
      --work) work_base=${2:?--work needs a folder}; shift 2 ;;
      --logs) logs=${2:?--logs needs a folder}; shift 2 ;;
      --cache) cache=${2:?--cache needs a folder}; shift 2 ;;
      --no-cache) cache=; shift ;;
      --mirror) mirror=${2:?--mirror needs a URL}; shift 2 ;;
      --security-mirror) security=${2:?--security-mirror needs a URL}; shift 2 ;;
      --keep) keep=1; shift ;;
      *) usage ;;
    esac
  done

  [[ $(id -u) -eq 0 ]] || cannot "debootstrap, chroot and mount need root"
  for program in debootstrap unshare chroot git; do
    command -v "$program" >/dev/null 2>&1 ||
      cannot "$program not found (scripts/install-deps.sh ci installs debootstrap)"
  done
  unshare --mount --propagation private true 2>/dev/null ||
    cannot "unshare --mount is not allowed here: no mount namespace for the box's mounts"
  commit=$(git -C "$source_dir" rev-parse --verify "$commit^{commit}")
  if [[ -n "$(git -C "$source_dir" status --porcelain --untracked-files=no)" ]]; then
    say "note: $source_dir has uncommitted changes; they are not part of the check of $commit"
  fi

  mkdir -p "$work_base"
  work=$(mktemp -d "$(realpath "$work_base")/convlab-fresh-box.XXXXXX")
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  chmod 755 "$work"
  mkdir -p "$work/root"
  [[ -n "$logs" ]] || logs=$work/logs
  mkdir -p "$logs"
  logs=$(realpath "$logs")
  if [[ -n "$cache" ]]; then
    mkdir -p "$cache"
    cache=$(realpath "$cache")
  fi

  local started=$SECONDS status
  # In the background and waited for, so that a signal to this script runs the trap at once.
  unshare --mount --propagation private -- "$self" --inside "$work" "$commit" "$cache" \
    "$mirror" "$security" "$logs" &
  inner=$!
  set +e
  wait "$inner"
  status=$?
  set -e
  inner=
  say "$( ((status == 0)) && echo passed || echo FAILED) in $(duration $((SECONDS - started))) in all"
  return "$status"
}

# One compound command, read whole before it runs: the file may change during the hour it runs
# (a checkout switching commits) without this shell reading the changed bytes.
{
  if [[ "${1:-}" == --inside ]]; then
    shift
    inside "$@"
  else
    outside "$@"
  fi
  exit $?
}

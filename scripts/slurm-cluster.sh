#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, for the SLURM test of `make test` and for trying
# `convlab slurm` without a cluster: munged, slurmctld and slurmd from Debian's munge, slurmctld,
# slurmd and slurm-client (scripts/install-deps.sh test), with every file under one folder.
#
#   scripts/slurm-cluster.sh start DIR   writes DIR/slurm.conf, starts the three daemons, waits
#                                        until the node is idle and prints the line to use it:
#                                          export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-cluster.sh stop DIR    stops every daemon it started, each by the PID in its PID
#                                        file under DIR, and waits until they are gone
#
# Nothing outside DIR is written: the munge key is copied from /etc/munge (or created), munged
# listens on DIR/munge.socket, and the SLURM ports are free ports found at start. No cgroup file
# system is needed (DIR/cgroup.conf), so the cluster also starts in a chroot or a container. The daemons run
# as root (SlurmUser=root), as there is no systemd to start them: PID 1 may be no init system.
# Exit codes: 0 done; 77 it cannot run here (not root, a package missing), with the reason; 1 a
# daemon did not come up (its log is printed).
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
dir=$2

cannot() {
  echo "skipped: $*"
  exit 77
}

# A TCP port nothing listens on, from a range of its own.
free_port() {
  local port
  for _ in $(seq 200); do
    port=$((20000 + RANDOM % 20000))
    if ! (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "no free TCP port found" >&2
  return 1
}

wait_gone() {  # PID: waits up to 30 s for the process to end
  for _ in $(seq 300); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "process $1 did not stop" >&2
  return 1
}

stop() {
  local pids=() pid
  # The SLURM daemons first (they speak to munged while stopping), then munged.
  for daemon in slurmd slurmctld; do
    if [[ -s "$dir/$daemon.pid" ]]; then
      pid=$(cat "$dir/$daemon.pid")
      kill "$pid" 2>/dev/null && pids+=("$pid")
    fi
  done
  for pid in "${pids[@]+"${pids[@]}"}"; do wait_gone "$pid"; done
  if [[ -s "$dir/munged.pid" ]]; then
    pid=$(cat "$dir/munged.pid")
    kill "$pid" 2>/dev/null && wait_gone "$pid"
  fi
  rm -f "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid
}

start() {
  [[ $(id -u) -eq 0 ]] || cannot "starting munged, slurmctld and slurmd needs root"
  for program in munged slurmctld slurmd sbatch sinfo; do
    command -v "$program" >/dev/null 2>&1 ||
      cannot "$program not found (scripts/install-deps.sh test installs munge, slurmctld, slurmd, slurm-client)"
  done
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # munged refuses a socket in a folder that not everyone can enter, and a key others can read.
  chmod 755 "$dir"
  if [[ ${#dir} -gt 90 ]]; then
    echo "$dir: too long a path for munged's socket (at most 108 bytes); choose a shorter DIR" >&2
    exit 1
  fi
  local above=$dir
  while [[ "$above" != / ]]; do
    above=$(dirname "$above")
    if [[ $(( 0$(stat -c %a "$above") & 01 )) -eq 0 ]]; then
      echo "munged needs every folder above $dir/munge.socket to be enterable by everyone;" \
           "$above is not (chmod o+x $above, or choose another DIR)" >&2
      exit 1
    fi
  done
  mkdir -p "$dir/state" "$dir/spool"
  if [[ -r /etc/munge/munge.key ]]; then
    cp /etc/munge/munge.key "$dir/munge.key"
  else
    mungekey --create --keyfile="$dir/munge.key" >/dev/null
  fi
  chmod 400 "$dir/munge.key"
  local host ctld_port slurmd_port
  host=$(hostname -s)
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  [[ "$slurmd_port" != "$ctld_port" ]] || slurmd_port=$((ctld_port + 1))
  cat >"$dir/slurm.conf" <<CONF
# A one-node cluster for convlab's tests (scripts/slurm-cluster.sh); every file under $dir.
ClusterName=convlabtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroup plugins: cgroup v1 and v2 differ between machines, and a chroot or a container may
# have no cgroup file system at all (cgroup.conf names the plugin slurmd starts regardless).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Without accounting, finished jobs are listed here (sacct needs accounting).
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
KillWait=5
# A job depending afterok on a failed task is cancelled instead of pending forever.
DependencyParameters=kill_invalid_depend
# Schedule at once instead of in waves of about 2.5 s.
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
# More CPUs or memory than the machine has would drain the node.
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  # slurmd always starts a cgroup plugin, even with the cgroup-free plugins above, and the default
  # one (autodetect) stops slurmd where no cgroup file system is mounted on /sys/fs/cgroup, as in
  # a chroot or a container: "No filesystem mounted on /sys/fs/cgroup ... slurmd initialization
  # failed". Name one that reads no cgroup file system when it starts: "disabled" from Slurm 24.05
  # on; before that (Debian 12 has 22.05, Ubuntu 24.04 23.11) cgroup/v1, which then only loads,
  # since nothing above asks it for a cgroup.
  local version cgroup_plugin=cgroup/v1
  version=$(slurmd -V | sed -n 's/^slurm[^0-9]*\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  if [[ -n "$version" ]] && (( 10#${version% *} * 100 + 10#${version#* } >= 2405 )); then
    cgroup_plugin=disabled
  fi
  cat >"$dir/cgroup.conf" <<CONF
# Read by slurmd from beside slurm.conf (scripts/slurm-cluster.sh says why).
CgroupPlugin=$cgroup_plugin
CONF
  munged --socket="$dir/munge.socket" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" ||
    { cat "$dir/munged.log" >&2; stop; exit 1; }
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" || { cat "$dir/slurmctld.log" >&2; stop; exit 1; }
  slurmd -f "$SLURM_CONF" || { cat "$dir/slurmd.log" >&2; stop; exit 1; }
  for _ in $(seq 300); do
    if [[ "$(sinfo -h -o %t 2>/dev/null)" == idle ]]; then
      echo "export SLURM_CONF=$SLURM_CONF"
      return
    fi
    sleep 0.1
  done
  echo "the node did not become idle within 30 s:" >&2
  sinfo >&2 || true
  tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  stop
  exit 1
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac

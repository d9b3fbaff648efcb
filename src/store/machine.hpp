// Which machine measured a record (records[].machine in docs/results-schema.md). Times from two
// machines are never compared: speedups, efficiencies and baselines pair records of one machine,
// and figures and tables put machines in separate, labelled panels or columns.
//
// A machine is its host (CPU model, hostname, host id: a hash of /etc/machine-id) and, for GPU
// points, the GPU (name, driver version and, where recorded, the device's UUID and index). Two
// records are of one machine when their hosts are the same and, when both are GPU points, their
// GPUs are too (the same device where both name one): a GPU point and a CPU point of one host
// compare (that is what a speedup over the sequential baseline is). Two GPUs of one model in one
// host are two machines for comparisons, figures and tables.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "impl/family.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"

namespace convlab {

// The machine of a record measured now, from the run block's host and cuda facts.
RecordMachine machine_from_run(const RunBlock& run, Family family);

// Records written before machines were recorded get theirs from the run block their run_id names
// (host.cpu_model, host.hostname, cuda.name, cuda.driver_version); records of a run block that
// is gone keep an unknown machine. Records that have one are left alone.
void attach_machines(std::vector<Record>& records, const std::vector<RunBlock>& runs);

// Same host: CPU model, hostname and host id (absent ids are equal only to absent ids).
std::string host_key(const Record& record);
// Whether the times of two records may be related (see above).
bool same_machine(const Record& a, const Record& b);
// The host and, for GPU points, the GPU device: the machine figures and tables keep apart.
std::string machine_key(const Record& record);
// The host and, for GPU points, the GPU model (name and driver), without the device: a new
// measurement of a point replaces the record of the same point with an equal key, whichever
// device of the host measured either (results_merge.hpp).
std::string machine_model_key(const Record& record);

// "AMD EPYC (vm)": the host in words; with `with_gpu`, the GPU of a GPU point is added, with its
// device index where recorded ("NVIDIA H200 (device 1) driver 575.57").
std::string machine_label(const Record& record, bool with_gpu);

// The records not measured on the host `here`, in words: "47 records of AMD EPYC (vm)"; empty
// when there are none.
std::string other_hosts_summary(const std::vector<Record>& records, const RecordMachine& here);

}  // namespace convlab

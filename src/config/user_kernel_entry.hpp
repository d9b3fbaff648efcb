// An implementation entry that names a source file: a user's own kernel (docs/own-kernels.md).
//
//   implementations:
//     my_tiled: {source: kernels/my_tiled.cu, params: {TILE: [16, 32], BLOCK: [[16, 16], [32, 8]]}}
//     my_loop:  {source: kernels/my_loop.cpp, threads: [1, 2, 4], params: {SCHEDULE: [static]}}
//
// Each param is an axis of its own, swept, filtered and plotted like a built-in axis (params.TILE)
// and compiled in as a macro; threads (CPU sources only) is the OpenMP thread count of a call.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/config_error.hpp"

namespace convlab {

// Whether an implementation's entry names a source (a mapping with `source`).
bool is_user_kernel_entry(const YAML::Node& entry);

// The sweep of a user's kernel: reads the source (relative to `config_folder`), its params and
// threads; throws ConfigError at the key at fault.
ImplementationSweep parse_user_kernel_entry(const std::string& name, const YAML::Node& entry,
                                            const YamlLocation& at,
                                            const std::string& config_folder);

// The source files the implementations of the config `config` (as read) name, resolved against its
// folder as the reader resolves them, and the files of their own they include, read from its YAML
// alone: what a config depends on, also when
// it does not load (a source that is missing or does not compile yet). Nullopt when the file is
// not YAML with an implementations mapping.
std::optional<std::vector<std::string>> named_kernel_sources(const ConfigFile& config);

// The entry as the resolved config writes it: source, its SHA-256, params and threads.
nlohmann::json resolved_user_kernel_entry(const ImplementationSweep& sweep);

}  // namespace convlab

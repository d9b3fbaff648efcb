// A variant's snapshot (source_snapshot.hpp) laid out in the private folder it is compiled in:
// every file of the snapshot at its absolute path below `tree/`, the contract header in
// `include/convlab/kernel.h`, and the compiler started in the working folder's place in the tree.
// Relative includes (`"scale.h"`, `"../common/util.h"`) find the snapshot's copies, and the
// compiler's messages name the files as the user's working folder does; the files on disk are not
// read again, so a save during the compile cannot reach it.
#pragma once

#include <string>

#include "user_kernels/kernel_source.hpp"

namespace convlab {

struct PrivateTree {
  std::string root;            // FOLDER/tree: the snapshot's files at their absolute paths below it
  std::string working_folder;  // where the compiler runs
  std::string main_argument;   // the source as the compiler is given it (its path in messages)
  std::string include_folder;  // holds convlab/kernel.h

  // The compiler's lines with the tree's prefix taken out, so they name the user's files.
  std::string shown(const std::string& log) const;
};

// Writes the snapshot of `source` and the contract header into `folder` (a cache entry being
// built).
PrivateTree lay_out_snapshot(const UserKernelSource& source, const std::string& header,
                             const std::string& folder);

}  // namespace convlab

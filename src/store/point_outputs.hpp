// save_outputs: true writes what each implementation produced, as the verification saw it, so a
// reader can look at (and diff) the output of every point:
//   images/outputs/<image>__<kernel>__<border>__<output>__<implementation>[__<axis>-<value>]...
// with .png for u8 (8-bit, the output's channels) and .pfm for f32 (every float value exactly; see
// write_pfm). Paths are relative to the results folder; the record lists its file.
#pragma once

#include <string>

#include "core/output_view.hpp"
#include "store/record.hpp"

namespace convlab {

// The file a point's output goes to.
std::string point_output_path(const PointDescription& point);

// Writes the output under out_dir; returns the file relative to out_dir, its format (png or pfm)
// and the sha256 of the output values' bytes. Throws FileError (core/file_io.hpp) naming the file
// when it cannot be written or something other than a regular file stands in its place.
SavedOutput save_point_output(const std::string& out_dir, const PointDescription& point,
                              const OutputView& output);

}  // namespace convlab

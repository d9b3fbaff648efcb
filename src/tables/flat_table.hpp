// `convlab export DIR --format csv|md|tsv`: every record of a results file as one flat row, for
// spreadsheets, pandas-free scripts and pull requests. Columns: what the point is (implementation,
// params.*, image.*, kernel.*, border, output), how it ended (status, reason), its timing
// statistics in ms (and the device phases' medians), its derived metrics and its verification.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "store/record.hpp"

namespace convlab {

enum class FlatFormat { csv, md, tsv };

std::optional<FlatFormat> parse_flat_format(const std::string& text);

struct FlatTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // "" where a record lacks the column
};

// Numbers in full precision (shortest round-trip form) for csv and tsv, four significant digits
// for md, which is read by people.
FlatTable flatten_records(const std::vector<Record>& records, FlatFormat format);

// csv: RFC 4180 (quoted where a cell holds a comma, quote or line break); tsv: tabs and line
// breaks inside cells become spaces; md: a pipe table, '|' escaped.
void write_flat_table(const FlatTable& table, FlatFormat format, std::ostream& out);

}  // namespace convlab

// Queries over loaded records, shared by show, export, compare, the report and the notebook:
// what defines a point, which records count (the latest ok record of each point and machine),
// and point filters over records.
#pragma once

#include <string>
#include <vector>

#include "core/point_filter.hpp"
#include "query/results_document.hpp"
#include "store/record.hpp"

namespace convlab {

// The point a record measures, without build or run identity: implementation, params, image
// name and shape, kernel name and size, border, output. Records of different builds of the same
// point share it.
std::string point_definition(const Record& record);
// The same in words for messages and compare's listing.
std::string point_in_words(const Record& record);

// Records with status ok, one per point definition, machine and version of a user's kernel: where
// several runs measured a point on one machine, the record of the latest run (by order in "runs",
// then by position in "records") wins; measurements of other machines are other points.
std::vector<const Record*> latest_ok_points(const ResultsDocument& results);
// The latest record of each point and machine, whatever its status.
std::vector<const Record*> latest_points(const ResultsDocument& results);

// The records `filter` keeps, as `convlab run --filter` chooses points, with its messages: throws
// ResultsError "--filter: unknown field 'kernel.sise' (did you mean 'kernel.size'?)" when a clause
// names a field no record can have, and "no point of FILE matches --filter EXPR" when none is
// kept, so show, export and compare refuse a filter as run does (exit 2).
std::vector<const Record*> select_records(const std::vector<const Record*>& records,
                                          const PointFilter& filter, const std::string& file);

// Records of `points` the point filter expression keeps (all when the expression is empty).
std::vector<const Record*> filter_points(const std::vector<const Record*>& points,
                                         const std::string& expression, const std::string& context);

// The fields of the point definition in which two records differ ("nothing" when none), for
// "several points" errors.
std::string differing_point_fields(const Record& a, const Record& b);

}  // namespace convlab

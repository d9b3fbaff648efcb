// The report's field table reads typed records: shorthands, record paths, the free-form parts
// and fields of other versions, and point filters over them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "query/record_fields.hpp"
#include "query/results_document.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

using report_test::fixture_results;

Record fixture_record() {
  return load_results_document(fixture_results().string()).file.records.at(0);
}

TEST(RecordFields, ShorthandsAndRecordPathsReadTheTypedMembers) {
  const Record record = fixture_record();
  EXPECT_EQ(field_value(record, "median_ms")->number, record.timing->compute.stats.median);
  EXPECT_EQ(field_value(record, "timing.stats.median")->number,
            record.timing->compute.stats.median);
  EXPECT_EQ(field_value(record, "timing.stats.q3")->number, record.timing->compute.stats.q3);
  EXPECT_EQ(field_value(record, "timing.repetitions")->text, "5");
  EXPECT_EQ(field_value(record, "image.size")->text, "512x512");
  EXPECT_EQ(field_value(record, "image.pixels")->number, 512.0 * 512.0);
  EXPECT_EQ(field_value(record, "kernel.separable")->text, "yes");
  EXPECT_EQ(field_value(record, "derived.macs")->number, *record.derived.macs);
  EXPECT_EQ(field_value(record, "verification.verdict")->text, "ok");
  EXPECT_EQ(field_value(record, "verification.reference")->text, kVerificationReference);
  EXPECT_EQ(field_value(record, "configuration")->text, "Sequential");
  EXPECT_FALSE(field_value(record, "h2d_ms").has_value());  // a CPU point has no copies
  EXPECT_FALSE(field_value(record, "timing.h2d.stats.median").has_value());
  const auto quartiles = field_quartiles(record, "median_ms");
  ASSERT_TRUE(quartiles.has_value());
  EXPECT_EQ(quartiles->first, record.timing->compute.stats.q1);
  EXPECT_EQ(field_samples(record, "median_ms").size(), 5u);
}

TEST(RecordFields, FreeFormPartsAndOtherVersionsAreLookedUpByPath) {
  Record record = fixture_record();
  record.params = {{"block", {32, 8}}, {"streams", false}};
  record.unknown["future"] = {{"score", 7}};
  EXPECT_EQ(field_value(record, "params.block")->text, "32x8");
  EXPECT_EQ(field_value(record, "params.block.y")->number, 8);
  EXPECT_EQ(field_value(record, "kernel.parameters.sigma")->number, 0.8);
  EXPECT_EQ(field_value(record, "future.score")->number, 7);
  EXPECT_FALSE(field_value(record, "params.tile").has_value());
}

TEST(RecordFields, FiltersCompareNumbersNumericallyAndBooleansAsWritten) {
  Record record = fixture_record();
  record.params = {{"streams", false}};
  const auto holds = [&](const std::string& expression) {
    std::string error;
    const auto filter = parse_point_filter(expression, &error);
    EXPECT_TRUE(filter.has_value()) << error;
    return record_matches(*filter, record);
  };
  EXPECT_TRUE(holds("implementation=sequential,image.width=512.0,kernel.size<5"));
  EXPECT_TRUE(holds("kernel.separable=true,params.streams=false"));
  EXPECT_TRUE(holds("image.name~512x512,params.tile!=32"));
  EXPECT_FALSE(holds("implementation=openmp|cuda_global"));
  EXPECT_FALSE(holds("params.tile=32"));
}

TEST(RecordFields, UnknownNamesGetTheClosestNameOfTheirGroup) {
  std::string suggestion;
  EXPECT_TRUE(is_known_field("params.anything", &suggestion));
  EXPECT_TRUE(is_known_field("timing.end_to_end.stats.q1", &suggestion));
  EXPECT_FALSE(is_known_field("timing.stats.medain", &suggestion));
  EXPECT_EQ(suggestion, "timing.stats.median");
  EXPECT_FALSE(is_known_field("kernel.sise", &suggestion));
  EXPECT_EQ(suggestion, "kernel.size");
  EXPECT_FALSE(is_known_field("speedupp", &suggestion));
  EXPECT_EQ(suggestion, "speedup");
}

}  // namespace
}  // namespace convlab

#include "results/summary_table.hpp"

#include <cstdio>
#include <string>

#include "plan/point_filter.hpp"

namespace convlab {
namespace {

std::string number(const nlohmann::json& value, const char* format) {
  if (!value.is_number()) return "";
  char text[32];
  std::snprintf(text, sizeof text, format, value.get<double>());
  return text;
}

std::string params_text(const nlohmann::json& params) {
  std::string text;
  for (const auto& [key, value] : params.items())
    text += (text.empty() ? "" : " ") + key + "=" + field_text(value);
  return text.empty() ? "-" : text;
}

std::string verdict(const nlohmann::json& record) {
  const std::string status = record.value("status", "");
  if (status == "ok") return "ok";
  return status + ": " + record.value("reason", "");
}

}  // namespace

void print_summary_table(const std::vector<nlohmann::json>& records, const nlohmann::json& run,
                         std::ostream& out) {
  out << "| implementation | params | image | kernel | border | output | median ms | speedup | "
         "verdict |\n";
  out << "|---|---|---|---|---|---|---:|---:|---|\n";
  for (const auto& r : records) {
    const nlohmann::json median =
        r["timing"].is_object() ? r["timing"]["stats"]["median"] : nlohmann::json();
    const nlohmann::json speedup = r["derived"].value("speedup", nlohmann::json());
    out << "| " << r["implementation"].get<std::string>() << " | " << params_text(r["params"])
        << " | " << r["image"]["name"].get<std::string>() << " | "
        << r["kernel"]["name"].get<std::string>() << " | " << r["border"].get<std::string>()
        << " | " << r["output"].get<std::string>() << " | " << number(median, "%.4g") << " | "
        << number(speedup, "%.3gx") << " | " << verdict(r) << " |\n";
  }
  if (run.contains("cuda")) {
    const auto& cuda = run["cuda"];
    if (cuda.value("available", false) && cuda.contains("calibration")) {
      const auto& c = cuda["calibration"];
      out << "\nGPU " << cuda.value("name", "?") << ": measured copy bandwidth "
          << number(c.value("copy_bytes_per_s", 0.0) / 1e12, "%.3g")
          << " TB/s (read + write), FP32 FMA rate "
          << number(c.value("fma_per_s", 0.0) / 1e12, "%.3g") << " TFMA/s\n";
    } else {
      out << "\nGPU: " << cuda.value("reason", "not available") << "\n";
    }
  }
}

}  // namespace convlab

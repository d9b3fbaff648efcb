#include "notebook/experiment_config.hpp"

#include "config/user_kernel_entry.hpp"
#include "notebook/freshness.hpp"
#include "notebook/notebook_builder.hpp"

namespace convlab {

ExperimentConfig declared_config(ConfigFile file) {
  ExperimentConfig loaded;
  loaded.root = parse_config(file);
  loaded.declarations = parse_report_declarations(loaded.root, YamlLocation{file.path, ""});
  loaded.kernel_sources = named_kernel_sources(file);
  loaded.file = std::move(file);
  return loaded;
}

ExperimentConfig experiment_config(ConfigFile file) {
  ExperimentConfig loaded = declared_config(std::move(file));
  try {
    loaded.config = load_config(loaded.file, loaded.root);
  } catch (const std::exception& error) {
    loaded.load_error = error.what();
  }
  if (loaded.config) loaded.plan = expand_plan(*loaded.config);
  return loaded;
}

ExperimentConfig experiment_config(ConfigFile file, Config config, std::vector<Point> plan) {
  ExperimentConfig loaded = declared_config(std::move(file));
  loaded.config = std::move(config);
  loaded.plan = std::move(plan);
  return loaded;
}

std::shared_ptr<const ExperimentConfig> notebook_config(const std::optional<std::string>& requested,
                                                        const ResultsDocument& results) {
  const auto path = config_to_read(requested, results, experiment_name(results));
  if (!path) return nullptr;
  return std::make_shared<const ExperimentConfig>(experiment_config(read_config(*path)));
}

}  // namespace convlab

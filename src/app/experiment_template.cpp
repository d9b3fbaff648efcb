#include "app/experiment_template.hpp"

#include <cctype>
#include <filesystem>

namespace convlab {
namespace {

namespace fs = std::filesystem;

std::string config_text(const std::string& name, bool with_kernel) {
  std::string text =
      "# yaml-language-server: $schema=../docs/config.schema.json\n"
      "# Made from the notebook's page; docs/config.md documents every key.\n"
      "name: " +
      name + "\ntitle: " + name +
      "\n"
      "description: |\n"
      "  What this experiment measures, and why.\n"
      "images:\n"
      "  - {type: generated, sizes: [256], channels: 1, seed: 1}\n"
      "kernels:\n"
      "  - {type: gaussian, size: [3, 5, 7]}\n"
      "border: replicate\n"
      "output: u8\n"
      "implementations:\n"
      "  sequential: {}\n";
  if (with_kernel) text += "  my_kernel: {source: kernels/" + name + ".c}\n";
  text +=
      "baseline: sequential\n"
      "measure: {warmup: 1, min_reps: 3, max_reps: 10, max_seconds: 0.2}\n"
      "figures:\n"
      "  - name: time-by-size\n"
      "    title: Median time against the kernel size\n"
      "    type: line\n"
      "    x: kernel.size\n"
      "    y: median_ms\n"
      "    series: implementation\n"
      "tables:\n"
      "  - name: time-ms\n"
      "    title: Median time [ms]\n"
      "    rows: implementation\n"
      "    columns: kernel.size\n"
      "    value: median_ms\n";
  return text;
}

std::string discussion_text(const std::string& name, bool with_kernel) {
  std::string text =
      "# " + name +
      "\n\n"
      "What the figure shows, in words, with its numbers computed from the results.\n\n"
      "{{figure: time-by-size}}\n\n";
  if (with_kernel)
    text +=
        "At K = 7 my kernel takes "
        "{{ median_ms[implementation=my_kernel,kernel.size=7] | .3g }} ms.\n";
  else
    text +=
        "At K = 7 the loops take {{ median_ms[implementation=sequential,kernel.size=7] | .3g }} "
        "ms.\n";
  return text;
}

// The straightforward loops, written to the contract: a starting point that verifies.
std::string kernel_text(const std::string& name) {
  return "/* " + name +
         ": a CPU kernel of your own (docs/own-kernels.md). convlab compiles it when the config\n"
         " * is saved, checks every output against its double-precision reference and times it. "
         "*/\n"
         "#include <convlab/kernel.h>\n"
         "\n"
         "CONVLAB_CONTRACT(1);\n"
         "\n"
         "CONVLAB_CPU_ENTRY(const convlab_problem *p) {\n"
         "  const int r = p->ksize / 2;\n"
         "  for (int y = 0; y < p->height; ++y)\n"
         "    for (int x = 0; x < p->width; ++x)\n"
         "      for (int c = 0; c < p->channels; ++c) {\n"
         "        float sum = 0.f;\n"
         "        for (int ky = 0; ky < p->ksize; ++ky) {\n"
         "          const int sy = convlab_border_index(y + ky - r, p->height, p->border);\n"
         "          if (sy < 0) continue; /* the zero border reads 0 */\n"
         "          for (int kx = 0; kx < p->ksize; ++kx) {\n"
         "            const int sx = convlab_border_index(x + kx - r, p->width, p->border);\n"
         "            if (sx < 0) continue;\n"
         "            sum += p->weights[ky * p->ksize + kx] *\n"
         "                   p->in[sy * p->in_pitch + (long long)sx * p->channels + c];\n"
         "          }\n"
         "        }\n"
         "        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c, "
         "p->output, sum);\n"
         "      }\n"
         "  return 0;\n"
         "}\n";
}

}  // namespace

std::string experiment_name_problem(const std::string& name) {
  if (name.empty() || name.size() > 64) return "a name has 1 to 64 characters";
  if (!std::isalnum(static_cast<unsigned char>(name[0])))
    return "a name starts with a letter or a digit";
  for (unsigned char c : name)
    if (!std::isalnum(c) && c != '_' && c != '-' && c != '.')
      return "a name holds only letters, digits and _ - .";
  return "";
}

NewExperimentFiles new_experiment_files(const std::string& name, bool with_kernel,
                                        const std::string& configs_folder,
                                        const std::string& discussions_folder) {
  NewExperimentFiles files;
  const fs::path configs = configs_folder.empty() ? fs::path("configs") : fs::path(configs_folder);
  files.config = (configs / (name + ".yaml")).generic_string();
  files.page = name + ".html";
  files.texts.emplace_back(files.config, config_text(name, with_kernel));
  files.texts.emplace_back(
      (fs::path(discussions_folder.empty() ? "experiments" : discussions_folder) / (name + ".md"))
          .generic_string(),
      discussion_text(name, with_kernel));
  if (with_kernel)
    files.texts.emplace_back((configs / "kernels" / (name + ".c")).generic_string(),
                             kernel_text(name));
  return files;
}

}  // namespace convlab

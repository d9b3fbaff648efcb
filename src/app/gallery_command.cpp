#include <iostream>

#include "app/commands.hpp"
#include "core/file_io.hpp"
#include "gallery/gallery.hpp"
#include "store/results_file.hpp"

namespace convlab {

int gallery_command(const Arguments& args) {
  std::string dir;
  CommandLine line(
      "gallery",
      {{},
       "Writes the gallery pictures that DIR/results.json lists under \"gallery\":\n"
       "  DIR/gallery/<image>__<kernel>__<border>.jpg  drawn again from the saved point\n"
       "      output it names (DIR/images/outputs/...) when that file is there and newer, "
       "else\n"
       "      kept as it is; an error (exit 2) when the picture and its output are both "
       "missing\n"
       "  DIR/images/<image>__input.png  the input photograph, when missing\n"
       "Entries written by earlier versions (no source output) are drawn from the reference\n"
       "computation when missing, and said to be.\n",
       "",
       ""});
  if (const auto status = line.positional("DIR", dir).parse(args)) return *status;
  try {
    const GalleryRestore restore = restore_gallery_images(dir);
    for (const auto& warning : restore.warnings)
      std::cerr << "convlab gallery: " << warning << "\n";
    if (restore.written > 0)
      std::cerr << "convlab: " << restore.written << " gallery pictures written in " << dir << "\n";
    if (restore.from_reference > 0)
      std::cerr << "convlab gallery: note: " << restore.from_reference
                << " pictures of entries from an earlier version were drawn from the reference "
                   "computation, not from an implementation's output; run the experiment again "
                   "to show the implementations' outputs\n";
    return 0;
  } catch (const ResultsFileError& error) {
    return report_command_error("gallery", error);
  } catch (const FileError& error) {
    return report_command_error("gallery", error);
  }
}

}  // namespace convlab

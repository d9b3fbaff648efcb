#include <iostream>

#include "app/commands.hpp"
#include "results/gallery.hpp"
#include "results/results_file.hpp"

namespace convlab {

int gallery_command(const Arguments& args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: convlab gallery DIR\n\nWrites the input and filtered images that "
                 "DIR/results.json lists under \"gallery\" and that are missing from DIR/images/\n"
                 "(they are generated files: rebuilt from the images and kernels the runs "
                 "recorded, with the reference computation).\n";
    return args.size() == 1 ? 0 : 2;
  }
  try {
    const int written = restore_gallery_images(args[0]);
    if (written > 0)
      std::cerr << "convlab: " << written << " gallery images written in " << args[0]
                << "/images\n";
    return 0;
  } catch (const ResultsFileError& error) {
    std::cerr << "convlab gallery: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace convlab

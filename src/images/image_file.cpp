// The one translation unit that compiles stb_image and stb_image_write. Files are opened through
// core/file_io.hpp: only regular files are read (a FIFO or a device never is), and pictures are
// written whole through a temporary file, every write checked.
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>

#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace convlab {
namespace {

// A regular file opened for stb_image; anything else is an ImageFileError naming the path.
class ImageInput {
 public:
  explicit ImageInput(const std::string& path) {
    int fd = -1;
    try {
      fd = open_regular_file(path);
    } catch (const FileError& error) {
      throw ImageFileError(error.what());
    }
    file_ = ::fdopen(fd, "rb");
    if (file_ == nullptr) {
      ::close(fd);
      throw ImageFileError(path + ": cannot read");
    }
  }
  ~ImageInput() { std::fclose(file_); }
  ImageInput(const ImageInput&) = delete;
  ImageInput& operator=(const ImageInput&) = delete;
  FILE* get() const { return file_; }

 private:
  FILE* file_ = nullptr;
};

// stb_image_write hands the encoded bytes to this; the first failure is kept and rethrown once the
// encoder returns, so no exception crosses its C code.
struct EncodedOutput {
  AtomicFile* file;
  std::exception_ptr error;
};

void write_encoded(void* context, void* data, int size) {
  auto* output = static_cast<EncodedOutput*>(context);
  if (output->error) return;
  try {
    output->file->write(data, static_cast<size_t>(size));
  } catch (...) {
    output->error = std::current_exception();
  }
}

// Why stb_image failed; some of its failures (an allocation in the middle of a decode) set none.
std::string failure_reason() {
  const char* reason = stbi_failure_reason();
  return reason != nullptr ? reason : "no reason given; out of memory?";
}

template <typename Encode>
void write_encoded_file(const std::string& path, Encode encode) {
  AtomicFile file(path, WriteTarget::owned);
  EncodedOutput output{&file, nullptr};
  const bool encoded = encode(&output);
  if (output.error) std::rethrow_exception(output.error);
  if (!encoded) throw FileError(path + ": write error: the picture could not be encoded");
  file.commit();
}

}  // namespace

void probe_image_file(const std::string& path, int* width, int* height) {
  const ImageInput input(path);
  int components = 0;
  if (!stbi_info_from_file(input.get(), width, height, &components))
    throw ImageFileError(path + ": not a readable image (" + failure_reason() + ")");
}

Image load_image_file(const std::string& path, int channels) {
  int width = 0, height = 0, file_channels = 0;
  stbi_uc* data = nullptr;
  {
    const ImageInput input(path);
    data = stbi_load_from_file(input.get(), &width, &height, &file_channels, channels);
  }
  if (data == nullptr)
    throw ImageFileError(path + ": cannot decode image (" + failure_reason() + ")");
  Image image;
  image.width = width;
  image.height = height;
  image.channels = channels;
  image.pixels.assign(data, data + static_cast<size_t>(width) * height * channels);
  stbi_image_free(data);
  image.name = std::filesystem::path(path).stem().string() + "-c" + std::to_string(channels);
  image.source = path;
  image.sha256 = sha256_hex(image.pixels.data(), image.pixels.size());
  return image;
}

void write_png(const std::string& path, int width, int height, int channels,
               const std::uint8_t* pixels) {
  write_encoded_file(path, [&](EncodedOutput* output) {
    return stbi_write_png_to_func(write_encoded, output, width, height, channels, pixels,
                                  width * channels) != 0;
  });
}

void write_jpeg(const std::string& path, int width, int height, int channels,
                const std::uint8_t* pixels, int quality) {
  write_encoded_file(path, [&](EncodedOutput* output) {
    return stbi_write_jpg_to_func(write_encoded, output, width, height, channels, pixels,
                                  quality) != 0;
  });
}

}  // namespace convlab

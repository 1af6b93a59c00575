// OpenCV's own CPU results for the OpenCV kernels tilescope runs unmodified
// (docs/opencv-kernels.md): cv::blur 3x3 with OpenCV's default border and cv::integral to
// int32, of a PNG made grey by libpng (and written out, for tilescope to read the same
// pixels), as NumPy arrays for `tilescope run --expect REF.npy`.
// C++ because OpenCV's API is C++ only; built where OpenCV's imgproc headers are installed,
// and no part of tilescope itself.
// usage: ts_cvref IN.png GREY.png BLUR.npy INTEGRAL.npy
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <png.h>

#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#include <opencv2/imgproc.hpp>

static bool write_npy(const char *path, const char *descr, int rows, int cols, const void *data,
                      size_t bytes)
{
  char dict[160];
  std::snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }",
                descr, rows, cols);
  size_t dl = std::strlen(dict), total = (10 + dl + 1 + 63) / 64 * 64, hl = total - 10;
  std::string head("\x93NUMPY\x01\x00", 8);
  head += char(hl & 0xff);
  head += char(hl >> 8);
  head += dict;
  head.append(total - 1 - head.size(), ' ');
  head += '\n';
  FILE *f = std::fopen(path, "wb");
  if (!f)
    return false;
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size() &&
            std::fwrite(data, 1, bytes, f) == bytes;
  return std::fclose(f) == 0 && ok;
}

int main(int argc, char **argv)
{
  if (argc != 5) {
    std::fprintf(stderr, "usage: ts_cvref IN.png GREY.png BLUR.npy INTEGRAL.npy\n");
    return 2;
  }
  png_image img;
  std::memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, argv[1])) {
    std::fprintf(stderr, "ts_cvref: %s: %s\n", argv[1], img.message);
    return 2;
  }
  img.format = PNG_FORMAT_GRAY;
  cv::Mat src((int)img.height, (int)img.width, CV_8UC1);
  if (!png_image_finish_read(&img, nullptr, src.data, (png_int_32)src.step, nullptr)) {
    std::fprintf(stderr, "ts_cvref: %s: %s\n", argv[1], img.message);
    return 2;
  }
  if (!png_image_write_to_file(&img, argv[2], 0, src.data, (png_int_32)src.step, nullptr)) {
    std::fprintf(stderr, "ts_cvref: %s: %s\n", argv[2], img.message);
    return 1;
  }
  cv::ocl::setUseOpenCL(false); // the CPU results
  cv::Mat blur, sum;
  cv::blur(src, blur, cv::Size(3, 3));
  cv::integral(src, sum, CV_32S);
  if (!write_npy(argv[3], "|u1", blur.rows, blur.cols, blur.data, blur.total()) ||
      !write_npy(argv[4], "<i4", sum.rows, sum.cols, sum.data, sum.total() * 4)) {
    std::fprintf(stderr, "ts_cvref: could not write %s or %s\n", argv[3], argv[4]);
    return 1;
  }
  return 0;
}

// OpenCV's box 3x3, Gaussian 5x5 and integral image timed on the same image sizes as
// `tilescope bench`, for tools/compare-opencv.sh. C++ because OpenCV's API is C++ only; built
// only where OpenCV's core and imgproc headers are installed (Debian: libopencv-imgproc-dev),
// and no part of tilescope itself. Borders replicate, as tilescope's kernels clamp.
// usage: ts_cvbench WxH CHANNELS REPEATS THREADS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

template <class F> static double median_ms(int repeats, F f)
{
  std::vector<double> t;
  for (int i = 0; i < repeats + 2; i++) {
    auto a = std::chrono::steady_clock::now();
    f();
    auto b = std::chrono::steady_clock::now();
    if (i >= 2) // two warm-ups, as tilescope bench
      t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[(t.size() - 1) / 2];
}

int main(int argc, char **argv)
{
  int w, h;
  if (argc != 5 || std::sscanf(argv[1], "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
    std::fprintf(stderr, "usage: ts_cvbench WxH CHANNELS REPEATS THREADS\n");
    return 2;
  }
  int c = std::atoi(argv[2]), repeats = std::atoi(argv[3]), threads = std::atoi(argv[4]);
  if ((c != 1 && c != 3) || repeats < 1 || threads < 1) {
    std::fprintf(stderr, "ts_cvbench: channels 1 or 3, repeats and threads from 1\n");
    return 2;
  }
  cv::setNumThreads(threads);
  cv::Mat src(h, w, c == 1 ? CV_8UC1 : CV_8UC3), dst, grey, sums;
  cv::randu(src, 0, 256);
  if (c == 3)
    cv::cvtColor(src, grey, cv::COLOR_BGR2GRAY);
  else
    grey = src;
  double box = median_ms(repeats, [&] { cv::blur(src, dst, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_REPLICATE); });
  double gauss = median_ms(repeats, [&] { cv::GaussianBlur(src, dst, cv::Size(5, 5), 0, 0, cv::BORDER_REPLICATE); });
  double integral = median_ms(repeats, [&] { cv::integral(grey, sums, CV_32S); });
  std::printf("{\"opencv\": \"%s\", \"threads\": %d, \"box\": %.4f, \"gauss\": %.4f, \"integral\": %.4f}\n",
              CV_VERSION, cv::getNumThreads(), box, gauss, integral);
  return 0;
}

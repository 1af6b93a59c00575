// Halide's box 3x3 and Gaussian 5x5, JIT-compiled for this CPU under several schedules and
// timed on the image sizes of `tilescope bench`, for tools/compare-halide.sh. Each pipeline
// computes tilescope's own filter (edges clamped; the box as (float)sum * 0.111f truncated,
// the Gaussian with tilescope's 16-bit weights, rounded) and is checked bit for bit against
// tilescope's scalar reference before it is timed. C++ because Halide's API is C++ only;
// built only where Debian's libhalide14-0-dev is installed, and no part of tilescope itself.
// usage: ts_halidebench WxH CHANNELS REPEATS THREADS [SCHEDULES]
// SCHEDULES: names as the JSON gives them, separated by ';': only those are compiled and
// timed (each JIT compile takes seconds; tools/compare-rounds.sh passes round 1's best).
#include <Halide.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// tilescope's Gaussian weights (core/variants/variants_gauss.c), declared here as the core's
// headers are C11 (stdatomic) and not C++: TS_OK is 0, and err is a ts_error to fill.
extern "C" int ts_gauss_weights(int ksize, double sigma, uint32_t *w, void *err);

// tilescope's scalar references (core/variants/ts_ref.c), the same loops in C++.
static uint8_t px(const std::vector<uint8_t> &im, int w, int h, int ch, int x, int y, int c)
{
  x = x < 0 ? 0 : x >= w ? w - 1 : x;
  y = y < 0 ? 0 : y >= h ? h - 1 : y;
  return im[((size_t)y * w + x) * ch + c];
}

static std::vector<uint8_t> ref_filter(const std::vector<uint8_t> &im, int w, int h, int ch,
                                       const uint32_t *gw)
{
  std::vector<uint8_t> o(im.size());
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < ch; c++) {
        uint32_t s = 0;
        if (!gw) {
          for (int j = -1; j <= 1; j++)
            for (int i = -1; i <= 1; i++)
              s += px(im, w, h, ch, x + i, y + j, c);
          o[((size_t)y * w + x) * ch + c] = (uint8_t)((float)s * 0.111f);
        } else {
          for (int j = -2; j <= 2; j++)
            for (int i = -2; i <= 2; i++)
              s += gw[i + 2] * gw[j + 2] * px(im, w, h, ch, x + i, y + j, c);
          o[((size_t)y * w + x) * ch + c] = (uint8_t)((s + 32768u) >> 16);
        }
      }
  return o;
}

using namespace Halide;

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

struct schedule_result {
  std::string name;
  double ms;
  bool exact;
};

// One filter under one schedule: the pipeline's algorithm is the same for every schedule.
// in(c, x, y): channels innermost, as tilescope's interleaved images.
static Func box_algorithm(Buffer<uint8_t> &in, Func &rows)
{
  Var c("c"), x("x"), y("y");
  Func clamped = BoundaryConditions::repeat_edge(in);
  rows = Func("rows");
  rows(c, x, y) = cast<uint16_t>(clamped(c, x - 1, y)) + clamped(c, x, y) + clamped(c, x + 1, y);
  Func out("box");
  out(c, x, y) = cast<uint8_t>(cast<float>(rows(c, x, y - 1) + rows(c, x, y) + rows(c, x, y + 1)) *
                               0.111f);
  return out;
}

static Func gauss_algorithm(Buffer<uint8_t> &in, const uint32_t *w, Func &rows)
{
  Var c("c"), x("x"), y("y");
  Func clamped = BoundaryConditions::repeat_edge(in);
  rows = Func("grows");
  Expr r = cast<uint32_t>(0);
  for (int i = -2; i <= 2; i++)
    r += Expr(w[i + 2]) * cast<uint32_t>(clamped(c, x + i, y));
  rows(c, x, y) = r;
  Expr s = cast<uint32_t>(0);
  for (int j = -2; j <= 2; j++)
    s += Expr(w[j + 2]) * rows(c, x, y + j);
  Func out("gauss");
  out(c, x, y) = cast<uint8_t>((s + Expr(32768u)) >> 16);
  return out;
}

// The schedules: rows inline; computed per strip of output rows, vectorised along x and
// parallel over strips; or per tile of 256 columns (Halide's own blur example); the
// interleaved channels are unrolled (bound to C).
static void schedule(Func &out, Func &rows, int channels, int kind, int strip, int vec)
{
  Var c = out.args()[0], x = out.args()[1], y = out.args()[2], yo("yo"), yi("yi");
  out.bound(c, 0, channels).reorder(c, x, y).unroll(c);
  if (kind == 0) { // everything inline, vectorised, parallel rows
    out.vectorize(x, vec).parallel(y);
  } else if (kind == 2) { // the classic blur schedule: tiles of 256 x `strip`, rows per tile
    Var xo("xo"), xi("xi");
    out.tile(x, y, xo, yo, xi, yi, 256, strip).parallel(yo).vectorize(xi, vec);
    rows.compute_at(out, xo).bound(c, 0, channels).reorder(c, x, y).unroll(c).vectorize(x, vec);
  } else { // rows per strip of `strip` output rows, then the strips in parallel
    out.split(y, yo, yi, strip).parallel(yo).vectorize(x, vec);
    rows.compute_at(out, yi).store_at(out, yo).bound(c, 0, channels).reorder(c, x, y).unroll(c)
        .vectorize(x, vec);
  }
}

int main(int argc, char **argv)
{
  int w, h;
  if ((argc != 5 && argc != 6) || std::sscanf(argv[1], "%dx%d", &w, &h) != 2) {
    std::fprintf(stderr, "usage: ts_halidebench WxH CHANNELS REPEATS THREADS [SCHEDULES]\n");
    return 2;
  }
  if (w < 32 || h < 8) { // the inline schedule's 32-byte vectors and the 8-row strips fit
    std::fprintf(stderr, "ts_halidebench: %dx%d: the image must be at least 32x8\n", w, h);
    return 2;
  }
  int ch = std::atoi(argv[2]), repeats = std::atoi(argv[3]), threads = std::atoi(argv[4]);
  if ((ch != 1 && ch != 3) || repeats < 1 || threads < 1) {
    std::fprintf(stderr, "ts_halidebench: channels 1 or 3, repeats and threads from 1\n");
    return 2;
  }
  setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
  std::vector<uint8_t> img((size_t)w * h * ch);
  std::mt19937 rng(1);
  for (auto &b : img)
    b = (uint8_t)rng();
  uint32_t gw[16];
  alignas(16) char err[4096] = {};
  if (ts_gauss_weights(5, 0, gw, err) != 0) {
    std::fprintf(stderr, "ts_halidebench: no Gaussian weights\n");
    return 2;
  }
  std::vector<uint8_t> ref_box = ref_filter(img, w, h, ch, nullptr),
                       ref_gauss = ref_filter(img, w, h, ch, gw);
  Buffer<uint8_t> in(img.data(), ch, w, h), out(ch, w, h);
  // This CPU's target (or HL_JIT_TARGET's), and where it has AVX-512 the same without it:
  // Halide's AVX-512 code is not always its fastest, and its best is what tilescope is
  // measured against. HL_JIT_TARGET=x86-64-linux-avx-avx2-f16c-fma-sse41 times it for AVX2.
  Target target = get_jit_target_from_environment();
  std::vector<std::pair<Target, const char *>> targets = { { target, "" } };
  const Target::Feature avx512[] = { Target::AVX512, Target::AVX512_KNL, Target::AVX512_Skylake,
                                     Target::AVX512_Cannonlake, Target::AVX512_SapphireRapids };
  if (target.has_feature(Target::AVX512_Skylake) && target.has_feature(Target::AVX2)) {
    Target t = target;
    for (Target::Feature f : avx512)
      t = t.without_feature(f);
    targets.push_back({ t, ", no AVX-512" });
  }
  std::printf("{\"halide\": \"14\", \"target\": \"%s\", \"threads\": %d",
              target.to_string().c_str(), threads);
  for (int filter = 0; filter < 2; filter++) {
    std::vector<schedule_result> results;
    const std::vector<uint8_t> &ref = filter == 0 ? ref_box : ref_gauss;
    // (the ones that were fastest in a first sweep of strips 8 to 128 and vectors of 16 to
    // 64 bytes, on the 2-core EPYC; each JIT compile takes seconds)
    for (const auto &tg : targets) {
      for (int kind = 0; kind < 3; kind++)
        for (int strip : { 8, 32 })
          for (int vec : { 16, 32 }) {
            if (kind == 0 && (strip != 8 || vec != 32))
              continue; // the inline schedule has no strip
            if (w < vec || h < strip || (kind == 2 && w < 256))
              continue; // a tile or vector larger than the image: Halide would shift it out
            char name[64];
            std::snprintf(name, sizeof name, "%s, %d rows, vector %d%s",
                          kind == 0 ? "inline" : kind == 1 ? "rows per strip" : "256-wide tiles",
                          kind == 0 ? 1 : strip, vec, tg.second);
            if (argc == 6 && (";" + std::string(argv[5]) + ";").find(";" + std::string(name) + ";") ==
                                 std::string::npos)
              continue;
            Func rows;
            Func f = filter == 0 ? box_algorithm(in, rows) : gauss_algorithm(in, gw, rows);
            schedule(f, rows, ch, kind, strip, vec);
            f.compile_jit(tg.first);
            f.realize(out);
            bool exact = std::memcmp(out.data(), ref.data(), ref.size()) == 0;
            double ms = median_ms(repeats, [&] { f.realize(out); });
            results.push_back({ name, ms, exact });
          }
    }
    std::printf(", \"%s\": [", filter == 0 ? "box" : "gauss");
    for (size_t i = 0; i < results.size(); i++)
      std::printf("%s{\"schedule\": \"%s\", \"ms\": %.4f, \"exact\": %s}", i ? ", " : "",
                  results[i].name.c_str(), results[i].ms, results[i].exact ? "true" : "false");
    std::printf("]");
  }
  std::printf("}\n");
  return 0;
}

/* Reads an animated GIF back with giflib and checks what `tilescope shot -o OUT.gif` promises:
 * it decodes whole, has the expected number of frames and size, one global palette, a loop,
 * a delay on every frame, every frame inside the screen. Optionally composes frame N (each
 * frame drawn over the ones before, transparent pixels keeping what was there) and writes it
 * as a PNG, to compare with a shot of the same tick or to look at; with STRIP, also counts the
 * caption's pixels (near white) in the bottom STRIP rows of frame N (a script's `caption`).
 * usage: gifcheck FILE.gif FRAMES WIDTH HEIGHT [N OUT.png [STRIP]] */
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_image.h"

static int fail(const char *path, const char *msg)
{
  fprintf(stderr, "gifcheck: %s: %s\n", path, msg);
  return 1;
}

int main(int argc, char **argv)
{
  if (argc != 5 && argc != 7 && argc != 8) {
    fprintf(stderr, "usage: gifcheck FILE.gif FRAMES WIDTH HEIGHT [N OUT.png [STRIP]]\n");
    return 2;
  }
  const char *path = argv[1];
  int want = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);
  int shown = argc >= 7 ? atoi(argv[5]) : -1, strip = argc == 8 ? atoi(argv[7]) : -1;
  int e = 0;
  GifFileType *g = DGifOpenFileName(path, &e);
  if (!g)
    return fail(path, GifErrorString(e));
  char msg[200];
  int rc = 1;
  if (DGifSlurp(g) != GIF_OK) {
    fail(path, GifErrorString(g->Error));
    goto out;
  }
  if (g->ImageCount != want || g->SWidth != w || g->SHeight != h || !g->SColorMap) {
    snprintf(msg, sizeof msg, "%d frames of %dx%d%s, expected %d of %dx%d", g->ImageCount,
             g->SWidth, g->SHeight, g->SColorMap ? "" : " without a global palette", want, w, h);
    fail(path, msg);
    goto out;
  }
  /* giflib files the blocks before an image under that image. */
  int loop = 0;
  const SavedImage *first = &g->SavedImages[0];
  for (int i = 0; i < first->ExtensionBlockCount; i++)
    loop |= first->ExtensionBlocks[i].Function == APPLICATION_EXT_FUNC_CODE &&
            first->ExtensionBlocks[i].ByteCount == 11 &&
            memcmp(first->ExtensionBlocks[i].Bytes, "NETSCAPE2.0", 11) == 0;
  if (!loop) {
    fail(path, "no NETSCAPE2.0 loop block");
    goto out;
  }
  ts_image *canvas = NULL;
  if (ts_image_create(w, h, 3, &canvas, NULL) != TS_OK) {
    fail(path, "out of memory");
    goto out;
  }
  for (int i = 0; i < g->ImageCount; i++) {
    const SavedImage *im = &g->SavedImages[i];
    const GifImageDesc *d = &im->ImageDesc;
    GraphicsControlBlock gcb;
    if (d->Left < 0 || d->Top < 0 || d->Width < 1 || d->Height < 1 || d->Left + d->Width > w ||
        d->Top + d->Height > h || d->ColorMap ||
        DGifSavedExtensionToGCB(g, i, &gcb) != GIF_OK || gcb.DelayTime < 1) {
      snprintf(msg, sizeof msg, "frame %d: outside the screen, with a palette of its own, or "
               "without a delay", i);
      fail(path, msg);
      ts_image_destroy(canvas);
      goto out;
    }
    for (int y = 0; y < d->Height && i <= shown; y++)
      for (int x = 0; x < d->Width; x++) {
        int c = im->RasterBits[(size_t)y * d->Width + x];
        if (c == gcb.TransparentColor)
          continue;
        const GifColorType *p = &g->SColorMap->Colors[c];
        uint8_t *o = canvas->data + ((size_t)(d->Top + y) * w + d->Left + x) * 3;
        o[0] = p->Red;
        o[1] = p->Green;
        o[2] = p->Blue;
      }
  }
  ts_error err = { 0 };
  if (shown >= 0 && ts_image_save_png(argv[6], canvas, &err) != TS_OK) {
    fail(path, err.msg);
    ts_image_destroy(canvas);
    goto out;
  }
  if (strip > 0) {
    long text = 0;
    for (int y = h - strip < 0 ? 0 : h - strip; y < h; y++)
      for (int x = 0; x < w; x++) {
        const uint8_t *o = canvas->data + ((size_t)y * w + x) * 3;
        text += o[0] > 200 && o[1] > 200 && o[2] > 200;
      }
    printf("frame %d: %ld caption pixels in its bottom %d rows\n", shown, text, strip);
  }
  ts_image_destroy(canvas);
  printf("%s: %d frames of %dx%d, %d palette entries\n", path, g->ImageCount, w, h,
         g->SColorMap->ColorCount);
  rc = 0;
out:
  DGifCloseFile(g, &e);
  return rc;
}

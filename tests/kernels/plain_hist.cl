// A histogram of the input's first channel: 256 bins, one row, each work-item counting its
// pixel with an atomic. Its output is a row, not an image: the window draws it as a bar
// chart (golden plain_histogram).
// tilescope: buffer img type=uchar shape=W,H channels=C role=input
// tilescope: buffer bins type=uint shape=256 role=output init=zero map=normalised
// tilescope: pass global=W,H local=16,16 img=img bins=bins
__kernel void hist(__global const uchar *img, __global uint *bins, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x < W && y < H)
    atomic_inc(&bins[img[(y * W + x) * C]]);
}

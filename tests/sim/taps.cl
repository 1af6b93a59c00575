// A 5-tap filter whose weights sit in a private array, with the tap loop one too long: the
// last tap reads past the array.
__kernel void taps(__global const float *in, __global float *out, int n)
{
  float w[5];
  for (int t = 0; t < 5; t++)
    w[t] = (3 - abs(t - 2)) / 9.0f;
  int i = get_global_id(0);
  float sum = 0;
  for (int t = 0; t <= 5; t++)
    sum += w[t] * in[clamp(i + t - 2, 0, n - 1)];
  out[i] = sum;
}

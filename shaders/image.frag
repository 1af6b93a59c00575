// An image pane: the image (nearest texel), a pixel grid when zoomed in, and the thread-space
// overlay drawn from two per-thread textures, one texel per thread (u_states' byte is added
// to u_threads' alpha):
//   r = dispatch index, g = depth, b = slot, a = state (0 pending, 1 waiting, 2 running,
//   3 done) + 4 when the thread has a hazard + 8 x what the observation flags in it (bits:
//   1 read outside its footprint, 2 wrote outside its rectangle, 4 write conflict, 8
//   observed hazard) + 128 when the run was observed at all.
// In the device view the same texels hold the device's record at the device time:
//   r = observed start order, g = time spent waiting, b = compute unit or lane, a = state
//   + 4 for a wrong tile (its output differs from the reference) + 8 for a look-back group
//   whose aggregate is out and that has not finished (its state is then running); the output
//   is masked where tiles had not finished, and finished wrong tiles are hatched in red.
#version 330 core
in vec2 v_screen;
out vec4 o_color;

uniform sampler2D u_image;
uniform vec2 u_image_size;
uniform vec2 u_origin;      // screen position of the image's top-left corner
uniform float u_zoom;       // screen pixels per image pixel
uniform vec4 u_clip;        // pane rectangle (x0, y0, x1, y1)
uniform int u_overlay;      // 0 none, 1 state, 2 dispatch order, 3 depth, 4 slot, 5 observed
uniform sampler2D u_threads;
uniform usampler2D u_states;  // each thread's state (0..3), added to u_threads' alpha
uniform vec2 u_space;       // thread space TW, TH
uniform vec2 u_tile;        // a thread's tile in image pixels
uniform int u_transposed;   // thread (x, y) owns the tile at (y * tile.x, x * tile.y)
uniform vec3 u_norm;        // largest dispatch index, depth and slot, for the ramps
uniform int u_tile_grid;
uniform float u_alpha;      // overlay opacity
uniform vec2 u_hover;       // hovered thread, or (-1, -1)
uniform int u_device;       // the device view: hatch finished wrong tiles
uniform int u_mask;         // 0 none, 1 mask tiles not done, 2 mask the whole image

// A ramp from deep blue through teal and green to yellow: ordered, and readable on both
// the dark and the light parts of an image.
vec3 ramp(float t)
{
  t = clamp(t, 0.0, 1.0);
  vec3 c0 = vec3(0.18, 0.05, 0.45), c1 = vec3(0.12, 0.35, 0.75), c2 = vec3(0.10, 0.65, 0.62);
  vec3 c3 = vec3(0.45, 0.82, 0.30), c4 = vec3(0.99, 0.90, 0.15);
  if (t < 0.25) return mix(c0, c1, t / 0.25);
  if (t < 0.5) return mix(c1, c2, (t - 0.25) / 0.25);
  if (t < 0.75) return mix(c2, c3, (t - 0.5) / 0.25);
  return mix(c3, c4, (t - 0.75) / 0.25);
}

vec3 hue(float h)
{
  vec3 k = vec3(5.0, 3.0, 1.0);
  vec3 p = abs(mod(k + h * 6.0, 6.0) - 3.0) - 1.0;
  return clamp(p, 0.0, 1.0) * 0.75 + 0.2;
}

// What is not there yet: dark, with faint diagonal lines, so it reads as "not yet" and not as
// a black output.
vec3 masked(vec3 c)
{
  float line = mod(v_screen.x + v_screen.y, 12.0) < 1.0 ? 0.05 : 0.0;
  return mix(c, vec3(0.10, 0.11, 0.13), 0.93) + line;
}

void main()
{
  if (v_screen.x < u_clip.x || v_screen.y < u_clip.y || v_screen.x >= u_clip.z || v_screen.y >= u_clip.w)
    discard;
  vec2 p = (v_screen - u_origin) / u_zoom;
  if (p.x < 0.0 || p.y < 0.0 || p.x >= u_image_size.x || p.y >= u_image_size.y)
    discard;
  // Magnified or 1:1: the texel itself, sharp. Minified: the mipmaps, trilinear, at the
  // level the zoom asks for, so that detail finer than a screen pixel averages out instead
  // of aliasing.
  vec3 c = u_zoom >= 1.0 ? texelFetch(u_image, ivec2(p), 0).rgb
                         : textureLod(u_image, p / u_image_size, log2(1.0 / u_zoom)).rgb;
  if (u_mask == 2)
    c = masked(c);

  if (u_overlay > 0 || u_device != 0) {
    vec2 t = u_transposed != 0 ? vec2(floor(p.y / u_tile.y), floor(p.x / u_tile.x))
                               : vec2(floor(p.x / u_tile.x), floor(p.y / u_tile.y));
    if (t.x < u_space.x && t.y < u_space.y) {
      vec4 th = texelFetch(u_threads, ivec2(t), 0);
      th.a += float(texelFetch(u_states, ivec2(t), 0).r);
      float state = mod(th.a, 4.0);
      bool published = u_device != 0 && mod(floor(th.a / 8.0), 2.0) == 1.0;
      // A device tile is known wrong only once it has finished.
      bool hazard = mod(th.a, 8.0) >= 4.0 && state >= (u_device != 0 ? 3.0 : 2.0);
      if (u_mask == 1 && state < 3.0)
        c = masked(c);
      vec3 oc = c;
      float a = u_overlay > 0 ? u_alpha : 0.0;
      if (u_overlay == 1) {
        // A wrong tile keeps its done colour under the hatch, so its pixels stay readable.
        if (hazard && u_device == 0) oc = vec3(0.95, 0.10, 0.10);
        else if (state == 0.0) { oc = vec3(0.0); a = u_alpha * 0.6; }
        else if (state == 1.0) oc = vec3(1.00, 0.62, 0.05);
        else if (state == 2.0 && published) oc = vec3(0.10, 0.80, 0.78);
        else if (state == 2.0) oc = vec3(0.15, 0.95, 0.25);
        else { oc = vec3(0.25, 0.45, 0.95); a = u_alpha * 0.5; }
      } else if (u_overlay == 2) {
        oc = ramp(th.r / max(u_norm.x, 1.0));
      } else if (u_overlay == 3) {
        oc = ramp(th.g / max(u_norm.y, 1.0));
      } else if (u_overlay == 4) {
        oc = hue(fract(th.b * 0.61803399));
      } else {
        // Observed: each flag its colour; a thread with several has diagonal stripes of them.
        int f = int(floor(th.a / 8.0));
        bool observed = f >= 16;
        f = f - (observed ? 16 : 0);
        const vec3 cols[4] = vec3[4](vec3(0.95, 0.20, 0.85), vec3(1.00, 0.55, 0.05),
                                     vec3(0.10, 0.85, 0.85), vec3(0.95, 0.10, 0.10));
        int n = 0;
        for (int i = 0; i < 4; i++)
          n += (f >> i) & 1;
        if (n == 0) {
          oc = vec3(0.0);
          a = observed ? u_alpha * 0.5 : 0.0;
        } else {
          int k = int(mod(floor((v_screen.x + v_screen.y) / 10.0), float(n)));
          for (int i = 0; i < 4; i++)
            if (((f >> i) & 1) != 0) {
              if (k == 0) oc = cols[i];
              k--;
            }
          a = 0.7;
        }
      }
      c = mix(c, oc, a);
      if (u_device != 0 && hazard) {
        vec2 tp = fract(p / u_tile);
        vec2 d = min(tp, 1.0 - tp) * u_tile * u_zoom;
        if (mod(v_screen.x - v_screen.y, 9.0) < 2.0 || min(d.x, d.y) < 1.5)
          c = vec3(0.95, 0.10, 0.10);
      }
      if (t == u_hover && u_overlay > 0)
        c = mix(c, vec3(1.0), 0.25);
    }
    if (u_tile_grid != 0) {
      vec2 tp = p / u_tile;
      vec2 d = min(fract(tp), 1.0 - fract(tp)) * u_tile * u_zoom;
      if (min(d.x, d.y) < 0.5 && min(u_tile.x, u_tile.y) * u_zoom >= 6.0)
        c = mix(c, vec3(0.0), 0.55);
    }
  }
  if (u_zoom >= 16.0) {
    vec2 f = fract(p) * u_zoom;
    if (f.x < 1.0 || f.y < 1.0)
      c = mix(c, vec3(0.5), 0.6);
  }
  o_color = vec4(c, 1.0);
}

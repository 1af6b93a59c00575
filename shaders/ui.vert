// Panels, lines, arrows and text: one batch of screen-space triangles.
#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec2 a_uv;   // glyph atlas coordinate, or (-1, -1) for a flat colour
layout(location = 2) in vec4 a_color;
uniform vec2 u_screen;
out vec2 v_uv;
out vec4 v_color;

void main()
{
  v_uv = a_uv;
  v_color = a_color;
  vec2 ndc = a_pos / u_screen * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}

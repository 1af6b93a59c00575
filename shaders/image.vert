// Image panes: a screen-space quad; the fragment shader maps each screen pixel to an image
// pixel through the pane's origin and zoom.
#version 330 core
layout(location = 0) in vec2 a_pos; // screen pixels, origin top-left
uniform vec2 u_screen;
out vec2 v_screen;

void main()
{
  v_screen = a_pos;
  vec2 ndc = a_pos / u_screen * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}

// Flat colour, or a glyph's coverage from the font atlas times the colour.
#version 330 core
in vec2 v_uv;
in vec4 v_color;
out vec4 o_color;
uniform sampler2D u_atlas;

void main()
{
  float a = v_uv.x < 0.0 ? 1.0 : texture(u_atlas, v_uv).r;
  o_color = vec4(v_color.rgb, v_color.a * a);
}

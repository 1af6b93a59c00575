# Turns the exported page's files into C strings at build time (app/CMakeLists.txt runs it):
# ts_web_html (HTML), ts_web_css (CSS) and ts_web_js (the scripts, in order, one after the
# other). Arguments: -DOUT=file.c -DHTML=file -DCSS=file -DJS=a.js|b.js|...
# Bytes rather than string literals: a page's script is longer than C promises a literal.
function(ts_embed name files)
  set(hex "")
  foreach(f IN LISTS files)
    file(READ "${f}" h HEX)
    string(APPEND hex "${h}0a")
  endforeach()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
  set(code "${code}extern const char ${name}[];\nconst char ${name}[] = {\n${body}0x00 };\n" PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" js_files "${JS}")
set(code "/* Made by app/web/embed.cmake from app/web/: do not edit. */\n")
ts_embed(ts_web_html "${HTML}")
ts_embed(ts_web_css "${CSS}")
ts_embed(ts_web_js "${js_files}")
file(WRITE "${OUT}.tmp" "${code}")
file(RENAME "${OUT}.tmp" "${OUT}")

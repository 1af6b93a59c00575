#!/usr/bin/env bash
# Kernels as libraries ship them, from the command line: a kernel file with no tilescope
# lines run from a launch file beside it (--launch), its typed output written as NumPy
# (--raw) and compared (--expect REF.npy, and a PNG of the output as shown), the exit codes
# and one-line messages of a launch that is wrong (a constant that does not fit its
# argument's type, a struct by value, a work-group too large to observe), and a kernel
# launched outside its contract failing with its findings. Also: a kernel's printf on stderr
# (stdout stays JSON under --json), and #include of a header beside the kernel file.
# usage: launch.sh TILESCOPE SOURCE_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # python3 itself (lib.sh)
ts=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
if ! "$ts" list 2>/dev/null | grep -q "^  0: "; then
  [[ ${CI:-} == true ]] && { echo "no OpenCL device in CI"; exit 1; }
  echo "skipped: no OpenCL device"; exit 77
fi
k=$src/tests/kernels
# grey_png W H A B FILE: a grey PNG whose pixel (x, y) is (A x + B y) mod 256
grey_png() {
  python3 - "$@" <<'PY'
import struct, sys, zlib
w, h, a, b = (int(v) for v in sys.argv[1:5])
raw = b''.join(b'\0' + bytes((x * a + y * b) & 255 for x in range(w)) for y in range(h))
chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
open(sys.argv[5], 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
                              + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
PY
}

# The integral (its own lines): typed sums out, the same sums back in as the reference.
"$ts" run --kernel-file "$k/lib_integral.cl" --raw "$tmp/sum.npy" -o "$tmp/sum.png" >"$tmp/out" 2>&1
rc=$?
check "integral: exit 0 ($rc: $(cat "$tmp/out"))" test $rc -eq 0
check "  says the output's shape and mapping" grep -q "^output: 641x481, 1 channel of 4-byte signed integers, shown normalised: [0-9]* is 255$" "$tmp/out"
check "  --raw: a (481, 641) int32 array" bash -c "head -c 128 '$tmp/sum.npy' | grep -aq \"'descr': '<i4', 'fortran_order': False, 'shape': (481, 641), }\""
"$ts" run --kernel-file "$k/lib_integral.cl" --observe --expect "$tmp/sum.npy" >"$tmp/out" 2>&1
rc=$?
check "  observed, equals its own --raw ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals .*sum.npy$' '$tmp/out'"
"$ts" run --kernel-file "$k/lib_integral.cl" --expect "$tmp/sum.png" >"$tmp/out" 2>&1
check "  and the PNG of it as shown ($?)" grep -q "^output equals" "$tmp/out"
# one value changed: exit 1 and where
python3 - "$tmp/sum.npy" "$tmp/bad.npy" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[-4] ^= 1  # the last sum
open(sys.argv[2], 'wb').write(d)
PY
"$ts" run --kernel-file "$k/lib_integral.cl" --expect "$tmp/bad.npy" >"$tmp/out" 2>&1
rc=$?
check "  a reference one sum off: exit 1 ($rc)" test $rc -eq 1
check "  names the first difference ($(tail -1 "$tmp/out"))" \
  grep -q "^output differs from .*bad.npy: first at pixel (640,480) channel 0$" "$tmp/out"

# A 16-bit PNG holds values: the sums of a 15x16 image (at most 61200) against one.
grey_png 15 16 37 11 "$tmp/small.png"
"$ts" run --kernel-file "$k/lib_integral.cl" -i "$tmp/small.png" --raw "$tmp/small.npy" >/dev/null 2>&1
python3 - "$tmp/small.npy" "$tmp/sum16.png" "$tmp/sum16bad.png" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
hl = d[8] | d[9] << 8
v = struct.unpack('<%di' % ((len(d) - 10 - hl) // 4), d[10 + hl:])
w, h = 16, 17
def png16(vals, path):
    raw = b''.join(b'\0' + b''.join(struct.pack('>H', vals[y * w + x]) for x in range(w)) for y in range(h))
    chunk = lambda t, c: struct.pack('>I', len(c)) + t + c + struct.pack('>I', zlib.crc32(t + c))
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 0, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
png16(v, sys.argv[2])
png16(v[:-1] + (v[-1] - 1,), sys.argv[3])
PY
"$ts" run --kernel-file "$k/lib_integral.cl" -i "$tmp/small.png" --expect "$tmp/sum16.png" >"$tmp/out" 2>&1
rc=$?
check "sums against a 16-bit PNG of them: exit 0 ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals .*sum16.png$' '$tmp/out'"
"$ts" run --kernel-file "$k/lib_integral.cl" -i "$tmp/small.png" --expect "$tmp/sum16bad.png" >"$tmp/out" 2>&1
rc=$?
check "  one value off: exit 1 and where ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 1 ]] && grep -q '^output differs from .*sum16bad.png: first at pixel (15,16) channel 0: [0-9]* where it has [0-9]*$' '$tmp/out'"

# The box from its launch file, and outside its contract.
"$ts" run --kernel-file "$k/lib_box16.cl" --launch "$k/lib_box16.launch" --observe >"$tmp/out" 2>&1
rc=$?
check "box from a launch file: exit 0, no finding ($rc: $(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q '^observed: no finding' '$tmp/out'"
grey_png 40 31 7 13 "$tmp/g40x31.png" # a width no multiple of 16, an odd height
"$ts" run --kernel-file "$k/lib_box16.cl" --launch "$k/lib_box16.launch" --observe -i "$tmp/g40x31.png" \
  --pass 'entry=box16x2 options="-D REPLICATE -D SCALE" global=(W+15)/16,(H+1)/2 src_step=W dst_step=W rows=H cols=W alpha=1/9.0' \
  >"$tmp/out" 2>&1
rc=$?
check "box outside its contract: exit 1 ($rc)" test $rc -eq 1
check "  its write past the buffer, at its line" grep -Eq "^lib_box16.cl:53: access outside every buffer \(not performed\) in box16x2: work-group \([0-9]+,0\) item \(0,[0-9]+\) writes dst(\[.*\] at)? pixel \([0-9]+,31\), past its end \(it has 31 rows\)" "$tmp/out"
check "  two groups writing the same bytes" grep -Eq "^lib_box16.cl:5[23]: race between work-groups in box16x2: .* writes dst(\[.*\] at)? pixel \([0-9]+,[0-9]+\), which work-group \([0-9]+,0\) also writes at line 5[23]" "$tmp/out"

# A launch that is wrong: one line naming the file, line and field; exit 2.
printf 'buffer src type=uchar shape=W,H role=input\nbuffer dst type=uchar shape=W,H role=output\npass entry=box16x2 global=W/16,H/2 src_step=W dst=dest dst_step=W rows=H cols=W\n' >"$tmp/bad.launch"
"$ts" run --kernel-file "$k/lib_box16.cl" --launch "$tmp/bad.launch" >"$tmp/out" 2>&1
rc=$?
check "an undeclared buffer: exit 2 ($rc)" test $rc -eq 2
check "  one line ($(cat "$tmp/out"))" bash -c "[[ \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'bad.launch:3: dst: no buffer named .dest. is declared' '$tmp/out'"
"$ts" run --launch "$k/lib_box16.launch" >"$tmp/out" 2>&1
rc=$?
check "--launch without its kernel: exit 2 ($rc: $(cat "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 ]] && grep -q 'give the kernel file it launches (--kernel-file FILE.cl)' '$tmp/out'"

# A kernel whose __local memory fits the device but not once observed (two words beside each
# element): the plain run is made and its output written; --observe fails with one line, exit 2.
# Its array is a quarter of the device's __local memory (tilescope list).
lkib=$("$ts" list | sed -n 's/^  0: .*, \([0-9]*\) KiB local$/\1/p')
cat >"$tmp/bigl.cl" <<CL
// tilescope: plain global=W,H local=16,16
__kernel void bigl(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  __local uchar t[${lkib:-64} * 256];
  int x = get_global_id(0), y = get_global_id(1), l = get_local_id(1) * 16 + get_local_id(0);
  t[l] = in[(y * W + x) * C];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = 0; c < C; c++)
    out[(y * W + x) * C + c] = t[l];
}
CL
"$ts" run --kernel-file "$tmp/bigl.cl" --observe -o "$tmp/bigl.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "__local too large to observe: exit 2 ($rc: $(cat "$tmp/err"))" test $rc -eq 2
check "  one line naming the kernel and both sizes" \
  grep -Eq "^tilescope run: --observe: .*bigl.cl: bigl: observed, it needs [0-9]+ bytes of __local memory a work-group, more than the device's [0-9]+" "$tmp/err"
check "  the plain run's output written" test -s "$tmp/bigl.png"

# Passes with their own build options: each is built with its own. The first XORs with A,
# the second with B; each gets 0x5A for its own and 0 for the other's, so the output is the
# input only when each pass ran with its own set (one set for both would flip every byte).
cat >"$tmp/twoopt.cl" <<'CL'
// tilescope: plain entry=a options="-DA=0x5A -DB=0" tmp=buffer
// tilescope: plain entry=b options="-DA=0 -DB=0x5A" tmp=buffer
__kernel void a(__global const uchar *in, __global uchar *tmp, int W, int H, int C)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  for (int c = 0; c < C; c++)
    tmp[i + c] = in[i + c] ^ A ^ B;
}
__kernel void b(__global const uchar *tmp, __global uchar *out, int W, int H, int C)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  for (int c = 0; c < C; c++)
    out[i + c] = tmp[i + c] ^ A ^ B;
}
CL
for how in "" "--observe"; do
  # shellcheck disable=SC2086
  "$ts" run --kernel-file "$tmp/twoopt.cl" -i "$tmp/g40x31.png" --expect "$tmp/g40x31.png" $how >"$tmp/out" 2>&1
  rc=$?
  check "two passes, two sets of options${how:+, observed}: each its own ($rc: $(tail -1 "$tmp/out"))" \
    bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals .*g40x31.png$' '$tmp/out'"
done

# Options as long as OpenCV's (over 255 characters) are taken whole: the last define is the
# one the kernel uses; a line over 2047 characters is one line naming it.
defs=$(for i in $(seq 40); do printf -- '-D UNUSED_%02d=%d ' "$i" "$i"; done)
printf '__kernel void k(__global const uchar *in, __global uchar *out, int W, int H, int C)\n{\n  int i = (get_global_id(1) * W + get_global_id(0)) * C;\n  for (int c = 0; c < C; c++)\n    out[i + c] = in[i + c] ^ MASK;\n}\n' >"$tmp/longopt.cl"
printf 'buffer src type=uchar shape=W,H channels=C role=input\nbuffer dst type=uchar shape=W,H channels=C role=output\npass entry=k options="%s-D MASK=0" global=W,H in=src out=dst W=W H=H C=C\n' "$defs" >"$tmp/longopt.launch"
"$ts" run --kernel-file "$tmp/longopt.cl" --launch "$tmp/longopt.launch" -i "$tmp/g40x31.png" \
  --expect "$tmp/g40x31.png" --observe >"$tmp/out" 2>&1
rc=$?
check "options of $(( ${#defs} + 9 )) characters: all of them ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals .*g40x31.png$' '$tmp/out'"
sed "s/options=\"/options=\"$(printf -- '-DX%.0s' $(seq 700))/" "$tmp/longopt.launch" >"$tmp/toolong.launch"
"$ts" run --kernel-file "$tmp/longopt.cl" --launch "$tmp/toolong.launch" >"$tmp/out" 2>&1
rc=$?
check "a line over 2047 characters: exit 2, one line ($rc: $(head -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/out') -eq 1 ]] && grep -q 'toolong.launch:3: line: longer than 2047 bytes' '$tmp/out'"

# A second pass that updates the output in place reads what the first wrote: no "read of
# what nothing wrote" (each launch's shadows are its own; the earlier pass's writes count).
cat >"$tmp/inplace.cl" <<'CL'
// tilescope: plain entry=a
// tilescope: plain entry=b
__kernel void a(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  for (int c = 0; c < C; c++)
    out[i + c] = in[i + c];
}
__kernel void b(__global uchar *out, int W, int H, int C)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  for (int c = 0; c < C; c++)
    out[i + c] = 255 - out[i + c];
}
CL
"$ts" run --kernel-file "$tmp/inplace.cl" --observe >"$tmp/out" 2>&1
rc=$?
check "in place over two passes: exit 0 ($rc: $(cat "$tmp/out"))" test $rc -eq 0
check "  no finding" grep -q "^observed: no finding, every access in order$" "$tmp/out"

# A work-item or a pixel to follow that no launch has: one line each, exit 2.
"$ts" run --kernel-file "$tmp/inplace.cl" --observe --observe-thread 99,99:0,0 >"$tmp/out" 2>&1
rc=$?
check "--observe-thread in no launch: exit 2 ($rc)" test $rc -eq 2
check "  says so" grep -q "^tilescope run: --observe-thread '99,99:0,0': no pass has that work-group and work-item (pass 1: 40x30 work-groups of 16x16)$" "$tmp/out"
"$ts" run --kernel-file "$tmp/inplace.cl" --observe --observe-pixel 5000,1 >"$tmp/out" 2>&1
rc=$?
check "--observe-pixel outside the output: exit 2 ($rc)" test $rc -eq 2
check "  says so" grep -q "^tilescope run: --observe-pixel '5000,1': outside the output (640x480)$" "$tmp/out"

# Outputs that are not whole numbers in 0..255 are shown normalised: floats of 0..1, and
# signed values from their least.
cat >"$tmp/sh.cl" <<'CL'
// tilescope: plain out=output(1)
__kernel void sh(__global const uchar *in, __global short *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  out[y * W + x] = in[(y * W + x) * C] - 128;
}
CL
"$ts" run --kernel-file "$tmp/sh.cl" -i "$tmp/g40x31.png" >"$tmp/out" 2>&1
check "a signed output: shown from its least value ($(cat "$tmp/out"))" \
  grep -Eq "^output: 40x31, 1 channel of 2-byte signed integers, shown normalised: -?[0-9]+ is 0, -?[0-9]+ is 255$" "$tmp/out"
sed 's/__global short \*out/__global float *out/; s/ - 128;/ \/ 255.0f;/' "$tmp/sh.cl" >"$tmp/fl.cl"
"$ts" run --kernel-file "$tmp/fl.cl" -i "$tmp/g40x31.png" >"$tmp/out" 2>&1
check "a float output of 0..1: normalised ($(cat "$tmp/out"))" \
  grep -Eq "^output: 40x31, 1 channel of 4-byte floats, shown normalised: [0-9.e-]+ is 255$" "$tmp/out"

# Accesses written through macros: one the macro makes from its arguments (AT(p, i) for
# p[i]) is observed; two in one use cannot be told apart, and say so.
cat >"$tmp/macro.cl" <<'CL'
// tilescope: plain global=W,H
#define AT(p, i) p[i]
#define PIX(p, x, y) p[((y) * W + (x)) * C]
__kernel void m(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  for (int c = 1; c < C; c++)
    AT(out, (y * W + x) * C + c) = AT(in, (y * W + x) * C + c);
  PIX(out, x, y) = PIX(in, x, y);
}
CL
"$ts" run --kernel-file "$tmp/macro.cl" --observe >"$tmp/out" 2>&1
rc=$?
check "accesses made by macros from their arguments: observed, exit 0 ($rc: $(cat "$tmp/out"))" test $rc -eq 0
check "  no finding" grep -q "^observed: no finding, every access in order$" "$tmp/out"
printf '// tilescope: plain global=W,H\n#define COPY(d, s, i) d[i] = s[i]\n__kernel void k(__global const uchar *in, __global uchar *out, int W, int H, int C)\n{\n  COPY(out, in, get_global_id(1) * W * C + get_global_id(0) * C);\n}\n' >"$tmp/copy.cl"
"$ts" run --kernel-file "$tmp/copy.cl" --observe >"$tmp/out" 2>&1
rc=$?
check "two accesses in one macro's use: exit 2 ($rc)" test $rc -eq 2
check "  says so at its line" grep -q "^tilescope run: --observe: $tmp/copy.cl:5: COPY makes an access of __global or __local memory out of the parts of its use; tilescope observes each access where its text is" "$tmp/out"

# A 3-D launch is printed and named in three dimensions.
cat >"$tmp/g3.cl" <<'CL'
// tilescope: plain global=W,H,3 local=1,1,1
__kernel void g3(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  out[y * W + x] = in[y * W + x] + get_global_id(2);
}
CL
"$ts" run --kernel-file "$tmp/g3.cl" --observe -i "$tmp/g40x31.png" >"$tmp/out" 2>&1
check "3-D: global and local in three sizes ($(head -3 "$tmp/out"))" grep -q "^  g3: global 40x31x3, local 1x1x1, 3720 work-groups" "$tmp/out"
check "  a work-group named by three coordinates" grep -Eq "work-group \([0-9]+,[0-9]+,[0-9]+\) item \(0,0,0\)" "$tmp/out"

# A kernel's printf goes to stderr, never stdout: under --json, run's and bench's standard
# output stays one JSON object, plain, observed and in tilescope's own process (--isolate
# none), and the printed line is on stderr.
cat >"$tmp/pf.cl" <<'CL'
// tilescope: plain global=W,H
__kernel void pf(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x == 0 && y == 0)
    printf("pf says %d\n", W);
  for (int c = 0; c < C; c++)
    out[(y * W + x) * C + c] = in[(y * W + x) * C + c];
}
CL
for how in "run" "run --observe" "run --isolate none" "bench --size 64x64 --repeats 1"; do
  # shellcheck disable=SC2086
  "$ts" $how --kernel-file "$tmp/pf.cl" --json >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "printf under $how --json: exit 0 ($rc: $(head -3 "$tmp/err"))" test $rc -eq 0
  check "  stdout is the JSON alone ($(head -c 200 "$tmp/out"))" \
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/out"
  check "  the printed line on stderr" grep -Eq "^pf says (640|64)$" "$tmp/err"
done

# Observation names a work-item of its group in 11 bits: a work-group of more than 2047
# work-items (64x64 here, which pocl runs plain) is refused in one line naming the kernel, the
# plain run made, exit 2; 2048 in one dimension too, and 2047 is observed. A device that runs
# no group that large (a GPU's 1024) says so in one line, exit 2: then only that is checked.
cat >"$tmp/wg.cl" <<'CL'
// tilescope: plain global=(W+63)/64*64,(H+63)/64*64 local=64,64
__kernel void wg(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x < W && y < H)
    for (int c = 0; c < C; c++)
      out[(y * W + x) * C + c] = in[(y * W + x) * C + c];
}
CL
"$ts" run --kernel-file "$tmp/wg.cl" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q ": wg: work-groups of 4096 work-items; the device runs this kernel in groups of at most [0-9]* (give a smaller local size)$" "$tmp/err"; then
  check "64x64 work-groups on a device that runs fewer: one line" test "$(wc -l <"$tmp/err")" -eq 1
  echo "note: the device runs no group of 4096 work-items; the observation's 2047 checks did not run"
else
  check "64x64 work-groups, plain: exit 0 ($rc: $(cat "$tmp/out" "$tmp/err"))" \
    bash -c "[[ $rc -eq 0 ]] && grep -q '^  wg: global 640x512, local 64x64, 80 work-groups' '$tmp/out'"
  "$ts" run --kernel-file "$tmp/wg.cl" --observe >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "64x64 work-groups observed: exit 2, the plain run made ($rc)" \
    bash -c "[[ $rc -eq 2 ]] && grep -q '^  wg: global 640x512, local 64x64, 80 work-groups, [0-9.]* ms$' '$tmp/out'"
  check "  one line naming the kernel and 2047 ($(cat "$tmp/err"))" bash -c "[[ \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q '^tilescope run: --observe: .*wg.cl: wg: work-groups of 4096 work-items; observation tells at most 2047 of a group apart' '$tmp/err'"
  "$ts" run --kernel-file "$tmp/wg.cl" --pass 'global=2048,1 local=2048,1' --observe >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "2048 work-items observed: exit 2, one line ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q ': wg: work-groups of 2048 work-items; observation tells at most 2047' '$tmp/err'"
  "$ts" run --kernel-file "$tmp/wg.cl" --pass 'global=2047,1 local=2047,1' --observe >"$tmp/out" 2>&1
  rc=$?
  check "2047 work-items observed: exit 0, no finding ($rc: $(tail -2 "$tmp/out"))" \
    bash -c "[[ $rc -eq 0 ]] && grep -q '^observed: no finding, every access in order$' '$tmp/out'"
fi
# A group larger than the device runs: one line saying so, exit 2 (pocl runs 4096 at most).
"$ts" run --kernel-file "$tmp/wg.cl" --pass 'global=8192,1 local=8192,1' >"$tmp/out" 2>"$tmp/err"
rc=$?
check "8192 work-items a group: exit 2, one line ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q ': wg: work-groups of 8192 work-items; the device runs this kernel in groups of at most [0-9]* (give a smaller local size)$' '$tmp/err'"

# #include "x.h" finds the header beside the kernel file, whatever the current folder:
# plain and observed, with the output the header's function makes.
mkdir -p "$tmp/inc"
cat >"$tmp/inc/inv.h" <<'CL'
#define MAXV 255
uchar invert(uchar v) { return MAXV - v; }
CL
cat >"$tmp/inc/inc.cl" <<'CL'
// tilescope: plain global=W,H
#include "inv.h"
__kernel void inc(__global const uchar *in, __global uchar *out, int W, int H, int C)
{
  int x = get_global_id(0), y = get_global_id(1);
  for (int c = 0; c < C; c++) {
    uchar v = in[(y * W + x) * C + c];
    out[(y * W + x) * C + c] = invert(v);
  }
}
CL
sed 's/invert(v)/255 - v/; /#include/d' "$tmp/inc/inc.cl" >"$tmp/noinc.cl"
"$ts" run --kernel-file "$tmp/noinc.cl" -i "$tmp/g40x31.png" -o "$tmp/inv.png" >/dev/null 2>&1
for obs in "" --observe; do
  # shellcheck disable=SC2086
  (cd "$tmp" && "$ts" run --kernel-file inc/inc.cl $obs -i g40x31.png --expect inv.png) >"$tmp/out" 2>&1
  rc=$?
  check "#include beside the kernel${obs:+, $obs}: exit 0 ($rc: $(tail -2 "$tmp/out"))" \
    bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals inv.png$' '$tmp/out'"
done

# A constant on the launch line is given to the argument as its own type: 4000000000 fits a
# uint (the kernel sees it, and copies its input); 2^32 and -1 do not, nor a fraction, and a
# struct is not a scalar: one line naming the argument, exit 2.
cat >"$tmp/big.cl" <<'CL'
// tilescope: plain global=W,H big=4000000000
__kernel void big(__global const uchar *in, __global uchar *out, int W, int H, int C, uint big)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  for (int c = 0; c < C; c++)
    out[i + c] = big == 4000000000u ? in[i + c] : 0;
}
CL
"$ts" run --kernel-file "$tmp/big.cl" -i "$tmp/g40x31.png" --expect "$tmp/g40x31.png" >"$tmp/out" 2>&1
rc=$?
check "uint big=4000000000: exit 0, the kernel sees it ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals .*g40x31.png$' '$tmp/out'"
for v in 4294967296 -1 1.5; do
  "$ts" run --kernel-file "$tmp/big.cl" --pass "big=$v" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "uint big=$v: exit 2, one line naming it ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q \"^tilescope run: .*big.cl: big: argument 'big' (__private uint): $v is not a whole number in 0..4294967295$\" '$tmp/err'"
done
cat >"$tmp/st.cl" <<'CL'
// tilescope: plain global=W,H g=2
struct pair { int a, b; };
__kernel void st(__global const uchar *in, __global uchar *out, int W, int H, int C, struct pair g)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  out[i] = in[i] * g.a;
}
CL
"$ts" run --kernel-file "$tmp/st.cl" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a struct by value: exit 2, one line naming it ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -q \"^tilescope run: .*st.cl: st: argument 'g' (__private struct pair): a launch line gives scalars only, not a vector or a struct$\" '$tmp/err'"
# The argument's own type, seen through a typedef: an int takes -5 (the kernel sees it) but
# not 4000000000; a typedef'd struct and a float2 are not scalars.
cat >"$tmp/sig.cl" <<'CL'
// tilescope: plain entry=sig global=W,H neg=-5
typedef struct { int a, b; } pair;
__kernel void sig(__global const uchar *in, __global uchar *out, int W, int H, int C, int neg)
{
  int i = (get_global_id(1) * W + get_global_id(0)) * C;
  for (int c = 0; c < C; c++)
    out[i + c] = neg == -5 ? in[i + c] : 0;
}
__kernel void vec(__global const uchar *in, __global uchar *out, int W, int H, float2 v) { }
__kernel void rec(__global const uchar *in, __global uchar *out, int W, int H, pair p) { }
CL
"$ts" run --kernel-file "$tmp/sig.cl" -i "$tmp/g40x31.png" --expect "$tmp/g40x31.png" >"$tmp/out" 2>&1
rc=$?
check "int neg=-5: exit 0, the kernel sees it ($rc: $(tail -1 "$tmp/out"))" \
  bash -c "[[ $rc -eq 0 ]] && grep -q '^output equals .*g40x31.png$' '$tmp/out'"
for pass in "sig neg=4000000000|argument 'neg' (__private int): 4000000000 is not a whole number in -2147483648..2147483647" \
  "vec v=2|argument 'v' (__private float2): a launch line gives scalars only, not a vector or a struct" \
  "rec p=2|argument 'p' (__private pair): a launch line gives scalars only, not a vector or a struct"; do
  set -- ${pass%%|*}
  "$ts" run --kernel-file "$tmp/sig.cl" --pass "entry=$1 $2" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "$1 $2: exit 2, one line naming it ($rc: $(cat "$tmp/err"))" bash -c "[[ $rc -eq 2 && \$(wc -l <'$tmp/err') -eq 1 ]] && grep -qF \"${pass#*|}\" '$tmp/err'"
done

echo "launch.sh: $passes passed, $fails failed"
[[ $fails -eq 0 ]]

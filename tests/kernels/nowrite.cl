// tilescope: variant name=k_nowrite equals=box3
// tilescope: pass entry=k_nowrite tile=16x16 group=16x16 halo=1
//
// A dialect kernel that claims to be a box 3x3 and writes nothing: bench must not time it
// as one (tests/cli.sh).
inline void k_nowrite_tile(TS_BODY_ARGS, int2 t) { }
TS_GROUP_ENTRY(k_nowrite, 16, 16)

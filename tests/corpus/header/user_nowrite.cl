// tilescope: variant name=k_nowrite equals=box3
// tilescope: pass entry=k_nowrite tile=16x16 group=16x16 halo=1
inline void k_nowrite_tile(TS_BODY_ARGS, int2 t) { }

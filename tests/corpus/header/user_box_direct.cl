// tilescope: variant name=box_direct equals=box3
// tilescope: pass entry=box_direct tile=16x16 group=16x16 halo=0
inline void box_direct_tile(TS_BODY_ARGS, int2 t)

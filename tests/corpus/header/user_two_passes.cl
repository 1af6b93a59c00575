// tilescope: variant name=two mid=u16 local=4096 pattern=wavefront cost=3 equals=gauss
// tilescope: pass entry=rows tile=64x1 group=64x1 src=in dst=mid
// tilescope: pass entry=cols tile=1x64 group=1x64 halo=2 src=mid dst=out
__kernel void rows(void) {}

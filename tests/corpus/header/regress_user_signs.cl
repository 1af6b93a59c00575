// tilescope: variant name=t cost=+1
// tilescope: pass entry=k tile=+32x+4 halo=0x1

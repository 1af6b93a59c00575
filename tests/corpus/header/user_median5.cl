// tilescope: variant name=median5 summary="5x5 median per channel: a 25-value insertion sort, one work-group per 16x16 pixels"
// tilescope: pass entry=median5 tile=16x16 group=16x16 halo=2


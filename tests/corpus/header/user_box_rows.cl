// tilescope: variant name=box_rows equals=box3 summary="a user box 3x3: one work-item per 32x4 pixels"
// tilescope: pass entry=box_rows tile=32x4 group=item halo=1


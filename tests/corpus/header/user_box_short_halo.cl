// tilescope: variant name=box_short_halo equals=box3 summary="broken on purpose: declares a halo of 0, reads 1"
// tilescope: pass entry=box_short_halo tile=16x16 group=16x16 halo=0


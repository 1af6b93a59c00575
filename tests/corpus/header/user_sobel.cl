// tilescope: variant name=sobel summary="Sobel edges: |gx| + |gy| of a 3x3 window, one work-item per 8x8 pixels"
// tilescope: pass entry=sobel tile=8x8 group=item halo=1


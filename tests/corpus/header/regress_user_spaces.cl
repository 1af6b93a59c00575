// tilescope: variant name=t summary="spaces"
// tilescope: pass entry=k tile=" 32x 4"

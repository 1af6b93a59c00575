// tilescope: plain entry=gauss_rows tmp=buffer
// tilescope: plain entry=gauss_cols tmp=buffer


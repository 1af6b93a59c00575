// tilescope: plain entry=scan_rows global=H tmp=buffer(1)
// tilescope: plain entry=scan_cols global=W tmp=buffer(1) out=output(1)


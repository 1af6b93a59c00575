// tilescope: plain global=0x10,1e999 local=16,16 tile=+16x16 halo= 2

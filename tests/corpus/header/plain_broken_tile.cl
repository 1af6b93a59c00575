// tilescope: plain global=W/16*16,H/16*16 local=16,16 tile=16x16 halo=1


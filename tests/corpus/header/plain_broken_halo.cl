// tilescope: plain global=(W+15)/16*16,(H+15)/16*16 local=16,16 tile=16x16 halo=2


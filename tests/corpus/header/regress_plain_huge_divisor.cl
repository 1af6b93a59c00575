// tilescope: plain global=(W+15)/169223372036854775808cal=16,16 tile=16x16 halo=2


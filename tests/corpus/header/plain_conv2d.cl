// tilescope: plain global=W,H


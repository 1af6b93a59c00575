#!/usr/bin/env python3
"""The layout's rules (docs/architecture.md, "The one-way rule"), checked on the tree:
no file of app/ includes a header of a folder above its own in the order below, no `.c`
file of app/ but main.c sits at app/'s top, and no `.c` file of app/ or core/ is over 900
lines. Prints each breach; exits 1 on any.
usage: layout.py SOURCE_DIR"""
import os
import re
import sys

ORDER = ["cli", "script", "viewer", "draw", "worker", "web", "paths"]  # top to bottom
# web/ and paths/ sit below the commands only: the window's parts include neither
BELOW = {"cli": set(ORDER[1:]), "script": {"viewer", "draw", "worker"},
         "viewer": {"draw", "worker", "paths"}, "draw": {"worker"}, "worker": set(),
         "web": set(), "paths": set()}


def main():
    src = sys.argv[1]
    app = os.path.join(src, "app")
    home = {}  # header name -> its folder
    for part in ORDER:
        for f in os.listdir(os.path.join(app, part)):
            if f.endswith(".h"):
                home[f] = part
    bad = 0
    for f in os.listdir(app):
        if f.endswith(".c") and f != "main.c":
            print("app/%s: a .c file at app/'s top (only main.c belongs there)" % f)
            bad += 1
    for part in ORDER:
        for f in sorted(os.listdir(os.path.join(app, part))):
            if not f.endswith((".c", ".h")):
                continue
            with open(os.path.join(app, part, f)) as fh:
                for n, line in enumerate(fh, 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m or m.group(1) not in home:
                        continue
                    to = home[m.group(1)]
                    if to != part and to not in BELOW[part]:
                        print("app/%s/%s:%d: includes %s of %s/, which is not below %s/" %
                              (part, f, n, m.group(1), to, part))
                        bad += 1
    for top in ("app", "core"):
        for root, _, files in os.walk(os.path.join(src, top)):
            for f in files:
                if f.endswith(".c"):
                    with open(os.path.join(root, f)) as fh:
                        lines = sum(1 for _ in fh)
                    if lines > 900:
                        print("%s: %d lines, over 900" % (os.path.relpath(os.path.join(root, f), src), lines))
                        bad += 1
    print("layout: %s" % ("%d breach(es)" % bad if bad else "every include runs down, every file under 900 lines"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

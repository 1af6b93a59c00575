#!/usr/bin/env python3
"""What tests/html.sh reads and compares, with nothing beyond Python's standard library:
the summary an exported page writes in test mode (#test=1), thread states from
`tilescope run --schedule` (the simulator's rule) and from a device record, a plain
kernel's work-groups' states and records from `run --observe --json`, a hash of
`run --raw`'s exact output and the elements at which two such outputs differ, the state
of each tile as a native `tilescope shot` draws it,
PNGs (a black input to write, a screenshot to read), and the page's own requests in
chromium's net log.

usage: html_check.py COMMAND ARGS...  (each command below says its arguments)"""
import json
import re
import struct
import sys
import zlib


def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def summary(path):
    """The fields of #ts-test in a page's --dump-dom, as a dict (run twice for ticks=...)."""
    html = open(path, encoding="utf-8", errors="replace").read()
    m = re.search(r'<pre id="ts-test"[^>]*>(.*?)</pre>', html, re.S)
    if not m:
        die(f"{path}: no #ts-test element in the page")
    text = m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    blocks = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.split("\n"):
            k, _, v = line.partition("=")
            fields[k] = v
        blocks.append(fields)
    return blocks


def csv_threads(path):
    """pass -> {(x, y): row} from run --schedule."""
    passes = {}
    with open(path) as f:
        head = f.readline().strip().split(",")
        for line in f:
            row = dict(zip(head, (int(v) for v in line.strip().split(","))))
            passes.setdefault(row["pass"], {})[(row["x"], row["y"])] = row
    return passes


def sim_states(path, tick):
    """The pass shown at `tick` and each of its threads' states (p w r d, h: a hazard
    running or done), in thread id order: ts_thread_state_at over run's schedule."""
    passes = csv_threads(path)
    shown = max(passes)
    for p in sorted(passes):
        if tick < max(r["end_tick"] for r in passes[p].values()):
            shown = p
            break
    th = passes[shown]
    tw = max(x for x, _ in th) + 1
    ht = max(y for _, y in th) + 1
    out = []
    for y in range(ht):
        for x in range(tw):
            r = th[(x, y)]
            if r["dispatch_tick"] < 0 or r["dispatch_tick"] > tick:
                s = "p"
            elif r["start_tick"] > tick:
                s = "w"
            elif r["end_tick"] > tick:
                s = "r"
            else:
                s = "d"
            if s in "rd" and r["hazards"] > 0:
                s = "h"
            out.append(s)
    return shown, "".join(out)


def dev_states(trace, pct):
    """Device time at pct% of a record's run, and each group's state then (p w r d, x: a
    wrong tile done), in thread id order of the last pass."""
    rec = json.load(open(trace))["tilescope"]
    groups = rec["passes"][-1]["groups"]
    tw, th = rec["passes"][-1]["tw"], rec["passes"][-1]["th"]
    t0 = min(g[4] for p in rec["passes"] for g in p["groups"])
    t_end = max(g[6] for p in rec["passes"] for g in p["groups"]) - t0
    t = int(pct / 100 * t_end + 0.5)
    wrong = set(rec["wrong"])
    by_tile = {(g[2], g[3]): g for g in groups}
    out = []
    for y in range(th):
        for x in range(tw):
            g = by_tile[(x, y)]
            s = "p" if t < g[4] - t0 else "w" if t < g[5] - t0 else "r" if t < g[6] - t0 else "d"
            if s == "d" and y * tw + x in wrong:
                s = "x"
            out.append(s)
    return t, "".join(out)


def plain_groups(path, pass_no):
    """A plain kernel's records of pass pass_no (from 1) in `run --observe --json`, by the
    work-groups' linear ids (x, then y, then z)."""
    p = json.load(open(path))["passes"][pass_no - 1]
    n = [-(-g // max(l, 1)) for g, l in zip(p["global"], p["local"])]
    out = [None] * (n[0] * n[1] * n[2])
    for r in p["records"]:
        x, y, z = r["group"]
        out[x + n[0] * (y + n[1] * z)] = r
    return out, p["ticks"]


def plain_states(path, pass_no, tick):
    """Each work-group's state at `tick` of the pass's clock by linear id, on the page's rule
    (the window's): a group whose record starts at clock s and ends at e runs from tick s + 1
    to e + 1; p not started, r running, b past a barrier, d ended. `tick` may be "end"."""
    groups, ticks = plain_groups(path, pass_no)
    t = ticks if tick == "end" else int(tick)
    out = []
    for r in groups:
        if r["start"] + 1 > t:
            out.append("p")
        elif r["end"] + 1 <= t:
            out.append("d")
        else:
            out.append("b" if any(b + 1 <= t for b in r["barrier_ticks"]) else "r")
    return t, "".join(out)


def npy_hash(path):
    """FNV-1a over an .npy file's data: the page's out= for the same tick."""
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        die(f"{path}: not a .npy file")
    hl = struct.unpack("<H", data[8:10])[0] if data[6] == 1 else struct.unpack("<I", data[8:12])[0]
    body = data[(10 if data[6] == 1 else 12) + hl:]
    h = 0x811C9DC5
    for b in body:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def npy_elements(path):
    """An .npy file's data as a list of its elements' bytes."""
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        die(f"{path}: not a .npy file")
    hl = struct.unpack("<H", data[8:10])[0] if data[6] == 1 else struct.unpack("<I", data[8:12])[0]
    start = (10 if data[6] == 1 else 12) + hl
    m = re.search(r"'descr':\s*'[<>|=]?[a-z](\d+)'", data[:start].decode("latin-1"))
    size = int(m.group(1)) if m else 1
    body = data[start:]
    return [body[i:i + size] for i in range(0, len(body), size)]


def npy_differ(a, b):
    """The elements at which two .npy files' data differ (a difference of length counts each
    element the longer has over the shorter): the split view's count of two orders' outputs."""
    x, y = npy_elements(a), npy_elements(b)
    return abs(len(x) - len(y)) + sum(p != q for p, q in zip(x, y))


def read_png(path, unfilter=True):
    """An 8-bit PNG (grey, RGB or RGBA, not interlaced) -> (w, h, channels, rows); rows None
    unless unfilter (the size alone: the data is still inflated and its length checked)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        die(f"{path}: not a PNG")
    at, idat = 8, b""
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or lace != 0 or ctype not in (0, 2, 6):
                die(f"{path}: not an 8-bit grey, RGB or RGBA PNG")
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    c = {0: 1, 2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * c
    if len(raw) < h * (stride + 1):
        die(f"{path}: {len(raw)} bytes of image data, not the {h * (stride + 1)} of {w}x{h}")
    if not unfilter:
        return w, h, c, None
    # Each filter in a loop of its own (the screenshots are millions of bytes): Up, a row added
    # to the one above bytewise at once, as whole numbers whose bytes carry into no other.
    lo, hi = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(c, stride):
                cur[i] = (cur[i] + cur[i - c]) & 255
        elif f == 2:
            x, p = int.from_bytes(cur, "big"), int.from_bytes(prev, "big")
            cur = bytearray((((x & lo) + (p & lo)) ^ ((x ^ p) & hi)).to_bytes(stride, "big"))
        elif f == 3:
            for i in range(c):
                cur[i] = (cur[i] + (prev[i] >> 1)) & 255
            for i in range(c, stride):
                cur[i] = (cur[i] + ((cur[i - c] + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(c):
                cur[i] = (cur[i] + prev[i]) & 255
            for i in range(c, stride):
                a, b, d = cur[i - c], prev[i], prev[i - c]
                pa, pb, pc = abs(b - d), abs(a - d), abs(a + b - 2 * d)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else d)) & 255
        rows.append(cur)
        prev = cur
    return w, h, c, rows


def write_black(path, w, h):
    """A black grey PNG of w x h."""
    raw = b"".join(b"\x00" + bytes(w) for _ in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


# The output pane's colours in the state overlay over a black output (image.frag: mix(black,
# colour, alpha)): pending, waiting, running, done, and a hazard.
SHOT_COLOURS = {"p": (0, 0, 0), "w": (115, 71, 6), "r": (17, 109, 29), "d": (14, 26, 55), "h": (109, 11, 11)}


_DONE = {}


def shot_states(path, done_path, W, H, tile, tw, th):
    """Each tile's state as a native shot draws it over a black output: the output image is
    found as the box of `done`-coloured pixels in done_path (the same view at the end, every
    tile done), and each tile's centre in `path` is read and named by its colour."""
    if done_path not in _DONE:  # (the same for every shot of a call)
        _DONE[done_path] = read_png(done_path)
    w, h, c, rows = _DONE[done_path]
    dc = SHOT_COLOURS["d"]
    xs, ys = [], []
    for y in range(h):
        row = rows[y]
        for x in range(w // 3, w):
            if all(abs(row[x * c + k] - dc[k]) <= 6 for k in range(3)):
                xs.append(x)
                ys.append(y)
    if not xs:
        die(f"{done_path}: no tile drawn as done")
    x0, x1, y0, y1 = min(xs), max(xs) + 1, min(ys), max(ys) + 1
    _, _, c2, rows2 = read_png(path)
    out = []
    for ty in range(th):
        for tx in range(tw):
            # near the tile's corner: its centre holds its dispatch index, its edge the grid
            cx = x0 + (tx * tile + tile / 5) / W * (x1 - x0)
            cy = y0 + (ty * tile + tile / 5) / H * (y1 - y0)
            px = rows2[int(cy)][int(cx) * c2:int(cx) * c2 + 3]
            name = min(SHOT_COLOURS, key=lambda k: sum((px[i] - SHOT_COLOURS[k][i]) ** 2 for i in range(3)))
            if sum((px[i] - SHOT_COLOURS[name][i]) ** 2 for i in range(3)) > 300:
                print(f"{path}: tile ({tx},{ty}) at ({int(cx)},{int(cy)}) is {tuple(px)}, no state's "
                      "colour", file=sys.stderr)
                name = "?"
            out.append(name)
    return "".join(out)


def page_requests(path):
    """URLs that a document asked for (not the browser's own traffic) in a net log."""
    d = json.load(open(path))
    types = {v: k for k, v in d["constants"]["logEventTypes"].items()}
    urls = []
    for e in d["events"]:
        p = e.get("params", {})
        # the job's start (its end has no url); the browser's own requests have no origin
        if types.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in p and \
                p.get("initiator") != "not an origin":
            urls.append(p["url"])
    return urls


def pdf_pages(path):
    """The text of each page of a PDF that chromium printed, in page order: its content
    streams' strings decoded through their fonts' ToUnicode maps (what a reader copies)."""
    import unicodedata
    data = open(path, "rb").read()
    objs = {}
    for m in re.finditer(rb"(\d+) 0 obj(.*?)endobj", data, re.S):
        body = m.group(2)
        sm = re.search(rb"stream\r?\n(.*)endstream", body, re.S)
        stream = None
        if sm:
            stream = sm.group(1)
            if b"/FlateDecode" in body[:sm.start()]:
                stream = zlib.decompress(stream)
        objs[int(m.group(1))] = (body[:sm.start()] if sm else body, stream)

    def refs(b):
        return [int(x) for x in re.findall(rb"(\d+) 0 R", b)]

    def cmap(n):
        text, out = objs[n][1].decode("latin-1"), {}
        for blk in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
            for a, b in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", blk):
                out[int(a, 16)] = bytes.fromhex(b).decode("utf-16-be")
        for blk in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
            for a, b, c in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", blk):
                for k in range(int(a, 16), int(b, 16) + 1):
                    out[k] = chr(int(c, 16) + k - int(a, 16))
        return out

    def kids(n):
        d = objs[n][0]
        if re.search(rb"/Type\s*/Pages", d):
            m = re.search(rb"/Kids\s*\[([^\]]*)\]", d)
            return [p for k in refs(m.group(1)) for p in kids(k)]
        return [n]

    root = next(n for n, (d, _) in objs.items() if re.search(rb"/Type\s*/Pages", d) and b"/Parent" not in d)
    pages = []
    for n in kids(root):
        d = objs[n][0]
        fonts = {}
        fm = re.search(rb"/Font\s*<<(.*?)>>", d, re.S)
        for name, ref in re.findall(rb"/(\w+)\s+(\d+) 0 R", fm.group(1) if fm else b""):
            tu = re.search(rb"/ToUnicode\s+(\d+) 0 R", objs[int(ref)][0])
            fonts[name.decode()] = cmap(int(tu.group(1))) if tu else {}
        cm = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", d)
        text, font = [], {}
        for c in refs(cm.group(1)) if cm else []:
            for tok in re.finditer(r"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>|(T[dDm*]|ET)\b",
                                   objs[c][1].decode("latin-1")):
                if tok.group(1):
                    font = fonts.get(tok.group(1), {})
                elif tok.group(2) is not None:
                    h = tok.group(2)
                    text.extend(font.get(int(h[i:i + 4], 16), "?") for i in range(0, len(h), 4))
                else:
                    text.append(" ")
        pages.append(" ".join(unicodedata.normalize("NFKC", "".join(text)).split()))
    return pages


def main():
    a = sys.argv[1:]
    if not a:
        die(__doc__)
    cmd = a[0]
    if cmd == "fields":  # DUMP: every field of every block, "BLOCK<tab>FIELD<tab>VALUE"
        for i, block in enumerate(summary(a[1])):
            for k, v in block.items():
                print(f"{i}\t{k}\t{v}")
    elif cmd == "sim-states":  # CSV TICK...: "TICK PASS STATES" a tick
        for t in a[2:]:
            p, s = sim_states(a[1], int(t))
            print(t, p, s)
    elif cmd == "dev-states":  # TRACE PCT...: "PCT DEVICE_TIME STATES" a share
        for pct in a[2:]:
            t, s = dev_states(a[1], float(pct))
            print(pct, t, s)
    elif cmd == "plain-states":  # JSON PASS TICK...: "TICK STATES" a tick (TICK may be end)
        for t in a[3:]:
            tick, s = plain_states(a[1], int(a[2]), t)
            print(tick, s)
    elif cmd == "plain-record":  # JSON PASS GX,GY: "TICKET START END", as the page counts them
        groups, _ = plain_groups(a[1], int(a[2]))
        gx, gy = (int(v) for v in a[3].split(","))
        r = next(g for g in groups if g["group"][:2] == [gx, gy])
        print(r["ticket"] + 1, r["start"] + 1, r["end"] + 1)
    elif cmd == "npy-hash":  # NPY...: "NPY HASH" a file
        for f in a[1:]:
            print(f, npy_hash(f))
    elif cmd == "npy-differ":  # A.npy B.npy: the elements at which they differ
        print(npy_differ(a[1], a[2]))
    elif cmd == "black":  # OUT W H
        write_black(a[1], int(a[2]), int(a[3]))
    elif cmd == "shot-states":  # DONE_SHOT W H TILE TW TH SHOT...: "SHOT STATES" a shot
        for f in a[7:]:
            print(f, shot_states(f, a[1], *(int(v) for v in a[2:7])))
    elif cmd == "png-size":  # PNG: width height
        w, h, _, _ = read_png(a[1], unfilter=False)
        print(w, h)
    elif cmd == "pdf-pages":  # PDF: "PAGE<tab>TEXT" a page, from 1
        for i, t in enumerate(pdf_pages(a[1])):
            print(f"{i + 1}\t{t}")
    elif cmd == "requests":  # NETLOG: one URL a line
        for u in page_requests(a[1]):
            print(u)
    else:
        die(f"unknown command {cmd}")


if __name__ == "__main__":
    main()

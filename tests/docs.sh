#!/bin/sh
# The documentation's examples, run: every ```console block of README.md and docs/*.md is
# played, command by command, in a scratch folder with the built tilescope on PATH, and what
# each command prints (stdout and stderr together, in the order a terminal shows them) is
# compared with the lines under it. The conventions (docs/testing.md, "Examples that run"):
#   $ CMD          a command, run by sh in the file's scratch folder; "> " lines continue it
#   text           a line it prints, exactly (trailing blanks aside)
#   a ... b        "..." inside a line stands for any text on that line
#   ...            a line of its own stands for any number of lines, none included
#   RE (re)        a line matched by the Python regular expression RE, whole
#   [N]            the command's exit status, when it is not 0 (its last line)
# Blocks: ```console (run and compared), ```console window (commands that open the viewer:
# run without a display, where the viewer writes a screenshot instead; only their exit status
# is checked), ```console unsanitized (not run in a sanitizer build, TS_SANITIZED=1: a kernel
# that crashes on purpose, which the sanitizers report before tilescope does), ```console
# ignore: REASON (not run; the runner lists them), and ```LANG
# file=NAME (written to NAME in the scratch folder before the blocks after it run). A "$ "
# line in any other block is an error, an example nobody checks, except in a ```markdown
# block, which shows Markdown source.
# usage: docs.sh TILESCOPE SOURCE_DIR [MKCHART] [FILE.md...]   (default: README.md docs/*.md)
# Exit 0 all passed, 1 an example failed, 2 bad usage, 77 no OpenCL device or no OpenGL (in
# CI, CI=true, that is a failure).
exec python3 - "$@" <<'PYTHON'
import glob, os, re, shutil, subprocess, sys, tempfile

TIMEOUT = 300  # seconds per command: the examples take a few seconds each

def usage():
    print("usage: docs.sh TILESCOPE SOURCE_DIR [MKCHART] [FILE.md...]", file=sys.stderr)
    sys.exit(2)

args = sys.argv[1:]
if len(args) < 2:
    usage()
ts, src = os.path.realpath(args[0]), os.path.realpath(args[1])
rest = args[2:]
mkchart = None
if rest and not rest[0].endswith(".md"):
    mkchart = os.path.realpath(rest.pop(0))
files = [os.path.realpath(f) for f in rest] or \
    [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
if not os.access(ts, os.X_OK) or not os.path.isdir(src):
    usage()

# ---- the blocks of a Markdown file ----

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`]*)$")

class Block:
    def __init__(self, path, line, info, lines):
        self.path, self.line, self.info, self.lines = path, line, info.strip(), lines
        words = self.info.split()
        self.lang = words[0] if words else ""
        self.flags = words[1:]

def blocks(path):
    """Fenced blocks, in order, and an error for each "$ " line of an indented block."""
    out, errors = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            indent, fence, info = len(m.group(1)), m.group(2), m.group(3)
            start, body = i + 1, []
            i += 1
            while i < len(lines):
                close = re.match(r"^ {0,3}(`{3,}|~{3,})\s*$", lines[i])
                if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= len(fence):
                    break
                body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
                i += 1
            out.append(Block(path, start, info, body))
        elif re.match(r"^ {4,}\$ ", lines[i]):
            errors.append("%s:%d: a command in an indented block: put the example in a "
                          "```console block (docs/testing.md)" % (rel(path), i + 1))
        i += 1
    return out, errors

def rel(path):
    return os.path.relpath(path, src)

# ---- matching ----

def line_pattern(expected):
    """A compiled regex for one expected line, or None for the "..." line of its own."""
    if expected == "...":
        return None
    if expected.endswith(" (re)"):
        return re.compile(expected[:-5])
    if "..." in expected:
        return re.compile(".*".join(re.escape(p) for p in expected.split("...")), re.S)
    return re.compile(re.escape(expected))

def matches(expected, actual):
    """(True, _, _) when the lines match; else (False, i, j): the furthest expected line i
    that the matching reached, and the printed line j it was tried against."""
    pats = [line_pattern(e) for e in expected]
    memo = {}
    far = [0, 0]
    def at(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i > far[0]:
            far[:] = [i, j]
        if i == len(pats):
            r = j == len(actual)
        elif pats[i] is None:
            r = any(at(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and pats[i].fullmatch(actual[j]) is not None and at(i + 1, j + 1)
        memo[i, j] = r
        return r
    sys.setrecursionlimit(max(1000, 4 * (len(pats) + len(actual)) + 100))
    return at(0, 0), far[0], far[1]

# ---- running ----

def environment(scratch):
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_CONFIG_HOME", "TILESCOPE_USER_KERNELS",
              "TILESCOPE_KERNELS", "TILESCOPE_PLAIN_DUMP"):
        env.pop(k, None)
    # pocl keeps its compiled kernels under the cache folder: keep the user's, so that the
    # examples do not rebuild every kernel; everything else of HOME is the scratch folder.
    env.setdefault("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache"))
    env["HOME"] = scratch
    dirs = [os.path.dirname(ts)] + ([os.path.dirname(mkchart)] if mkchart else [])
    env["PATH"] = os.pathsep.join(dirs + [env.get("PATH", "/usr/bin:/bin")])
    # The default input prints as assets/chart.png, as it does in the documents.
    env["TILESCOPE_ASSETS"] = "assets"
    # No window: the viewer writes a screenshot instead; llvmpipe draws every shot, as the
    # goldens were drawn.
    env["SDL_VIDEODRIVER"] = "offscreen"
    env["LIBGL_ALWAYS_SOFTWARE"] = "1"
    env["GALLIUM_DRIVER"] = "llvmpipe"
    env["LC_ALL"] = "C"
    return env

def scratch_folder():
    """A folder with copies of the source tree's assets/, kernels/ and tests/ (5 MB), which
    the examples name: copies, so that no example can change the source tree."""
    d = tempfile.mkdtemp(prefix="tilescope-docs-")
    for name in ("assets", "kernels", "tests"):
        shutil.copytree(os.path.join(src, name), os.path.join(d, name), symlinks=True)
    return d

# Line-buffered stdout, so that stdout and stderr interleave as on a terminal.
STDBUF = ["stdbuf", "-oL"] if shutil.which("stdbuf") else []

def run(cmd, cwd, env):
    try:
        p = subprocess.run(STDBUF + ["sh", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return None, out
    return p.returncode, p.stdout.decode("utf-8", "replace")

def examples(block):
    """(line, command, expected lines, expected status) of a console block."""
    out, cur = [], None
    for n, text in enumerate(block.lines):
        if text.startswith("$ "):
            cur = [block.line + n + 1, text[2:], [], 0]
            out.append(cur)
        elif cur is None:
            if text.strip():
                raise ValueError("%s:%d: text before the first command" % (rel(block.path), block.line + n + 1))
        elif text.startswith("> ") and not cur[2]:
            cur[1] += "\n" + text[2:]
        else:
            cur[2].append(text.rstrip())
    for ex in out:
        while ex[2] and ex[2][-1] == "":
            ex[2].pop()
        if ex[2] and re.fullmatch(r"\[\d+\]", ex[2][-1]):
            ex[3] = int(ex[2].pop()[1:-1])
    return out

def probe(env):
    """77 when there is no OpenCL device or no OpenGL: the examples show both."""
    d = scratch_folder()
    try:
        code, out = run("tilescope list", d, env)
        if code != 0 or not re.search(r"^  0: ", out, re.M):
            return "no OpenCL device"
        code, out = run("tilescope shot --backend cpu --size 640x400 -o probe.png", d, env)
        if code != 0:
            return "no OpenGL: " + out.strip().split("\n")[0]
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return None

def main():
    env0 = environment("/nonexistent")
    why = probe(dict(env0, HOME=tempfile.gettempdir()))
    if why:
        if os.environ.get("CI") == "true":
            print("FAIL: %s in CI" % why)
            return 1
        print("skipped: %s" % why)
        return 77
    fails = passes = 0
    not_run = []
    for path in files:
        bl, errors = blocks(path)
        for e in errors:
            print("FAIL: " + e)
            fails += 1
        scratch = None
        try:
            for b in bl:
                where = "%s:%d" % (rel(path), b.line)
                has_cmd = any(t.startswith("$ ") for t in b.lines)
                file_flag = [f for f in b.flags if f.startswith("file=")]
                if b.lang != "console":
                    if has_cmd and b.lang not in ("markdown", "md"):
                        print("FAIL: %s: a command in a ```%s block: make it ```console "
                              "(docs/testing.md)" % (where, b.info))
                        fails += 1
                    if file_flag:
                        scratch = scratch or scratch_folder()
                        name = file_flag[0][5:]
                        with open(os.path.join(scratch, name), "w", encoding="utf-8") as f:
                            f.write("\n".join(b.lines) + "\n")
                    continue
                if b.flags and b.flags[0].startswith("ignore"):
                    reason = b.info.split("ignore", 1)[1].lstrip(": ").strip()
                    if not reason:
                        print("FAIL: %s: ```console ignore without a reason (ignore: WHY)" % where)
                        fails += 1
                    not_run.append("%s (%s)" % (where, reason))
                    continue
                window = "window" in b.flags
                if [f for f in b.flags if f not in ("window", "unsanitized")]:
                    print("FAIL: %s: unknown mark '%s' (console, console window, console "
                          "unsanitized, console ignore: WHY)" % (where, b.info))
                    fails += 1
                    continue
                if "unsanitized" in b.flags and os.environ.get("TS_SANITIZED") == "1":
                    not_run.append("%s (a kernel that crashes: under the sanitizers their own "
                                   "report comes first)" % where)
                    continue
                try:
                    exs = examples(b)
                except ValueError as e:
                    print("FAIL: %s" % e)
                    fails += 1
                    continue
                scratch = scratch or scratch_folder()
                env = environment(scratch)
                for line, cmd, want, status in exs:
                    at = "%s:%d" % (rel(path), line)
                    if window and want:
                        print("FAIL: %s: a ```console window block shows no output" % at)
                        fails += 1
                        continue
                    code, got = run(cmd, scratch, env)
                    got_lines = [l.rstrip() for l in got.split("\n")]
                    while got_lines and got_lines[-1] == "":
                        got_lines.pop()
                    ok_out, wi, gj = (True, 0, 0) if window else matches(want, got_lines)
                    if code == status and ok_out:
                        passes += 1
                        continue
                    fails += 1
                    print("FAIL: %s: $ %s" % (at, cmd.replace("\n", "\n> ")))
                    if code is None:
                        print("    did not end in %d s" % TIMEOUT)
                    elif code != status:
                        print("    exit status %d, the example says %d" % (code, status))
                    if not ok_out:
                        if wi < len(want):
                            print("    the example's line %d: %s" % (line + 1 + wi, want[wi]))
                            print("    does not match printed line %d: %s" %
                                  (gj + 1, got_lines[gj] if gj < len(got_lines) else "(the end)"))
                        else:
                            print("    it printed more lines than the example shows, from line %d" % (gj + 1))
                    if not ok_out or (window and got.strip()):
                        print("    what it printed:")
                        for l in got_lines:
                            print("    | " + l)
        finally:
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)
    for n in not_run:
        print("not run: " + n)
    print("%d examples passed, %d failed, %d blocks not run, in %d files" %
          (passes, fails, len(not_run), len(files)))
    return 1 if fails else 0

sys.exit(main())
PYTHON

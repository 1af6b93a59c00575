#!/usr/bin/env python3
"""A SARIF log of tilescope's (--sarif) checked: valid against the SARIF 2.1.0 JSON schema
(tests/sarif/, the OASIS TC's), and as code scanning reads it: version 2.1.0, the tool named,
every rule with an id, a short and a full description and help, every result with the rule it
names (ruleId and ruleIndex agreeing), a level, a message and a location; with --cl every
result's location a .cl file with a line. Prints one line per problem.
usage: sarif_check.py SCHEMA FILE.sarif [--cl] [--results N|+] [--levels L,...]
  --results N: exactly N results; +: at least one
  --levels: the levels the results must have, each at least once (error, warning, note)
Exit 0 good, 1 not, 2 bad usage, 77 without python3-jsonschema (1 in CI, CI=true)."""
import json
import os
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    schema_path, path, rest = args[0], args[1], args[2:]
    want_cl = "--cl" in rest
    want_results = rest[rest.index("--results") + 1] if "--results" in rest else None
    want_levels = rest[rest.index("--levels") + 1].split(",") if "--levels" in rest else []
    try:
        import jsonschema
    except ImportError:
        if os.environ.get("CI") == "true":
            print("FAIL: python3-jsonschema is not installed (CI: .ci/deps installs it)")
            sys.exit(1)
        print("skipped: python3-jsonschema is not installed")
        sys.exit(77)
    with open(schema_path) as f:
        schema = json.load(f)
    try:
        with open(path) as f:
            log = json.load(f)
    except (OSError, ValueError) as e:
        print("%s: not JSON: %s" % (path, e))
        sys.exit(1)
    bad = []
    validator = jsonschema.Draft4Validator(schema)
    for e in sorted(validator.iter_errors(log), key=lambda e: list(e.path)):
        bad.append("schema: %s at %s" % (e.message, "/".join(str(p) for p in e.path)))
    if log.get("version") != "2.1.0":
        bad.append("version %r, not 2.1.0" % log.get("version"))
    runs = log.get("runs") or [{}]
    run = runs[0]
    driver = run.get("tool", {}).get("driver", {})
    if driver.get("name") != "tilescope":
        bad.append("tool.driver.name %r" % driver.get("name"))
    rules = driver.get("rules", [])
    for i, r in enumerate(rules):
        for key in ("id", "shortDescription", "fullDescription", "help"):
            if not r.get(key):
                bad.append("rule %d (%s): no %s" % (i, r.get("id"), key))
    ids = [r.get("id") for r in rules]
    if len(set(ids)) != len(ids):
        bad.append("rules named twice: %s" % ids)
    results = run.get("results", [])
    levels = set()
    for i, res in enumerate(results):
        where = "result %d" % i
        rid, idx = res.get("ruleId"), res.get("ruleIndex")
        if rid not in ids or idx is None or idx >= len(ids) or ids[idx] != rid:
            bad.append("%s: rule %r (index %r) is not the log's" % (where, rid, idx))
        if res.get("level") not in ("error", "warning", "note"):
            bad.append("%s: level %r" % (where, res.get("level")))
        levels.add(res.get("level"))
        if not res.get("message", {}).get("text"):
            bad.append("%s: no message" % where)
        locs = res.get("locations") or []
        if not locs:
            bad.append("%s: no location" % where)
            continue
        phys = locs[0].get("physicalLocation", {})
        uri = phys.get("artifactLocation", {}).get("uri", "")
        line = phys.get("region", {}).get("startLine", 0)
        if want_cl and (not uri.endswith(".cl") or line < 1):
            bad.append("%s: at %r line %r, not a .cl file's line" % (where, uri, line))
    if want_results == "+" and not results:
        bad.append("no results")
    elif want_results not in (None, "+") and len(results) != int(want_results):
        bad.append("%d results, not %s" % (len(results), want_results))
    for lv in want_levels:
        if lv not in levels:
            bad.append("no result of level %s (levels: %s)" % (lv, sorted(levels)))
    for b in bad:
        print("%s: %s" % (path, b))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

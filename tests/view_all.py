#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# mmemu view on every shipped scenario under every built-in policy, small and
# short (SCALE, machine.duration=DURATION, samples every 10 ms), each page
# loaded in headless Chromium: it builds, logs no console error or warning,
# has a row per memcg and the panels of every run (the swap panel only with
# swap), and for the memcgs first
# and last by pressure the dump follows the cursor. Prints the time of
# each scenario. usage: view_all.py MMEMU SCENARIO_DIR SCALE DURATION OUTDIR
import glob, json, os, subprocess, sys, time
from browser import chromium
mmemu, scdir, scale, duration, outdir = sys.argv[1:6]
os.makedirs(outdir, exist_ok=True)
# the policies `mmemu list` names (the lines under "policies:")
listing = subprocess.run([mmemu, "list"], check=True, capture_output=True, text=True).stdout
policies = []
for line in listing.split("\n")[1:]:
    if not line.startswith("  "):
        break
    policies.append(line.split()[0])
scenarios = sorted(glob.glob(os.path.join(scdir, "*.ini")))
if not policies or not scenarios:
    print("FAIL: no policies (%s) or no scenarios in %s" % (policies, scdir))
    sys.exit(1)
d = chromium()
fail = []
start = time.time()
try:
    for sc in scenarios:
        t0 = time.time()
        name = os.path.basename(sc)[:-4]
        pb, html = os.path.join(outdir, name + ".pb"), os.path.join(outdir, name + ".html")
        subprocess.run([mmemu, "run", sc, "--scale", scale, "--set", "machine.duration=" + duration,
                        "--sample", "10ms", "--policy", ",".join(policies), "--out", pb],
                       check=True, stdout=subprocess.DEVNULL)
        t1 = time.time()
        subprocess.run([mmemu, "view", pb, "-o", html], check=True)
        rep = json.loads(subprocess.run([mmemu, "report", pb, "--format", "json"], check=True,
                                        capture_output=True, text=True).stdout)
        nruns, nodes = len(rep["runs"]), len(rep["runs"][0]["nodes"])
        memcgs = ["/" + m for m in rep["runs"][0]["memcgs"]]
        # per run a panel per node and 3 per memcg, 4 with swap (the swap panel)
        has_swap = any("swap_used" in s for r in rep["runs"] for s in r["lru_gen_samples"])
        want = nruns * (nodes + 3 + has_swap)
        d.get("file://" + os.path.abspath(html))
        bad = []
        if not d.execute_script("return window.mmemuView && window.mmemuView.ready"):
            bad.append("the page did not finish building")
        else:
            rows = d.execute_script("return document.querySelectorAll('#overview tr').length - 1")
            if rows != len(memcgs):
                bad.append("%d overview rows, %d memcgs" % (rows, len(memcgs)))
            order = d.execute_script(
                "return [...document.querySelectorAll('#overview tr')].slice(1).map(r => r.cells[0].textContent)")
            # the memcg under the most pressure and the one under the least (a page per
            # memcg would take minutes for chrome-node's 32 and proactive-reclaim's 36)
            for m in sorted(set(order[:1] + order[-1:])):
                d.execute_script("window.mmemuView.select(arguments[0])", m)
                panels = d.execute_script("return window.mmemuView.charts.length")
                if panels != want:
                    bad.append("%s: %d panels, want %d" % (m, panels, want))
                dumps = []
                for t in (0, 1e9):
                    d.execute_script("window.mmemuView.setTime(arguments[0])", t)
                    dumps.append(d.execute_script(
                        "return [...document.querySelectorAll('.dump')].map(e => e.textContent)"))
                if len(dumps[1]) != nruns or any("no lruvec samples" in x for x in dumps[1]):
                    bad.append("%s: no lru_gen dump at the end: %s" % (m, dumps[1]))
                elif dumps[0] == dumps[1] and any(len({s["t"] for s in r["lru_gen_samples"]
                                                       if s.get("memcg") == m}) > 1 for r in rep["runs"]):
                    bad.append("%s: the time cursor does not change the dump" % m)
        for e in d.get_log("browser"):
            if e["level"] in ("SEVERE", "WARNING"):
                bad.append("console: " + e["message"][:300])
        print("%-18s %d runs, %2d memcgs: run %.1f s, view and page %.1f s%s" %
              (name, nruns, len(memcgs), t1 - t0, time.time() - t1, "" if not bad else ", FAIL"))
        fail += [name + ": " + b for b in bad]
finally:
    d.quit()
print("%d scenarios x %d policies in %.1f s" % (len(scenarios), len(policies), time.time() - start))
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)

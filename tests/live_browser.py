#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# mmemu run --live in headless Chromium (selenium + chromedriver): a page
# opened as the runs start and one opened after they end both reach the
# final state, and what they show (the overview, every panel's series and
# points, the lru_gen dump at the cursor, for each memcg) equals the saved
# view of the same runs (mmemu view of its --out file); no console errors;
# the table on stdout is the one mmemu report prints of that file; SIGINT
# ends the server with status 0.
# usage: live_browser.py MMEMU SCENARIO SCALE OUTDIR [MEMCGS]
#   MEMCGS: compare at most this many memcgs, in the overview's order (default: all)
import os, re, signal, subprocess, sys, time
from browser import chromium
mmemu, scenario, scale, outdir = sys.argv[1:5]
max_memcgs = int(sys.argv[5]) if len(sys.argv) > 5 else None
os.makedirs(outdir, exist_ok=True)
name = os.path.basename(scenario)[:-4]
pb = os.path.join(outdir, name + "-live.pb")
html = os.path.join(outdir, name + "-saved.html")
table = os.path.join(outdir, name + "-live.txt")
fail = []

# What the page shows, memcg by memcg with the cursor at the end.
SNAPSHOT = """const v = window.mmemuView, out = {overview: [], memcgs: {}};
for (const tr of document.querySelectorAll('#overview tr')) out.overview.push(tr.textContent);
const names = [...document.querySelectorAll('#overview tr')].slice(1).map(tr => tr.cells[0].textContent);
for (const m of names.slice(0, arguments[0] === null ? names.length : arguments[0])) {
  v.select(m);
  v.setTime(1e9);
  out.memcgs[m] = {t: v.t, tmax: document.getElementById('cursor').max,
    panels: v.charts.map(c => ({title: c.options.plugins.title.text, x: [c.options.scales.x.min,
      c.options.scales.x.max], y: c.options.scales.y.max,
      datasets: c.data.datasets.map(d => ({label: d.label, data: d.data.map(p => [p.x, p.y])}))})),
    dumps: [...document.querySelectorAll('.dump')].map(e => e.textContent)};
}
return out;"""

def severe(d, what):
    for e in d.get_log("browser"):
        if e["level"] == "SEVERE":
            fail.append(what + " console: " + e["message"])

def wait_done(d, what, timeout=600):
    """Polls the page until the live view is done; the states it went through."""
    seen, t0 = [], time.time()
    while time.time() - t0 < timeout:
        st = d.execute_script("""const v = window.mmemuView; return v && v.ready ?
          [v.live, v.charts.reduce((n, c) => n + c.data.datasets.reduce((k, s) => k + s.data.length, 0), 0)]
          : null""")
        if st and (not seen or seen[-1] != st):
            seen.append(st)
        if st and st[0] == "done":
            return seen
        time.sleep(0.2)
    fail.append(what + ": the live view did not finish in %d s" % timeout)
    return seen

out = open(table, "w")
p = subprocess.Popen([mmemu, "run", scenario, "--scale", scale, "--all", "-j", "2",
                      "--live", "127.0.0.1:0", "--live-wait", "--out", pb],
                     stdout=out, stderr=subprocess.PIPE, text=True)
m = None
for line in p.stderr:  # a sanitizer may print lines of its own first
    m = re.match(r"mmemu: live view at (http://127\.0\.0\.1:\d+/)$", line.strip())
    if m:
        break
if not m:
    p.kill()
    sys.exit("no live view address on stderr")
url = m.group(1)
early = chromium()
late = None
try:
    early.get(url)  # --live-wait: the runs start when this page has connected
    seen = wait_done(early, "the page opened as the runs began")
    print(name, "live states seen:", seen[:3], "...", seen[-1:])
    # the page was fed while the runs went: a frame before the last one drew fewer points
    if not any(s[0] != "done" and 0 < s[1] < seen[-1][1] for s in seen):
        fail.append("the page opened as the runs began saw no partial state: %s" % seen[:5])
    # the final state is served until SIGINT; wait for the runs' table, then come late
    for _ in range(600):
        if "keeps the final state" in p.stderr.readline():
            break
    late = chromium()
    late.get(url)
    wait_done(late, "the page opened after the runs")
    subprocess.run([mmemu, "view", pb, "-o", html], check=True)
    saved = chromium()
    try:
        saved.get("file://" + os.path.abspath(html))
        want = saved.execute_script(SNAPSHOT, max_memcgs)
        severe(saved, "saved view")
    finally:
        saved.quit()
    for d, what in ((early, "early"), (late, "late")):
        got = d.execute_script(SNAPSHOT, max_memcgs)
        severe(d, what + " live page")
        if got != want:
            for k in want["memcgs"]:
                a, b = got["memcgs"].get(k), want["memcgs"][k]
                if a != b:
                    diff = [i for i, (x, y) in enumerate(zip(a["panels"], b["panels"])) if x != y] if a else "missing"
                    fail.append("%s live page, memcg %s differs from the saved view (panels %s)"
                                % (what, k, diff))
            if got["overview"] != want["overview"]:
                fail.append("%s live page: the overview differs: %s != %s"
                            % (what, got["overview"], want["overview"]))
    print(name, len(want["memcgs"]), "memcgs compared,",
          sum(len(x["panels"]) for x in want["memcgs"].values()), "panels")
finally:
    early.quit()
    if late:
        late.quit()
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "none (killed after 30 s)"
    out.close()
if rc != 0:
    fail.append("mmemu run --live exited %s after SIGINT" % rc)
rep = subprocess.run([mmemu, "report", pb, "--all"], check=True, capture_output=True, text=True).stdout
if open(table).read() != rep:
    fail.append("the table of run --live differs from mmemu report of its --out file")
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)

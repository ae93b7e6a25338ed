#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Loads a page of mmemu view in headless Chromium (selenium + chromedriver):
# no console errors, the expected panels and series, and the time cursor
# changes the lru_gen dump, which at the end is the run's final --dump lru_gen;
# the reclaim panel draws the memcg's own memory.stat series, the OOM markers
# are its memory.events oom_kill (--oom: at least one), the overview sorts by
# the pressure it explains; the memory.pressure panel draws the memcg's
# some and full avg10 samples. Axis labels are short numbers (151.6k), the
# title writes the scale as given (1/16), the lru_gen dump sits right under the
# time slider and both stay in sight when the page scrolls, the dump scrolls
# rather than clips, there is no swap panel in a run without swap, and the
# generations' bands have the colours mmemu plot gives them (its --script).
# usage: view_browser.py MMEMU SCENARIO SCALE OUTDIR [SCREENSHOT.png] [--oom]
import os, subprocess, sys
from browser import chromium
mmemu, scenario, scale, outdir = sys.argv[1:5]
want_oom = "--oom" in sys.argv[5:]
shot = next((a for a in sys.argv[5:] if a != "--oom"), None)
os.makedirs(outdir, exist_ok=True)
name = os.path.basename(scenario)[:-4]
pb, html = os.path.join(outdir, name + ".pb"), os.path.join(outdir, name + ".html")
subprocess.run([mmemu, "run", scenario, "--scale", scale, "--dump", "lru_gen", "--out", pb],
               check=True, stdout=subprocess.DEVNULL)
subprocess.run([mmemu, "view", pb, "-o", html], check=True)
d = chromium()
fail = []
try:
    d.get("file://" + os.path.abspath(html))
    if not d.execute_script("return window.mmemuView && window.mmemuView.ready"):
        fail.append("the page did not finish building")
    info = d.execute_script("""const v = window.mmemuView; return {
      runs: JSON.parse(document.getElementById('mmemu-data').textContent).runs.length,
      memcgs: document.querySelectorAll('#overview tr').length - 1,
      panels: v.charts.length, series: v.charts.map(c => c.data.datasets.length)};""")
    # the expected counts, from the saved runs themselves (mmemu report --format json)
    import json
    rep = json.loads(subprocess.run([mmemu, "report", pb, "--format", "json"], check=True,
                                    capture_output=True, text=True).stdout)
    nruns = len(rep["runs"])
    nmemcg = len(rep["runs"][0]["memcgs"])
    nodes = len(rep["runs"][0]["nodes"])
    print(name, info["runs"], "runs,", info["memcgs"], "memcgs,", info["panels"], "panels")
    if info["runs"] != nruns: fail.append("runs %d != %d" % (info["runs"], nruns))
    if info["memcgs"] != nmemcg: fail.append("memcgs %d != %d" % (info["memcgs"], nmemcg))
    # per run: one lruvec panel per node and 3 memcg panels, 4 with swap
    stats0 = [s for s in rep["runs"][0]["lru_gen_samples"] if s["kind"] == "stats"]
    has_swap = any("swap_used" in s for s in stats0)
    npanels = nruns * (nodes + 3 + has_swap)
    if info["panels"] != npanels:
        fail.append("panels %d != %d" % (info["panels"], npanels))
    for i, r in enumerate(rep["runs"]):
        per = info["series"][i::nruns]  # panels fill the grid a row (all runs) at a time
        want = 8 + 4 if r["policy"].startswith("mglru") else 4
        if per[:nodes] != [want] * nodes:
            fail.append("%s lruvec series %s, want %d each" % (r["policy"], per[:nodes], want))
    # axis labels: numbers of at most 4 significant digits, k/M/G past 10,000
    import re
    labels = d.execute_script("""return window.mmemuView.charts.flatMap(c =>
      Object.values(c.scales).flatMap(s => s.ticks.map(t => t.label)));""")
    noisy = [l for l in labels if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?[kMG]?", str(l)) or
             len(re.sub(r"[^0-9]", "", str(l)).lstrip("0")) > 4]
    if not labels or noisy:
        fail.append("%d axis labels, raw ones: %s" % (len(labels), noisy[:5]))
    h1 = d.execute_script("return document.querySelector('h1').textContent")
    if "(scale %s," % scale not in h1:
        fail.append("the title does not say scale %s: %s" % (scale, h1))
    # swap panels only when the run has swap
    titles = d.execute_script("return window.mmemuView.charts.map(c => c.options.plugins.title.text)")
    nswap = sum(t.startswith("swap") for t in titles)
    if nswap != (nruns if has_swap else 0):
        fail.append("%d swap panels, the runs %s swap" % (nswap, "have" if has_swap else "have no"))
    # the dump right under the slider, both in sight after scrolling, the dump scrolls
    def boxes():
        return d.execute_script("""const r = e => e.getBoundingClientRect();
          const c = r(document.getElementById('cursor')), p = r(document.querySelector('.dump'));
          const st = getComputedStyle(document.querySelector('.dump'));
          return {cursor: [c.top, c.bottom], dump: [p.top, p.bottom], h: window.innerHeight,
                  ox: st.overflowX, oy: st.overflowY};""")
    b0 = boxes()
    d.execute_script("window.scrollTo(0, 4000)")
    b1 = boxes()
    d.execute_script("window.scrollTo(0, 0)")
    print(name, "slider", b0["cursor"], "dump", b0["dump"], "scrolled", b1["cursor"], b1["dump"])
    if not (0 <= b0["dump"][0] - b0["cursor"][1] < 80):
        fail.append("the dump is %d px below the slider" % (b0["dump"][0] - b0["cursor"][1]))
    if not (b1["cursor"][0] >= 0 and b1["dump"][1] <= b1["h"]):
        fail.append("scrolled, the slider or the dump is out of sight: %s" % b1)
    if b0["ox"] not in ("auto", "scroll") or b0["oy"] not in ("auto", "scroll"):
        fail.append("the dump clips (overflow %s %s)" % (b0["ox"], b0["oy"]))
    # generation colours: mmemu plot's legend for the same generation
    if any(r["policy"].startswith("mglru") for r in rep["runs"]):
        gp = os.path.join(outdir, name + "-gens.gp")
        subprocess.run([mmemu, "plot", pb, "--what", "gens", "-o", os.path.join(outdir, name + "-gens.svg"),
                        "--script", gp], stdout=subprocess.DEVNULL)
        plot_colors = dict(re.findall(r"set label \d+ '\u25a0 (max_seq(?:-\d)?)[^']*' .*tc rgb '(#[0-9a-f]{6})'",
                                      open(gp, encoding="utf-8").read()))
        view_colors = d.execute_script("""const o = {}; for (const c of window.mmemuView.charts)
          for (const x of c.data.datasets) if (x.label.startsWith('anon max_seq'))
            o[x.label.slice(5)] = x.borderColor; return o;""")
        if len(plot_colors) < 4 or view_colors != plot_colors:
            fail.append("generation colours: view %s, plot %s" % (view_colors, plot_colors))
    d.execute_script("window.mmemuView.setTime(0)")
    a = d.execute_script("return [...document.querySelectorAll('.dump')].map(e => e.textContent)")
    d.execute_script("window.mmemuView.setTime(1e9)")
    b = d.execute_script("return [...document.querySelectorAll('.dump')].map(e => e.textContent)")
    if len(a) != nruns or a == b:
        fail.append("the time cursor does not change the dump text")
    # at the end, each MGLRU run's dump is its final --dump lru_gen (seq, age_ms, anon, file)
    sel = d.execute_script("return window.mmemuView.memcg")
    for i, r in enumerate(rep["runs"]):
        if not r["policy"].startswith("mglru"):
            continue
        final, on = [], False
        for line in r["lru_gen_dump"].split("\n"):
            if line.startswith("memcg "):
                on = line.split(None, 2)[2] == sel
            elif on and line.strip():
                final.append(line)
        shown = [l.split("   <-")[0] for l in b[i].split("\n")[2:]]
        if not final or shown != final:
            fail.append("%s: the dump at the end is not the final lru_gen:\n%s\n--- final:\n%s"
                        % (r["policy"], "\n".join(shown), "\n".join(final)))
    # the reclaim panel: the selected memcg's memory.stat pgscan per second; OOM kills marked
    charts = d.execute_script("""return window.mmemuView.charts.map(c => ({
      title: c.options.plugins.title.text,
      ds: c.data.datasets.map(x => ({ label: x.label, data: x.data.map(p => [p.x, p.y]) }))}));""")
    reclaim = [c for c in charts if c["title"].startswith("reclaim")]
    psi = [c for c in charts if c["title"].startswith("memory.pressure")]
    if len(psi) != nruns:
        fail.append("%d memory.pressure panels, want one per run (%d)" % (len(psi), nruns))
    memory = [c for c in charts if c["title"].startswith("memory.current")]
    nr_oom = 0
    for i, r in enumerate(rep["runs"]):
        st = [s for s in r["lru_gen_samples"] if s["kind"] == "stats"]
        want = [[b["t"], (b["memory_stat"][sel]["pgscan"] - a["memory_stat"][sel]["pgscan"]) / (b["t"] - a["t"])]
                for a, b in zip(st, st[1:]) if b["t"] > a["t"]]
        got = next((x["data"] for x in reclaim[i]["ds"] if x["label"] == "pgscan/s"), None)
        if sel not in reclaim[i]["title"] or "memory.stat" not in reclaim[i]["title"]:
            fail.append("%s: reclaim panel '%s' is not the memcg's" % (r["policy"], reclaim[i]["title"]))
        if got is None or len(got) != len(want) or any(abs(g[0] - w[0]) > 1e-9 or
                                                       abs(g[1] - w[1]) > 1e-6 * max(1, abs(w[1]))
                                                       for g, w in zip(got, want)):
            fail.append("%s: pgscan/s of %s is not its memory.stat series" % (r["policy"], sel))
        kills = r["memcgs"][sel[1:]]["memory.events"]["oom_kill"]
        for c in (memory[i], reclaim[i]):
            marks = sum(len(x["data"]) for x in c["ds"] if x["label"] == "OOM kill")
            if marks != kills:
                fail.append("%s: %d OOM markers on '%s', memory.events oom_kill %d"
                            % (r["policy"], marks, c["title"], kills))
        nr_oom += kills
        # memory.pressure: some and full avg10 of the memcg, sample by sample
        for k in ("some", "full"):
            want = [[s["t"], s["memory_pressure"][sel][k + "_avg10"]] for s in st]
            got = next((x["data"] for x in psi[i]["ds"] if x["label"] == k + " avg10"), None) \
                if i < len(psi) else None
            if not want or got != want:
                fail.append("%s: %s avg10 of %s is not its memory_pressure series (%d points, %s)"
                            % (r["policy"], k, sel, len(want), "none" if got is None else len(got)))
        print(name, r["policy"], sel, "some avg10 peak",
              max(s["memory_pressure"][sel]["some_avg10"] for s in st))
    if want_oom and not nr_oom:
        fail.append("no OOM kill in %s at %s (--oom): nothing to mark" % (name, scale))
    print(name, "memcg", sel, "OOM kills", nr_oom)
    # the overview sorts by pressure: memory.stat pgscan at the end over peak pages, the highest
    # over the runs, and says so
    def pressure(m):
        p = 0
        for r in rep["runs"]:
            st = [s for s in r["lru_gen_samples"] if s["kind"] == "stats"]
            peak = max(s["memory_current"].get(m, 0) for s in st) / 4096
            if peak > 0:
                p = max(p, st[-1]["memory_stat"][m]["pgscan"] / peak)
        return p
    order = d.execute_script("return [...document.querySelectorAll('#overview tr')].slice(1).map(r => r.cells[0].textContent)")
    ps = [pressure(m) for m in order]
    if any(x < y - 1e-9 for x, y in zip(ps, ps[1:])) or order[0] != sel:
        fail.append("the overview is not sorted by pressure: %s" % list(zip(order, ps))[:5])
    if "pressure: " not in d.execute_script("return document.getElementById('overview-box').textContent"):
        fail.append("the page does not say what pressure means")
    # hovering over a panel moves the cursor too: near its left edge, then near its right edge
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    import time
    canvas = d.find_elements(By.CSS_SELECTOR, ".panel canvas")[0]
    w = canvas.size["width"]
    # a quarter and nine tenths across the chart area (axes take the canvas's edges)
    area = d.execute_script("const a = window.mmemuView.charts[0].chartArea; return [a.left, a.right]")
    hovered = []
    for dx in (area[0] + (area[1] - area[0]) * f - w / 2 for f in (0.25, 0.9)):
        before = d.execute_script("return window.mmemuView.t")
        ActionChains(d).move_to_element_with_offset(canvas, int(dx), 0).perform()
        # the cursor follows at the next animation frame: up to 3 s on a loaded machine
        for _ in range(30):
            time.sleep(0.1)
            if d.execute_script("return window.mmemuView.t") != before:
                break
        hovered.append(d.execute_script("return window.mmemuView.t"))
    if not (hovered[0] < hovered[1]):
        fail.append("hovering does not move the time cursor: %s" % hovered)
    if shot:
        # the pointer off the charts, so that no tooltip covers the picture
        ActionChains(d).move_to_element(d.find_element(By.ID, "cursor-t")).perform()
        d.execute_script("window.mmemuView.setTime(%f)" % (rep["runs"][0]["sim_seconds"] / 2))
        d.save_screenshot(shot)
    for e in d.get_log("browser"):
        if e["level"] == "SEVERE":
            fail.append("console: " + e["message"])
finally:
    d.quit()
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)

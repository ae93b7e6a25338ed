#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Loads a page of mmemu view in headless Chromium (selenium + chromedriver):
# no console errors, the expected panels and series, and the time cursor
# changes the lru_gen dump. usage: view_browser.py MMEMU SCENARIO SCALE OUTDIR [SCREENSHOT]
import os, shutil, subprocess, sys
if not shutil.which("chromium") or not shutil.which("chromedriver"):
    sys.exit(77)
try:
    from selenium import webdriver
except ImportError:
    sys.exit(77)
mmemu, scenario, scale, outdir = sys.argv[1:5]
shot = sys.argv[5] if len(sys.argv) > 5 else None
os.makedirs(outdir, exist_ok=True)
name = os.path.basename(scenario)[:-4]
pb, html = os.path.join(outdir, name + ".pb"), os.path.join(outdir, name + ".html")
subprocess.run([mmemu, "run", scenario, "--scale", scale, "--out", pb], check=True,
               stdout=subprocess.DEVNULL)
subprocess.run([mmemu, "view", pb, "-o", html], check=True)
o = webdriver.ChromeOptions()
for a in ("--headless=new", "--no-sandbox", "--window-size=1600,1200", "--disable-gpu"):
    o.add_argument(a)
o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
d = webdriver.Chrome(options=o)
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
    # per run: one lruvec panel per node and 3 memcg panels
    if info["panels"] != nruns * (nodes + 3):
        fail.append("panels %d != %d" % (info["panels"], nruns * (nodes + 3)))
    for i, r in enumerate(rep["runs"]):
        per = info["series"][i::nruns]  # panels fill the grid a row (all runs) at a time
        want = 8 + 4 if r["policy"].startswith("mglru") else 4
        if per[:nodes] != [want] * nodes:
            fail.append("%s lruvec series %s, want %d each" % (r["policy"], per[:nodes], want))
    d.execute_script("window.mmemuView.setTime(0)")
    a = d.execute_script("return [...document.querySelectorAll('.dump')].map(e => e.textContent)")
    d.execute_script("window.mmemuView.setTime(1e9)")
    b = d.execute_script("return [...document.querySelectorAll('.dump')].map(e => e.textContent)")
    if len(a) != nruns or a == b:
        fail.append("the time cursor does not change the dump text")
    # hovering over a panel moves the cursor too: near its left edge, then near its right edge
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    import time
    canvas = d.find_elements(By.CSS_SELECTOR, ".panel canvas")[0]
    w = canvas.size["width"]
    hovered = []
    for dx in (-w * 0.25, w * 0.4):
        ActionChains(d).move_to_element_with_offset(canvas, int(dx), 0).perform()
        time.sleep(0.2)  # the cursor follows at the next animation frame
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

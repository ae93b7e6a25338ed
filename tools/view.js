// SPDX-License-Identifier: GPL-2.0-only
// mmemu view: glue between the runs (the JSON tools/view.c writes) and
// Chart.js. Panels are tables of what to draw, not code per panel.
"use strict";
(function () {
// The page is a function of the runs: drawn once from those embedded in it
// (mmemu view), and again whenever more arrive (mmemu run --live:
// tools/live.js calls mmemuView.feed(data)), keeping the memcg picked, the
// time cursor and the sort.
function view(data, prev) {
const root = document.getElementById("mmemu-view");
const state = { charts: [], memcg: null, t: 0, sortKey: "pressure", sortDir: -1, dumpOpen: true };
window.mmemuView = state;

// One run: its stats rows, its OOM kills and its lruvec rows by "memcg node".
function prepare(run) {
  const stats = [], ooms = [], lv = new Map();
  for (const s of run.samples) {
    if (s.kind === "stats") stats.push(s);
    else if (s.kind === "oom") ooms.push(s);
    else if (s.kind === "gens" || s.kind === "lists") {
      const k = s.memcg + " " + s.node;
      if (!lv.has(k)) lv.set(k, { memcg: s.memcg, node: s.node, kind: s.kind, rows: [] });
      lv.get(k).rows.push(s);
    }
  }
  // files saved before the per-memcg series have only the machine's counters
  const perMemcg = stats.some(s => s.memory_stat);
  // and those saved before PSI have no memory_pressure
  const hasPressure = stats.some(s => s.memory_pressure);
  return { run, stats, ooms, lv, perMemcg, hasPressure };
}
const runs = data.runs.map(prepare);
const tmax = Math.max(0.001, ...runs.map(r => r.run.sim_seconds));
const memcgs = [...new Set(runs.flatMap(r => r.stats.length ?
  Object.keys(r.stats[r.stats.length - 1].memory_current) : []))].filter(m => m !== "/");  // the root: the machine
const PAGE = 4096, MB = 1048576;
const hasSwap = runs.some(r => r.stats.some(s => "swap_used" in s || "zram_stored" in s));

function rate(stats, f) {  // per second, from cumulative counters
  const out = [];
  for (let i = 1; i < stats.length; i++) {
    const dt = stats[i].t - stats[i - 1].t;
    if (dt > 0) out.push({ x: stats[i].t, y: (f(stats[i]) - f(stats[i - 1])) / dt });
  }
  return out;
}
// The memcg's counters in a stats row: memory.stat (hierarchical), else the machine's.
function reclaimOf(r, s, m) {
  return r.perMemcg ? (s.memory_stat || {})[m] || {} : s;
}
// Is memcg a in the subtree of memcg m (memcg_parent of the run's last stats row)?
function inSubtree(r, a, m) {
  const par = r.stats.length ? r.stats[r.stats.length - 1].memcg_parent || {} : {};
  for (let x = a, n = 0; x && n < 1000; x = par[x], n++) if (x === m) return true;
  return false;
}
// OOM kills in memcg m's subtree (what its memory.events oom_kill counts) as markers
// at height y(t), each with the kernel's oom-kill line as its tooltip; [] when none.
function oomMarkers(r, m, y) {
  const ooms = r.ooms.filter(o => inSubtree(r, o.task_memcg, m));
  return ooms.length ? [{ label: "OOM kill", type: "scatter", pointStyle: "crossRot", pointRadius: 8, borderWidth: 3,
    borderColor: "#d62728", backgroundColor: "#d62728",
    data: ooms.map(o => ({ x: o.t, y: y(o.t),
      note: "OOM kill at " + o.t.toFixed(3) + " s: task=" + o.task + " pid=" + o.pid +
        " task_memcg=" + o.task_memcg + " oom_memcg=" + o.oom_memcg + " (" + o.constraint + ")" })) }] : [];
}
// The value of stats field f at time t: the last row at or before t.
function statAt(r, t, f) {
  let v = 0;
  for (const s of r.stats) { if (s.t > t + 1e-9) break; v = f(s); }
  return v;
}
// Generations by age: band 0 the oldest (min_seq), the last the youngest (max_seq).
// Their colours by distance from max_seq, [0] the youngest: mmemu plot's table
// (tools/palette.c), which tools/view.c writes into the page before this script.
const GEN_COLORS = window.mmemuPalette.gens;
const MAX_GENS = GEN_COLORS.length;
const MAX_NODES = 1024;  // the kernel's NODES_SHIFT 10: lruvec rows come before the panels
function genBand(row, age, type) {
  const g = row.gens[row.gens.length - 1 - (MAX_GENS - 1 - age)];
  return g ? g[type] * PAGE / MB : 0;
}
const LISTS = [["inactive_anon", "#d62728"], ["active_anon", "#ff9896"],
               ["inactive_file", "#1f77b4"], ["active_file", "#aec7e8"]];

// The panels of one memcg, each a function of (prepared run, memcg) to datasets.
const PANELS = [
  { title: "memory.current against memory.max / memory.high (MiB)", datasets(r, m) {
      const ds = [{ label: "memory.current", data: r.stats.map(s => ({ x: s.t,
        y: (s.memory_current[m] || 0) / MB })), borderColor: "#000" }];
      const lim = r.run.limits[m] || {};
      for (const [k, c] of [["memory.max", "#d62728"], ["memory.high", "#ff7f0e"]])
        if (lim[k]) ds.push({ label: k, data: [{ x: 0, y: lim[k] / MB }, { x: tmax, y: lim[k] / MB }],
          borderColor: c, borderDash: [6, 4] });
      ds.push(...oomMarkers(r, m, t => statAt(r, t, s => (s.memory_current[m] || 0) / MB)));
      return ds;
  } },
  { title: (r, m) => r.perMemcg ?
      "reclaim in " + m + " (memory.stat): pgscan, pgsteal, workingset refaults per second" :
      "reclaim: pgscan, pgsteal, workingset refaults per second (machine: this file has no per-memcg counters)",
    datasets(r, m) {
      const ds = [["pgscan", s => reclaimOf(r, s, m).pgscan || 0, "#9467bd"],
        ["pgsteal", s => reclaimOf(r, s, m).pgsteal || 0, "#8c564b"],
        ["refault", s => (reclaimOf(r, s, m).workingset_refault_anon || 0) +
          (reclaimOf(r, s, m).workingset_refault_file || 0), "#e377c2"]]
        .map(([l, f, c]) => ({ label: l + "/s", data: rate(r.stats, f), borderColor: c }));
      ds.push(...oomMarkers(r, m, () => 0));
      return ds;
  } },
  // memory.pressure (kernel/sched/psi.c): some and full avg10 of the memcg, "/" none here
  { title: (r, m) => r.hasPressure ?
      "memory.pressure of " + m + ": some and full avg10 (% of time)" :
      "memory.pressure: none in this file (saved before mmemu modelled PSI)",
    datasets(r, m) {
      if (!r.hasPressure) return [];
      return [["some", "#ff7f0e", undefined], ["full", "#d62728", [6, 4]]]
        .map(([k, c, dash]) => ({ label: k + " avg10", borderColor: c, borderDash: dash,
          data: r.stats.filter(s => s.memory_pressure && s.memory_pressure[m])
            .map(s => ({ x: s.t, y: s.memory_pressure[m][k + "_avg10"] })) }));
  } },
  // none without swap: no swap device, so no zram and no zswap (scenarios/run.c sample_swap)
  { title: "swap and zram (MiB)", shown: () => hasSwap, datasets(r) {
      return [["swap_used", "#7f7f7f"], ["zram_stored", "#bcbd22"], ["zram_pool", "#17becf"]]
        .filter(([k]) => r.stats.some(s => k in s))
        .map(([k, c]) => ({ label: k, data: r.stats.map(s => ({ x: s.t, y: (s[k] || 0) * PAGE / MB })),
          borderColor: c }));
  } },
];
// Per lruvec: the generations (MGLRU) or the four lists (classic), stacked.
function lruvecDatasets(v) {
  if (v.kind === "lists")
    return LISTS.map(([k, c]) => ({ label: k, data: v.rows.map(s => ({ x: s.t, y: s[k] * PAGE / MB })),
      backgroundColor: c, borderColor: c, fill: true, stack: "l" }));
  const ds = [];
  for (const type of ["anon", "file"])
    for (let age = 0; age < MAX_GENS; age++)
      // a band is a generation's distance from max_seq: with fewer than MAX_GENS
      // generations the oldest is not max_seq-3, so no band is called "oldest"
      ds.push({ label: type + " " + (age === MAX_GENS - 1 ? "max_seq" : "max_seq-" + (MAX_GENS - 1 - age)),
        data: v.rows.map(s => ({ x: s.t, y: genBand(s, age, type) })), stack: "g", fill: true,
        backgroundColor: GEN_COLORS[MAX_GENS - 1 - age] + (type === "anon" ? "ff" : "80"),
        borderColor: GEN_COLORS[MAX_GENS - 1 - age],
        borderWidth: 0.5 });
  // aging (max_seq++) and eviction (min_seq++) marked where they happen, on the seq axis
  const ev = [[s => s.max_seq, "aging (max_seq++)", "triangle", "#000"],
              [s => Math.min(s.min_seq[0], s.min_seq[1]), "eviction (min_seq++)", "rectRot", "#d62728"]];
  for (const [f, l, p, c] of ev) {
    ds.push({ label: l.split(" ")[0] === "aging" ? "max_seq" : "min_seq", data: v.rows.map(s => ({ x: s.t, y: f(s) })),
      yAxisID: "seq", borderColor: c, stepped: true, fill: false });
    ds.push({ label: l, type: "scatter", yAxisID: "seq", pointStyle: p, pointRadius: 4, backgroundColor: c,
      data: v.rows.filter((s, i) => i && f(s) > f(v.rows[i - 1])).map(s => ({ x: s.t, y: f(s) })) });
  }
  return ds;
}

// An axis label: at most 4 significant digits, k, M or G from 10,000 on
// (151.6k, not the 151,599.00000000003 of a maximum at 1.05 times the data's).
function tickLabel(v) {
  const a = Math.abs(v);
  if (a < 1e-9) return "0";
  for (const [d, s] of [[1e9, "G"], [1e6, "M"], [1e4, "k"]])
    if (a >= d) return +(v / d).toPrecision(4) + s;
  return String(+v.toPrecision(4));
}
const ticks = { callback: v => tickLabel(v) };
// 1/256 rather than 0.00390625: a scale that is the reciprocal of a whole number as
// one, any other in at most 4 significant digits
function scaleText(s) {
  const r = 1 / s;
  return s > 0 && s < 1 && Math.abs(r - Math.round(r)) < 1e-9 * r ? "1/" + Math.round(r) :
    String(+Number(s).toPrecision(4));
}
function chart(parent, title, datasets, opts) {
  const box = document.createElement("div");
  box.className = "panel";
  const c = document.createElement("canvas");
  box.appendChild(c);
  parent.appendChild(box);
  const scales = { x: { type: "linear", min: 0, max: tmax, ticks, title: { display: true, text: "simulated s" } },
                   y: { beginAtZero: true, stacked: !!(opts && opts.stacked), max: opts && opts.ymax, ticks } };
  if (datasets.some(d => d.yAxisID === "seq"))
    scales.seq = { position: "right", grid: { drawOnChartArea: false }, ticks,
                   title: { display: true, text: "seq" } };
  // no points on lines, but a series of one sample (a run that ended at once) shows its point
  for (const d of datasets) { d.pointRadius = d.pointRadius ?? (d.data.length === 1 ? 3 : 0);
    d.borderWidth = d.borderWidth ?? 1.5; }
  const ch = new Chart(c, { type: "line", data: { datasets }, options: {
    animation: false, responsive: true, maintainAspectRatio: false, parsing: true,
    interaction: { mode: "nearest", axis: "x", intersect: false },
    onHover: (e, els, chart) => hoverTime(chart.scales.x.getValueForPixel(e.x)),
    onClick: (e, els, chart) => setTime(chart.scales.x.getValueForPixel(e.x)),
    plugins: { title: { display: true, text: title }, legend: { labels: { boxWidth: 10, font: { size: 10 } } },
      tooltip: { callbacks: { label: c => c.raw && c.raw.note ? c.raw.note :
        (c.dataset.label || "") + ": " + c.formattedValue } },
      cursor: {} },
    scales } , plugins: [cursorPlugin] });
  state.charts.push(ch);
  return ch;
}
// Hovering (or dragging) over a panel moves the cursor, at most once per frame.
let hoverPending = null;
function hoverTime(t) {
  if (!(t >= 0 && t <= tmax)) return;
  if (hoverPending === null) requestAnimationFrame(() => { const x = hoverPending; hoverPending = null; setTime(x); });
  hoverPending = t;
}
const cursorPlugin = { id: "cursor", afterDraw(ch) {
  const x = ch.scales.x.getPixelForValue(state.t), a = ch.chartArea, g = ch.ctx;
  g.save(); g.strokeStyle = "#444"; g.setLineDash([3, 3]);
  g.beginPath(); g.moveTo(x, a.top); g.lineTo(x, a.bottom); g.stroke(); g.restore();
} };

// The lru_gen dump (debugfs layout: seq, age_ms, anon and file pages, as --dump lru_gen
// prints it) of the memcg's lruvec rows at an instant; "-" for an age the file lacks.
const pad = (v, n) => String(v).padStart(n);
function dumpText(r, m, t) {
  const lines = [];
  for (const v of r.lv.values()) {
    if (v.memcg !== m) continue;
    let row = v.rows[0];
    for (const s of v.rows) if (s.t <= t + 1e-9) row = s;
    if (!row) continue;
    if (!lines.length) lines.push("memcg " + m + "   (t=" + row.t.toFixed(3) + " s)");
    lines.push(" node " + pad(v.node, 5));
    if (v.kind === "gens")
      for (const g of row.gens)
        lines.push(" " + pad(g.seq, 10) + " " + pad(g.age_ms ?? "-", 10) + " " +
          pad(g.seq >= row.min_seq[0] && g.anon > 0 ? g.anon : 0, 10) + " " +
          pad(g.seq >= row.min_seq[1] && g.file > 0 ? g.file : 0, 10) +
          (g.seq === row.max_seq ? "   <- max_seq" : "") +
          (g.seq === row.min_seq[0] ? "   <- min_seq[anon]" : "") +
          (g.seq === row.min_seq[1] ? "   <- min_seq[file]" : ""));
    else
      for (const [k] of LISTS) lines.push("   " + k.padEnd(14) + String(row[k]).padStart(10));
  }
  return lines.join("\n") || "(no lruvec samples at t=" + t.toFixed(3) + ")";
}

// The overview's columns, the highest over the runs; null: does not apply.
const perMemcg = runs.some(r => r.perMemcg);
function peakBytes(r, m) { return Math.max(0, ...r.stats.map(s => s.memory_current[m] || 0)); }
function limitUse(m) {  // the highest memory.current / the lower of memory.max and memory.high
  let p = null;
  for (const r of runs) {
    const l = r.run.limits[m] || {}, lim = Math.min(l["memory.max"] || Infinity, l["memory.high"] || Infinity);
    if (lim < Infinity) p = Math.max(p ?? 0, peakBytes(r, m) / lim);
  }
  return p;
}
function lastStat(r) { return r.stats.length ? r.stats[r.stats.length - 1] : null; }
function pressure(m) {
  if (!perMemcg) return limitUse(m) ?? 0;
  let p = 0;  // memory.stat pgscan at the end over memory.peak in pages
  for (const r of runs) {
    const s = lastStat(r), pk = peakBytes(r, m) / PAGE;
    if (s && pk > 0) p = Math.max(p, reclaimOf(r, s, m).pgscan / pk);
  }
  return p;
}
const PRESSURE_TEXT = perMemcg ?
  "pressure: how many times over reclaim scanned the memcg's memory — memory.stat pgscan (hierarchical) " +
  "at the end of the run over memory.peak in pages, the highest over the runs. limit use: the highest " +
  "memory.current over memory.max (or memory.high if lower). OOM kills: memory.events oom_kill. " +
  "some avg10 peak: the highest memory.pressure some avg10 (% of time some task of the memcg stalled " +
  "on memory, over 10 s) in the samples." :
  "pressure: the highest memory.current over memory.max or memory.high (this file has no per-memcg " +
  "reclaim counters: saved by an older mmemu).";
const overviewCols = [
  ["memcg", m => m], ["pressure", m => pressure(m)], ["limit use", m => limitUse(m)],
  ["pgscan/s peak", m => perMemcg ? Math.max(0, ...runs.flatMap(r =>
    rate(r.stats, s => reclaimOf(r, s, m).pgscan || 0).map(p => p.y))) : null],
  ["OOM kills", m => perMemcg ? Math.max(0, ...runs.map(r => {
    const s = lastStat(r); return s && s.memory_events && s.memory_events[m] ? s.memory_events[m].oom_kill : 0;
  })) : null],
  ["peak MiB", m => Math.max(0, ...runs.map(r => peakBytes(r, m))) / MB],
  ["some avg10 peak", m => runs.some(r => r.hasPressure) ? Math.max(0, ...runs.flatMap(r =>
    r.stats.map(s => s.memory_pressure && s.memory_pressure[m] ? s.memory_pressure[m].some_avg10 : 0))) : null],
];
const fmt = v => v === null ? "–" : typeof v !== "number" ? v : Number.isInteger(v) ? String(v) :
  v >= 100 ? v.toFixed(0) : v.toFixed(2);

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  Object.assign(e, attrs || {});
  if (text !== undefined) e.textContent = text;
  return e;
}
function renderOverview(box) {
  box.innerHTML = "";
  const t = el("table", { id: "overview" }), hr = el("tr");
  for (const [name] of overviewCols) {
    const th = el("th", {}, name + (state.sortKey === name ? (state.sortDir < 0 ? " ▼" : " ▲") : ""));
    th.onclick = () => { state.sortDir = state.sortKey === name ? -state.sortDir : -1; state.sortKey = name;
      renderOverview(box); };
    hr.appendChild(th);
  }
  t.appendChild(hr);
  const f = overviewCols.find(c => c[0] === state.sortKey)[1];
  const key = v => v === null ? -Infinity : v;  // "does not apply" sorts below every number
  const rows = memcgs.map(m => [m, key(f(m))]).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) * state.sortDir);
  for (const [m] of rows) {
    const tr = el("tr", { className: m === state.memcg ? "sel" : "" });
    for (const [, g] of overviewCols) tr.appendChild(el("td", {}, fmt(g(m))));
    tr.onclick = () => { state.memcg = m; renderOverview(box); renderDetail(); };
    t.appendChild(tr);
  }
  box.appendChild(t);
  box.appendChild(el("p", { className: "note" }, PRESSURE_TEXT));
}

let detail, dumps;
function renderDetail() {
  for (const c of state.charts) c.destroy();
  state.charts = [];
  detail.innerHTML = "";
  const m = state.memcg;
  detail.appendChild(el("h2", {}, "memcg " + m));
  const grid = el("div", { className: "grid" });
  grid.style.gridTemplateColumns = "repeat(" + runs.length + ", minmax(0, 1fr))";
  detail.appendChild(grid);
  for (const r of runs) grid.appendChild(el("h3", {}, r.run.policy + " (seed " + r.run.seed + ")"));
  // shared y axes: one maximum per row of panels over the runs
  // a row of panels per lruvec node, then per memcg panel, keyed so that a run
  // without some lruvec (no samples of it) leaves a gap, not a shifted row
  const rowsOf = r => {
    const out = new Map();
    for (const v of r.lv.values()) if (v.memcg === m)
      out.set(v.node, ["lruvec " + m + " node " + v.node + (v.kind === "gens" ? ": generations (MiB)" :
        ": LRU lists (MiB)"), lruvecDatasets(v), true]);
    PANELS.forEach((p, i) => { if (!p.shown || p.shown())
      out.set(MAX_NODES + i, [typeof p.title === "function" ? p.title(r, m) : p.title, p.datasets(r, m), false]); });
    return out;
  };
  const all = runs.map(rowsOf);
  const keys = [...new Set(all.flatMap(a => [...a.keys()]))].sort((a, b) => a - b);
  for (const k of keys) {
    let ymax = 0;
    for (const a of all) if (a.has(k)) {
      const row = a.get(k), ds = row[1].filter(d => !d.yAxisID);
      if (row[2]) { const n = Math.max(0, ...ds.map(d => d.data.length));
        for (let j = 0; j < n; j++) ymax = Math.max(ymax, ds.reduce((s, d) => s + (d.data[j] ? d.data[j].y : 0), 0)); }
      else for (const d of ds) for (const p of d.data) ymax = Math.max(ymax, p.y);
    }
    for (const a of all) {
      const row = a.get(k);
      if (row) chart(grid, row[0], row[1], { stacked: row[2], ymax: ymax > 0 ? ymax * 1.05 : undefined });
      else grid.appendChild(el("div", { className: "panel" }));
    }
  }
  setTime(state.t);
}
function setTime(t) {
  state.t = Math.max(0, Math.min(tmax, t || 0));
  const sl = document.getElementById("cursor");
  sl.value = state.t;
  document.getElementById("cursor-t").textContent = "t = " + state.t.toFixed(3) + " s";
  runs.forEach((r, i) => { if (dumps && dumps[i]) dumps[i].textContent = r.run.policy + "\n" + dumpText(r, state.memcg, state.t); });
  for (const c of state.charts) c.draw();
}
state.setTime = setTime;
state.select = m => { state.memcg = m; renderOverview(document.getElementById("overview-box")); renderDetail(); };

function build() {
  const css = el("style", {}, "body{font:13px sans-serif;margin:8px} .grid{display:grid;gap:6px}" +
    ".panel{height:230px;position:relative} #overview td,#overview th{padding:1px 5px;cursor:pointer} #overview td{white-space:nowrap}" +
    "#overview tr.sel{background:#ffe} #overview th{background:#eee}" +
    ".dump{font:11px monospace;background:#f6f6f6;padding:4px;margin:2px 0;overflow:auto;max-height:22vh}" +
    "#top{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #ccc;padding-bottom:2px}" +
    "#dump-box summary{font-size:12px;cursor:pointer}" +
    "#layout{display:grid;grid-template-columns:400px minmax(0,1fr);gap:10px}" +
    "#overview-box{max-height:90vh;overflow:auto} #overview td{text-align:right}" +
    "#overview td:first-child{text-align:left} .note{font-size:11px;color:#444}");
  document.head.appendChild(css);
  root.appendChild(el("h1", {}, "mmemu view: " + data.scenario + " (scale " + scaleText(data.scale) + ", " +
    data.runs.map(r => r.policy).join(", ") + ")"));
  // the cursor and the lru_gen dump at it stay at the top while the panels scroll under them
  const top = el("div", { id: "top" }), bar = el("div");
  const sl = el("input", { type: "range", id: "cursor", min: 0, max: tmax, step: tmax / 1000, value: 0 });
  sl.style.width = "60%";
  sl.oninput = () => setTime(parseFloat(sl.value));
  bar.appendChild(el("label", {}, "time cursor: "));
  bar.appendChild(sl);
  bar.appendChild(el("span", { id: "cursor-t" }));
  top.appendChild(bar);
  // the lru_gen dump right under the cursor, each run's in a box that scrolls rather than clips
  const db = el("details", { id: "dump-box", open: state.dumpOpen });
  db.ontoggle = () => { state.dumpOpen = db.open; };  // kept when run --live redraws the page
  db.appendChild(el("summary", {}, "lru_gen at the cursor (as debugfs: seq, age in ms since the generation's " +
    "birth, anon and file pages)"));
  dumps = runs.map(() => el("pre", { className: "dump" }));
  const dg = el("div", { className: "grid" });
  dg.style.gridTemplateColumns = "repeat(" + runs.length + ", minmax(0, 1fr))";
  for (const d of dumps) dg.appendChild(d);
  db.appendChild(dg);
  top.appendChild(db);
  root.appendChild(top);
  const lay = el("div", { id: "layout" }), ov = el("div", { id: "overview-box" });
  detail = el("div", { id: "detail" });
  lay.appendChild(ov); lay.appendChild(detail); root.appendChild(lay);
  const ranked = memcgs.slice().sort((a, b) => pressure(b) - pressure(a));
  if (!memcgs.includes(state.memcg)) state.memcg = ranked[0] || null;
  renderOverview(ov);
  if (state.memcg) renderDetail();
  else detail.appendChild(el("p", {}, data.live ? "no samples yet" :
    "no samples in these runs (saved with --sample 0?)"));
  state.ready = true;
}
if (prev) for (const k of ["memcg", "t", "sortKey", "sortDir", "dumpOpen"]) state[k] = prev[k];
state.tmax = tmax;
state.feed = d => {
  const y = window.scrollY;
  for (const c of state.charts) c.destroy();
  root.innerHTML = "";
  for (const css of document.head.querySelectorAll("style")) css.remove();  // build() adds its own
  view(d, state);
  window.scrollTo(0, y);
};
build();
}
view(JSON.parse(document.getElementById("mmemu-data").textContent));
})();

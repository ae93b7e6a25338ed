// SPDX-License-Identifier: GPL-2.0-only
// mmemu run --live: feeds the page of mmemu view (tools/view.js) with the
// runs as they go, from the server's event stream (tools/live.h): "sample"
// (a run's next row), "run" (a run's result: sim_seconds, dump, limits) and
// "end". The page redraws at most every REDRAW_MS; the time cursor follows
// the latest sample unless it was moved away from the end.
"use strict";
(function () {
const view = () => window.mmemuView;  // a new object each time the page is drawn
const doc = JSON.parse(document.getElementById("mmemu-data").textContent);
const REDRAW_MS = 500;
const done = new Set();  // runs whose result is in
let timer = null, fed = false, live = "connecting";
view().live = live;

function redraw() {
  timer = null;
  const follow = !fed || view().t >= view().tmax - 1e-9;
  view().feed(doc);
  fed = true;
  if (follow) view().setTime(view().tmax);
  view().live = live;
}
function later() { if (timer === null) timer = setTimeout(redraw, REDRAW_MS); }
function status(s) { live = s; view().live = s; }

const es = new EventSource("events");
es.onopen = () => { if (live !== "done") status("running"); };
es.addEventListener("sample", e => {
  const m = JSON.parse(e.data), r = doc.runs[m.run];
  r.samples.push(m.row);
  if (!done.has(m.run)) r.sim_seconds = Math.max(r.sim_seconds, m.row.t);
  later();
});
es.addEventListener("run", e => {
  const m = JSON.parse(e.data);
  Object.assign(doc.runs[m.run], m.final);
  done.add(m.run);
  later();
});
es.addEventListener("end", () => {
  es.close();
  if (timer !== null) clearTimeout(timer);
  live = "done";
  redraw();
});
})();

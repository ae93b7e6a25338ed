#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""python/mmemu_results.py on a file `mmemu run --out` saved: every value,
run and sample row it gives equals what `mmemu report FILE` prints of the
same file (--format csv for the values, --format json for the runs and the
samples), and a file cut short, foreign or of the old form is refused.
usage: test_results_py.py MMEMU SCENARIO PYTHON_DIR WORKDIR (exit 77: no python3-protobuf)
"""

import json
import os
import subprocess
import sys

mmemu, scenario, python_dir, work = sys.argv[1:5]
sys.path.insert(0, python_dir)
try:
    import google.protobuf  # noqa: F401
except ImportError:
    print("no python3-protobuf (apt-get install python3-protobuf): skipped")
    sys.exit(77)
import mmemu_results as mr  # noqa: E402

os.makedirs(work, exist_ok=True)
pb = os.path.join(work, "run.pb")
subprocess.run([mmemu, "run", scenario, "--scale", "1/32", "--policy", "classic,mglru-budget",
                "--seeds", "1,2", "--set", "vm.swappiness=100", "--sample", "0.1",
                "--out", pb, "--format", "csv"], check=True, stdout=subprocess.DEVNULL)


def report(fmt):
    return subprocess.run([mmemu, "report", pb, "--format", fmt], check=True,
                          capture_output=True, text=True).stdout


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


res = mr.load(pb)
if res.header.format != "mmemu.results" or res.header.schema_version != 2:
    fail("header %s" % res.header)
if not res.header.mmemu_commit:
    fail("no commit in the header")

# the values, as the CSV writer prints them (%.0f for integers, %.9g else)
csv = report("csv").splitlines()[1:]
rows = mr.values(res)
want = set()
for line in csv:
    sc, scale, policy, options, seed, group, key, value = line.split(",")
    if group != "run":
        want.add((policy, options, int(seed), group, key, value))
got = set()
for r in rows:
    v = r["value"]
    got.add((r["policy"], r["options"], r["seed"], r["group"], r["key"],
             "%d" % v if isinstance(v, int) else "%.9g" % v))
if got != want:
    fail("values: %d only in the module, %d only in the CSV (%s)" % (
        len(got - want), len(want - got), sorted(got ^ want)[:3]))

# runs and samples, as the JSON writer prints them
doc = json.loads(report("json"))
runs = mr.runs(res)
if [(r["policy"], r["options"], r["seed"], r["sim_seconds"]) for r in runs] != \
        [(r["policy"], r["options"], r["seed"], r["sim_seconds"]) for r in doc["runs"]]:
    fail("runs differ")
if runs[0]["options"] != "vm.swappiness=100":
    fail("options: %r" % runs[0]["options"])
stats, memcgs, gens, lists = mr.stats(res), mr.memcg_stats(res), mr.generations(res), mr.lists(res)
n_stats = n_memcg = n_gens = n_lists = 0
for run in doc["runs"]:
    key = (run["policy"], run["options"], run["seed"])
    for s in run["lru_gen_samples"]:
        if s["kind"] == "stats":
            m = stats[n_stats]
            n_stats += 1
            if (m["policy"], m["options"], m["seed"]) != key or "%.6f" % m["t"] != "%.6f" % s["t"] \
                    or m["pgscan"] != s["pgscan"] or m["free_pages"] != sum(s["free_pages"]) \
                    or m.get("swap_used") != s.get("swap_used"):
                fail("stats row %d: %s against %s" % (n_stats, m, s))
            for name, cur in s["memory_current"].items():
                c = memcgs[n_memcg]
                n_memcg += 1
                if c["memcg"] != name or c["memory_current"] != cur or \
                        c["some_total"] != s["memory_pressure"][name]["some_total"] or \
                        c["pgsteal"] != s["memory_stat"][name]["pgsteal"]:
                    fail("memcg row %d: %s against %s" % (n_memcg, c, s))
        elif s["kind"] == "gens":
            for g in s["gens"]:
                r = gens[n_gens]
                n_gens += 1
                if (r["memcg"], r["node"], r["seq"], r["age_ms"], r["anon"], r["file"],
                        r["max_seq"]) != (s["memcg"], s["node"], g["seq"], g["age_ms"],
                                          g["anon"], g["file"], s["max_seq"]):
                    fail("generation row %d: %s against %s" % (n_gens, r, s))
        elif s["kind"] == "lists":
            r = lists[n_lists]
            n_lists += 1
            if (r["memcg"], r["inactive_anon"], r["active_file"]) != \
                    (s["memcg"], s["inactive_anon"], s["active_file"]):
                fail("lists row %d: %s against %s" % (n_lists, r, s))
if (n_stats, n_memcg, n_gens, n_lists) != (len(stats), len(memcgs), len(gens), len(lists)):
    fail("rows: %s in the JSON, %s from the module" % (
        (n_stats, n_memcg, n_gens, n_lists), (len(stats), len(memcgs), len(gens), len(lists))))
if not (n_stats and n_gens and n_lists):
    fail("no samples of some kind: %s" % ((n_stats, n_gens, n_lists),))

# refused with the file's name and what is wrong
data = open(pb, "rb").read()
for bad, says in ((data[:len(data) // 2], "truncated"), (b"[machine]\n", "not an mmemu result"),
                  (b"MMEMUPB1\0\0\0\0\0\0\0\0", "regenerate")):
    try:
        mr.loads(bad, "bad.pb")
        fail("accepted: %r" % bad[:20])
    except mr.ResultFileError as e:
        if "bad.pb" not in str(e) or says not in str(e):
            fail("message: %s" % e)
print("mmemu_results: %d values, %d stats, %d memcg, %d generation, %d lists rows, as report prints"
      % (len(rows), n_stats, n_memcg, n_gens, n_lists))

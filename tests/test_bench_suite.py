#!/usr/bin/env python3
"""tools/bench-suite --experiments: which runs it makes for tools/reproduce's
experiments, what it says of a run over its CPU limit, and how it costs the
plan. It runs real (small) simulations and asserts what the table says, never
how long anything took.

usage: test_bench_suite.py MMEMU"""
import os
import re
import subprocess
import sys
import unittest

SRC = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MMEMU = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRC, "build", "tools", "mmemu")


def bench(*args):
    p = subprocess.run([sys.executable, os.path.join(SRC, "tools", "bench-suite"), "--experiments",
                        "--mmemu", MMEMU] + list(args), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def rows(out):
    """experiment -> list of (run, policy, cpu, ended) from the table."""
    r = {}
    for line in out.splitlines():
        m = re.match(r"(\S+)\s+(\S+)\s+(\S+)\s+>?([0-9.]+)\s+([0-9.]+)\s+(\S+)\s+(.*)$", line)
        if m and m.group(1) != "experiment":
            r.setdefault(m.group(1), []).append((m.group(2), m.group(3), float(m.group(4)),
                                                 m.group(7)))
    return r


class Experiments(unittest.TestCase):
    def test_one_run_per_policy_and_the_plan_costed(self):
        # A4 compares three policies over 3 seeds: 3 runs measured, 9 costed
        rc, out, err = bench("--scale", "1/64", "--only", "A4")
        self.assertEqual(rc, 0, err)
        r = rows(out)
        self.assertEqual([x[1] for x in r["A4"]], ["classic", "mglru-old", "mglru-budget"])
        for run in r["A4"]:
            self.assertTrue(run[3].startswith("ok"), run)
        m = re.search(r"tools/reproduce --scales 1/64: (\d+) runs, ([0-9]+) CPU s", out)
        self.assertIsNotNone(m, out)
        self.assertEqual(int(m.group(1)), 9)
        self.assertRegex(out, r"commit\s+[0-9a-f]{7}")

    def test_run_over_its_cpu_limit_is_killed_and_bounds_the_total(self):
        # A3 at 1/256 needs well over a CPU second (readers rescan an 8G/256 file)
        rc, out, err = bench("--scale", "1/256", "--only", "A3", "--cpu-limit", "1", "-j", "2")
        self.assertEqual(rc, 0, err)
        r = rows(out)
        self.assertEqual(len(r["A3"]), 3)
        for run in r["A3"]:
            self.assertEqual(run[3], "over 1 s", run)
            self.assertGreaterEqual(run[2], 1.0)
        self.assertRegex(out, r"9 runs, >= [0-9]+ CPU s")

    def test_an_experiment_the_plan_skips_is_measured_and_says_so(self):
        # A2 runs no full-scale slot in tools/reproduce (its "scales")
        rc, out, err = bench("--scale", "1", "--only", "A2", "--cpu-limit", "1")
        self.assertEqual(rc, 0, err)
        self.assertIn("not in tools/reproduce's plan at this scale", out)
        self.assertRegex(out, r"--scales 1: 0 runs")

    def test_bad_options_exit_nonzero(self):
        self.assertNotEqual(bench("--only", "Z9")[0], 0)
        self.assertNotEqual(bench("--scale", "x")[0], 0)
        self.assertNotEqual(bench("--cpu-limit", "0")[0], 0)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])

#!/usr/bin/env python3
"""The verdict rule of tools/reproduce on hand-made rows: each row is a
published claim and mmemu's (before, after) values at three or more seeds,
judged as the report judges it (judge() -> verdict()). Every assertion names
a verdict a wrong rule would give instead."""
import importlib.machinery
import importlib.util
import os
import sys
import unittest

SRC = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_loader = importlib.machinery.SourceFileLoader("reproduce",
                                               os.path.join(SRC, "tools", "reproduce"))
_spec = importlib.util.spec_from_loader("reproduce", _loader)
rp = importlib.util.module_from_spec(_spec)
_loader.exec_module(rp)


def seeds(before, changes):
    """(before, after) pairs, one per seed, whose relative changes are `changes`."""
    return [(before, before * (1 + c)) for c in changes]


def v(c, pairs):
    return rp.judge(c, pairs)[4]


A1_TPUT = rp.claim("throughput ops/s", "x", 62485, 79761)            # +27.6 %


class Commit(unittest.TestCase):
    # the report names the binary's commit, not the tree's (they differ with
    # --mmemu PATH, or when the tree moved on while the runs went)
    def test_version_line_names_the_commit(self):
        self.assertEqual(rp.version_commit("mmemu 0.1.0, git e24be12ef4b2\nLicense GPL-2.0-only.\n"),
                         "e24be12")
        self.assertEqual(rp.version_commit("mmemu 0.1.0, git ed09c948d36a, dirty\n"),
                         "ed09c94-dirty")

    def test_no_commit_in_the_version_is_none(self):
        self.assertIsNone(rp.version_commit("mmemu 0.1.0\n"))
        self.assertIsNone(rp.version_commit(""))

    def test_binary_commit_runs_the_binary(self):
        mmemu = os.environ.get("MMEMU")
        if not mmemu:
            self.skipTest("MMEMU not set")
        out = __import__("subprocess").run([mmemu, "--version"], capture_output=True,
                                           text=True).stdout
        self.assertEqual(rp.binary_commit(mmemu), rp.version_commit(out))
        self.assertIsNone(rp.binary_commit("/nonexistent/mmemu"))


class Verdicts(unittest.TestCase):
    def test_small_change_beyond_noise_is_weak_never_match(self):
        # A1 at 1/16: +0.6 % against +27.6 %, seeds agreeing within 0.2 %
        self.assertEqual(v(A1_TPUT, seeds(209061, [0.005, 0.006, 0.007])), "weak")

    def test_change_within_noise_is_no_effect(self):
        # +0.6 % on average, but the seeds spread from -1.9 % to +3.1 %
        self.assertEqual(v(A1_TPUT, seeds(209061, [-0.019, 0.006, 0.031])), "no effect")

    def test_noise_is_the_spread_of_the_per_seed_changes(self):
        # spread 0.4 %: a +0.5 % mean is beyond it (weak), not within (no effect)
        _, _, mm, noise, verdict = rp.judge(A1_TPUT, seeds(1000, [0.003, 0.005, 0.007]))
        self.assertAlmostEqual(mm, 0.005)
        self.assertAlmostEqual(noise, 0.004)
        self.assertEqual(verdict, "weak")

    def test_within_two_times_is_match(self):
        self.assertEqual(v(A1_TPUT, seeds(1000, [0.15, 0.16, 0.17])), "match")
        self.assertEqual(v(A1_TPUT, seeds(1000, [0.50, 0.51, 0.52])), "match")

    def test_just_beyond_two_times_is_weak(self):
        self.assertEqual(v(A1_TPUT, seeds(1000, [0.12, 0.13, 0.13])), "weak")
        self.assertEqual(v(A1_TPUT, seeds(1000, [0.58, 0.60, 0.60])), "weak")

    def test_other_sign_beyond_noise_is_opposite(self):
        self.assertEqual(v(A1_TPUT, seeds(1000, [-0.05, -0.051, -0.049])), "opposite")
        lat = rp.claim("latency", "x", 501.0, 391.3)                  # -21.9 %
        self.assertEqual(v(lat, seeds(150, [0.10, 0.11, 0.12])), "opposite")
        self.assertEqual(v(lat, seeds(150, [-0.20, -0.21, -0.22])), "match")

    def test_fewer_than_three_seeds_is_unjudged(self):
        self.assertEqual(v(A1_TPUT, seeds(1000, [0.20, 0.21])), "unjudged")
        self.assertIsNone(rp.noise_of([0.2, 0.21]))

    def test_flat_claim_within_noise_is_flat_beyond_is_moved(self):
        tps = rp.claim("tps", "x", 17260.8, 17266.8, flat=True)
        self.assertEqual(v(tps, seeds(1000, [-0.01, 0.0, 0.01])), "flat")
        # 2 % beyond a 0.2 % noise: the publication's "no change" does not hold
        self.assertEqual(v(tps, seeds(1000, [0.019, 0.02, 0.021])), "moved")

    def test_flat_jain_judged_on_one_minus_j(self):
        # J 0.997795 -> 0.991480 is -0.6 % of J (flat on J) but 1 - J
        # 0.0022 -> 0.0085, unfairness 3.9 times as large: moved
        jain = rp.claim("Jain", "x", 0.99, 0.99, kind="1-J", flat=True)
        pairs = [(0.997795, 0.991480), (0.997790, 0.991470), (0.997800, 0.991490)]
        self.assertEqual(v(jain, pairs), "moved")
        self.assertAlmostEqual(rp.change(0.997795, 0.991480, "1-J"), 2.864, places=2)

    def test_published_jain_change_is_a_change_in_unfairness(self):
        # A2: published -0.6 % of J is +286 % of 1 - J; mmemu 0.999 -> 0.9989
        # at every seed is +10 % of 1 - J: weak, not flat and not match
        jain = rp.claim("Jain", "x", 0.997795, 0.991480, kind="1-J")
        pairs = [(0.999, 0.9989), (0.999, 0.99889), (0.999, 0.99891)]
        self.assertEqual(v(jain, pairs), "weak")
        # and a fall of unfairness is the opposite of the published rise
        self.assertEqual(v(jain, [(0.995, 0.998), (0.995, 0.9981), (0.995, 0.9979)]),
                         "opposite")

    def test_share_judged_in_points(self):
        # [0,1) s: 33.61 % -> 32.80 %, -0.81 points (-2.4 % relative); mmemu
        # 10.0 -> 9.5 is -0.5 points, a match in points (a relative -5 % would
        # be over twice the relative -2.4 %: weak)
        share = rp.claim("[0,1) s %", "x", 33.61, 32.80, kind="pp")
        pairs = [(10.0, 9.5), (10.0, 9.49), (10.0, 9.51)]
        self.assertEqual(v(share, pairs), "match")
        self.assertAlmostEqual(rp.judge(share, pairs)[2], -0.5)

    def test_kept_back_has_no_verdict(self):
        self.assertEqual(v(rp.claim("launch mean ms", "x"), seeds(100, [0.1, 0.1, 0.1])),
                         "(kept back)")

    def test_no_run_is_no_result(self):
        self.assertEqual(v(A1_TPUT, [(None, None)] * 3), "no result")

    def test_zero_to_zero_flat(self):
        ra = rp.claim("workingset_refault_anon", "x", 0, 0, flat=True)
        self.assertEqual(v(ra, [(0, 0)] * 3), "flat")
        self.assertEqual(v(ra, [(0, 5), (0, 7), (0, 6)]), "moved")

    def test_events_and_story(self):
        self.assertEqual(rp.event_verdict([True, True, True]), "reproduced")
        self.assertEqual(rp.event_verdict([False, False, False]), "not reproduced")
        self.assertTrue(rp.event_verdict([True, False, True]).startswith("mixed"))
        self.assertEqual(rp.same_story(["match", "match", "match"]), "yes")
        self.assertEqual(rp.same_story(["match", "weak", "match"]), "no")
        self.assertEqual(rp.same_story(["match"]), "one scale")


class Runs(unittest.TestCase):
    """The runs a report makes (--list), without running them (issue 36
    point 8: --only A1,C ran A1 at --scale 1 though the report holds the
    default scales)."""

    def listed(self, *args):
        import subprocess
        out = subprocess.run([sys.executable, os.path.join(SRC, "tools", "reproduce"),
                              "--list"] + list(args), check=True, text=True,
                             stdout=subprocess.PIPE).stdout
        return [line.split() for line in out.splitlines()]

    def test_only_runs_the_default_scales(self):
        rows = self.listed("--only", "A1,C")
        self.assertEqual({(r[0], r[2]) for r in rows}, {("A1", "1/16"), ("C", "1/8")})
        # before and after, seeds 1..3; C's nine cases at seed 1..3
        self.assertEqual(sum(r[0] == "A1" for r in rows), 6)
        self.assertEqual(sum(r[0] == "C" for r in rows), 27)

    def test_full_scale_only_when_asked(self):
        rows = self.listed("--only", "A1", "--scales", "default,1")
        self.assertEqual(sorted({r[2] for r in rows}), ["1/16", "full"])
        for r in rows:
            self.assertIn("--scale", r)
            self.assertEqual(r[r.index("--scale") + 1], "1.0" if r[2] == "full" else "0.0625")


class Batch(unittest.TestCase):
    # the runs go to one `mmemu batch`: each plan line is the job's --list
    # command less what batch sets, and its lines come back to the jobs
    def jobs(self, results):
        e = next(x for x in rp.EXPERIMENTS if x["id"] == "A1")
        return [rp.Job(e, label, run[0], run[1], 0.0625, seed, results)
                for seed in (1, 2) for label, run in e["runs"].items()]

    def test_plan_line_is_the_run_less_format_and_j(self):
        j = self.jobs("/r d")[0]
        words = j.cmd("mmemu")[2:]
        i = words.index("--format")
        self.assertEqual(words[i:i + 4], ["--format", "json", "-j", "1"])
        del words[i:i + 4]
        self.assertEqual(rp.plan_line(j), '"%s" %s' % (j.out, " ".join(words)))
        self.assertTrue(j.out.startswith("/r d/"))

    def test_lines_come_back_to_their_jobs(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "mmemu")
            with open(fake, "w") as f:
                # run 2 ends first, run 0 fails, run 1 and 3 are never said
                f.write("#!/bin/sh\n[ \"$1 $3 $4\" = 'batch -j 3' ] || exit 9\n"
                        "out=$(sed -n 4p \"$2\" | cut -d' ' -f1)\n"
                        "echo '{\"runs\": [{\"policy\": \"p\"}], \"scale\": 0.5}' > \"$out\"\n"
                        "printf '2\\tok\\t1.250\\t\\n0\\tfailed\\t0.100\\texit 2: no\\n'\n"
                        "exit 1\n")
            os.chmod(fake, 0o700)
            jobs = self.jobs(d)
            got = list(rp.run_batch(jobs, fake, 3, d))
            self.assertEqual([(jobs.index(g[0]), g[2], g[3]) for g in got],
                             [(2, None, 1.25), (0, "exit 2: no", 0),
                              (1, "not run: mmemu batch exited 1", 0),
                              (3, "not run: mmemu batch exited 1", 0)])
            self.assertEqual(rp.first_run(got[0][1]), {"policy": "p", "scale": 0.5})
            with open(os.path.join(d, "plan")) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines[1:], [rp.plan_line(j) for j in jobs])


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=1).result
    sys.exit(0 if r.wasSuccessful() else 1)

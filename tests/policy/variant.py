#!/usr/bin/env python3
"""Writes a variant of examples/policy/s3fifo.c that mmemu must cope with:

  noisy  prints on stdout when loaded (a constructor), in lruvec_init and in
         shrink_lruvec, as a plug-in with debugging printf()s left in does:
         mmemu's tables, JSON and saved results must not take any of it;
  loops  its shrink_lruvec never returns;
  lies   its shrink_lruvec reports the pages asked for as reclaimed and
         frees none;
  noworkingset  without the optional workingset ops: its workingset_*
         counters are not kept and must not print as a real 0;
  crashes  its shrink_lruvec raises SIGSEGV (the policy is the example's
         otherwise: the crash is the first thing wrong in any run that
         reclaims);
  rare   loses a folio under a rare combination only: a file folio
         promoted from S to M on node 2 in cgroup reclaim (a memcg's limit
         or a memory.reclaim write, cgroup_reclaim()) is put on no list. check-policy's scenarios (two nodes) never meet it;
         mmemu fuzz must (tests/test_fuzz.c).

check-policy must give the last two a verdict, not hang. Fails if the
example no longer has the functions it changes.

usage: variant.py KIND IN OUT
"""
import sys

INIT = "static int s3fifo_lruvec_init(struct lruvec *lruvec)\n{\n"
SHRINK = "static void s3fifo_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)\n{\n"

kind, src_path, out_path = sys.argv[1:4]
src = open(src_path).read()
for f in (INIT, SHRINK):
    if src.count(f) != 1:
        sys.exit("variant.py: %s no longer has %s" % (src_path, f.splitlines()[0]))
if kind == "noisy":
    src = src.replace(INIT, INIT + '\tprintf("noisy: lruvec_init\\n");\n')
    src = src.replace(SHRINK, SHRINK + '\tprintf("noisy: shrink_lruvec {\\"not\\": json\\n");\n'
                      '\tfflush(stdout);\n')
    src = ('#include <stdio.h>\n' + src +
           '\n__attribute__((constructor)) static void noisy_loaded(void)\n{\n'
           '\tprintf("noisy: loaded\\n");\n}\n')
elif kind == "loops":
    src = src.replace(SHRINK, SHRINK + '\tfor (volatile int spin = 1; spin;)\n\t\t;\n')
elif kind == "noworkingset":
    for op in ("workingset_eviction = s3fifo_eviction", "workingset_refault = s3fifo_refault"):
        if src.count("." + op + ",") != 1:
            sys.exit("variant.py: %s no longer has .%s" % (src_path, op))
        src = src.replace("\t." + op + ",\n", "")
    for f in ("static uint64_t s3fifo_eviction(", "static void s3fifo_refault("):
        src = src.replace(f, "__attribute__((unused)) " + f)
elif kind == "crashes":
    src = '#include <signal.h>\n' + src.replace(SHRINK, SHRINK + '\traise(SIGSEGV);\n')
elif kind == "rare":
    GOOD = ("\t\t\tfolio_set_active(folio);\n"
            "\t\t\tadd_folio(lruvec, folio, false);\n"
            "\t\t\tnr_promoted++;\n")
    RARE = ("\t\t\tfolio_set_active(folio);\n"
            "\t\t\t/* PLANTED: node 2, file, cgroup reclaim: on no list, not isolated */\n"
            "\t\t\tif (!(lruvec->nid == 2 && type == 1 && cgroup_reclaim(sc)))\n"
            "\t\t\t\tadd_folio(lruvec, folio, false);\n"
            "\t\t\tnr_promoted++;\n")
    if src.count(GOOD) != 1:
        sys.exit("variant.py: %s no longer has the promotion to M" % src_path)
    src = src.replace(GOOD, RARE)
elif kind == "lies":
    src = src.replace(SHRINK, SHRINK + '\tif (lruvec) {\n'
                      '\t\tsc->nr_reclaimed += sc->nr_to_reclaim;\n\t\treturn;\n\t}\n')
else:
    sys.exit("variant.py: unknown kind '%s'" % kind)
src = src.replace('.name = "s3fifo"', '.name = "s3fifo-%s"' % kind)
open(out_path, "w").write(src)

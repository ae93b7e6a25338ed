#!/usr/bin/env python3
"""Writes a noisy copy of examples/policy/s3fifo.c: it prints on stdout when
it is loaded (a constructor), in lruvec_init and in shrink_lruvec, as a
plug-in with debugging printf()s left in does. mmemu's tables, JSON and saved
results must not take any of it. Fails if the example no longer has the
functions it adds to.

usage: noisy.py IN OUT
"""
import sys

INIT = "static int s3fifo_lruvec_init(struct lruvec *lruvec)\n{\n"
SHRINK = "static void s3fifo_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)\n{\n"

src = open(sys.argv[1]).read()
for f in (INIT, SHRINK):
    if src.count(f) != 1:
        sys.exit("noisy.py: %s no longer has %s" % (sys.argv[1], f.splitlines()[0]))
src = src.replace(INIT, INIT + '\tprintf("noisy: lruvec_init\\n");\n')
src = src.replace(SHRINK, SHRINK + '\tprintf("noisy: shrink_lruvec {\\"not\\": json\\n");\n'
                  '\tfflush(stdout);\n')
src = src.replace('.name = "s3fifo"', '.name = "s3fifo-noisy"')
src = ('#include <stdio.h>\n' + src +
       '\n__attribute__((constructor)) static void noisy_loaded(void)\n{\n'
       '\tprintf("noisy: loaded\\n");\n}\n')
open(sys.argv[2], "w").write(src)

#!/usr/bin/env python3
"""Writes the deliberately broken copy of examples/policy/s3fifo.c that
check-policy must catch: a folio S promotes to M is dropped instead (off
every list, not isolated: lost to the LRU). Fails if the example no longer has
the line it breaks, so the copy cannot silently stop being broken.

usage: break.py IN OUT
"""
import sys

GOOD = """			folio_set_active(folio);
			add_folio(lruvec, folio, false);
			nr_promoted++;
"""
BROKEN = """			folio_set_active(folio);
			/* BROKEN: the folio is dropped, on no list and not isolated */
			nr_promoted++;
"""

src = open(sys.argv[1]).read()
if src.count(GOOD) != 1:
    sys.exit("break.py: %s no longer has the promotion to M to break" % sys.argv[1])
open(sys.argv[2], "w").write(src.replace(GOOD, BROKEN)
                             .replace('.name = "s3fifo"', '.name = "s3fifo-broken"'))

# SPDX-License-Identifier: GPL-2.0-only
"""Reads the results `mmemu run ... --out FILE` saves, as rows for pandas.

A saved file is a length-delimited protobuf stream (scenarios/result.proto):
an mmemu.Header (format "mmemu.results", the schema version, the commit that
wrote it), then one mmemu.Invocation. This module reads it with python3-protobuf
(Debian: python3-protobuf) and the schema's descriptor set, result.desc,
which the build makes with protoc-c next to this file.

    import mmemu_results as mr
    res = mr.load("out.pb")
    res.header.mmemu_commit, res.invocation.scenario_name
    mr.runs(res)        # one dict per run
    mr.values(res)      # one dict per (run, group, key): the table's values
    mr.stats(res)       # one dict per stats sample (machine-wide counters)
    mr.memcg_stats(res) # one dict per (stats sample, memcg)
    mr.generations(res) # one dict per (lruvec sample, generation)
    mr.lists(res)       # one dict per lruvec sample of a policy without generations
    mr.oom_kills(res)   # one dict per OOM kill
    pandas.DataFrame(mr.values(res))   # pandas is optional

Every row of a run starts with its policy, options and seed, so rows of
several runs (and files) concatenate. `python3 mmemu_results.py FILE` prints
the header and the number of rows of each kind.
"""

import os
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

FORMAT = "mmemu.results"
SCHEMA_VERSION = 2
_OLD_MAGIC = b"MMEMUPB1"


class ResultFileError(Exception):
    """A file that is not a saved result of this schema, or cut short."""


def _descriptor_path():
    env = os.environ.get("MMEMU_RESULT_DESC")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "result.desc")


def _classes(path=None):
    fds = descriptor_pb2.FileDescriptorSet()
    with open(path or _descriptor_path(), "rb") as f:
        fds.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        pool.Add(fd)
    get = getattr(message_factory, "GetMessageClass", None)
    if get is None:  # protobuf before 4.22
        factory = message_factory.MessageFactory(pool)
        get = factory.GetPrototype
    return {name: get(pool.FindMessageTypeByName("mmemu." + name))
            for name in ("Header", "Invocation")}


_CLASSES = None


def _read_varint(buf, pos):
    """The varint at buf[pos]: (value, position after it); None when buf ends inside it."""
    value, shift = 0, 0
    while pos < len(buf) and shift < 70:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
    return None


def read_delimited(buf):
    """The messages' bytes of a length-delimited stream (parseDelimitedFrom's form)."""
    pos, out = 0, []
    while pos < len(buf):
        got = _read_varint(buf, pos)
        if got is None:
            raise ResultFileError("truncated: the length at byte %d is cut" % pos)
        length, pos = got
        if len(buf) - pos < length:
            raise ResultFileError("truncated: %d bytes, a message promises %d"
                                  % (len(buf), pos + length))
        out.append(buf[pos:pos + length])
        pos += length
    return out


class Results:
    """A saved file: its header and its invocation (the messages of result.proto)."""

    def __init__(self, header, invocation):
        self.header = header
        self.invocation = invocation


def loads(data, name="<bytes>"):
    """Results of a saved file's bytes; ResultFileError naming name when it is not one."""
    global _CLASSES
    if _CLASSES is None:
        _CLASSES = _classes()
    if data.startswith(_OLD_MAGIC):
        raise ResultFileError("%s: a result file of the old form (MMEMUPB1, schema 1): "
                              "regenerate it with `mmemu run ... --out FILE`" % name)
    header = _CLASSES["Header"]()
    first = _read_varint(data, 0)
    try:
        header.ParseFromString(data[first[1]:first[1] + first[0]])
    except Exception:  # noqa: BLE001 -- no varint, protobuf's DecodeError
        header.Clear()
    if header.format != FORMAT:
        raise ResultFileError("%s: not an mmemu result file (no mmemu.Header first)" % name)
    try:
        parts = read_delimited(data)
    except ResultFileError as e:
        raise ResultFileError("%s: %s" % (name, e)) from None
    if header.schema_version != SCHEMA_VERSION:
        raise ResultFileError("%s: schema version %d, this module reads %d"
                              % (name, header.schema_version, SCHEMA_VERSION))
    if len(parts) != 2:
        raise ResultFileError("%s: %d messages after the header, not one Invocation"
                              % (name, len(parts) - 1))
    inv = _CLASSES["Invocation"]()
    inv.ParseFromString(parts[1])
    return Results(header, inv)


def load(path):
    """Results of the saved file at path."""
    with open(path, "rb") as f:
        return loads(f.read(), path)


# ---- rows ----

def _options(run):
    return " ".join("%s=%s" % (o.key, o.value) for o in run.options)


def _run_keys(res, run):
    inv = res.invocation
    return {"scenario": inv.scenario_name, "scale": inv.scale, "policy": run.policy,
            "options": _options(run), "seed": run.seed}


def runs(res):
    """One row per run: its policy, options, seed, kernel and times."""
    out = []
    for run in res.invocation.runs:
        row = _run_keys(res, run)
        row.update({"kernel": run.kernel, "sim_seconds": run.sim_seconds,
                    "host_seconds": run.host_seconds, "policy_file": run.policy_file,
                    "nr_samples": len(run.samples)})
        out.append(row)
    return out


def values(res):
    """One row per value the table shows: group ("vmstat", "memcg.app"), key, value."""
    out = []
    for run in res.invocation.runs:
        keys = _run_keys(res, run)
        for g in run.groups:
            for v in g.values:
                row = dict(keys)
                row.update({"group": g.name, "key": v.key,
                            "value": int(v.value) if v.is_int else v.value})
                out.append(row)
    return out


def _samples(res, kind):
    for run in res.invocation.runs:
        keys = _run_keys(res, run)
        for s in run.samples:
            if s.WhichOneof("row") == kind:
                row = dict(keys)
                row["t"] = s.t_ns / 1e9
                yield row, getattr(s, kind)


def stats(res):
    """One row per stats sample: the machine's counters, swap use, free pages per node."""
    out = []
    for row, st in _samples(res, "stats"):
        row.update({"pgscan": st.pgscan, "pgsteal": st.pgsteal,
                    "workingset_refault_anon": st.workingset_refault_anon,
                    "workingset_refault_file": st.workingset_refault_file,
                    "free_pages": sum(st.free_pages)})
        for nid, n in enumerate(st.free_pages):
            row["free_pages.%d" % nid] = n
        if st.HasField("swap"):
            row["swap_used"] = st.swap.used
            if st.swap.HasField("zram"):
                row["zram_stored"] = st.swap.zram.stored
                row["zram_pool"] = st.swap.zram.pool
        for w in st.ops:
            row["ops." + w.name] = w.ops
        out.append(row)
    return out


def memcg_stats(res):
    """One row per (stats sample, memcg): memory.current, reclaim counters, pressure."""
    out = []
    for keys, st in _samples(res, "stats"):
        for m in st.memcgs:
            row = dict(keys)
            row.update({"memcg": "/" + m.name,
                        "parent": "/" + m.parent if m.has_parent else None,
                        "memory_current": m.memory_current, "pgscan": m.pgscan,
                        "pgsteal": m.pgsteal,
                        "workingset_refault_anon": m.workingset_refault_anon,
                        "workingset_refault_file": m.workingset_refault_file,
                        "oom_kill": m.oom_kill, "some_avg10": m.some_avg10,
                        "some_total": m.some_total, "full_avg10": m.full_avg10,
                        "full_total": m.full_total})
            out.append(row)
    return out


def generations(res):
    """One row per (lruvec sample, generation): seq, age_ms, anon and file pages."""
    out = []
    for keys, lv in _samples(res, "lruvec"):
        if not lv.HasField("gens"):
            continue
        for g in lv.gens.gens:
            row = dict(keys)
            row.update({"memcg": "/" + lv.memcg, "node": lv.node, "max_seq": lv.gens.max_seq,
                        "min_seq_anon": lv.gens.min_seq_anon,
                        "min_seq_file": lv.gens.min_seq_file, "seq": g.seq,
                        "age_ms": g.age_ms, "anon": g.anon, "file": g.file})
            out.append(row)
    return out


def lists(res):
    """One row per lruvec sample of a policy without generations: the four list sizes."""
    out = []
    for keys, lv in _samples(res, "lruvec"):
        if not lv.HasField("lists"):
            continue
        row = dict(keys)
        row.update({"memcg": "/" + lv.memcg, "node": lv.node,
                    "inactive_anon": lv.lists.inactive_anon,
                    "active_anon": lv.lists.active_anon,
                    "inactive_file": lv.lists.inactive_file,
                    "active_file": lv.lists.active_file})
        out.append(row)
    return out


def oom_kills(res):
    """One row per OOM kill, with the fields of the kernel's oom-kill line."""
    out = []
    for row, oom in _samples(res, "oom"):
        row.update({"constraint": "CONSTRAINT_MEMCG" if oom.memcg_constraint
                    else "CONSTRAINT_NONE", "oom_memcg": "/" + oom.oom_memcg,
                    "task_memcg": "/" + oom.task_memcg, "task": oom.task, "pid": oom.pid})
        out.append(row)
    return out


def main(argv):
    if len(argv) != 2:
        print("usage: mmemu_results.py FILE", file=sys.stderr)
        return 2
    try:
        res = load(argv[1])
    except (OSError, ResultFileError) as e:
        print("mmemu_results: %s" % e, file=sys.stderr)
        return 2
    h = res.header
    print("%s schema %d, mmemu %s: scenario %s, %d runs" % (
        h.format, h.schema_version, h.mmemu_commit, res.invocation.scenario_name,
        len(res.invocation.runs)))
    for f in (values, stats, memcg_stats, generations, lists, oom_kills):
        print("%s: %d rows" % (f.__name__, len(f(res))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarises a rasd timeline (RAS_FDR_TIMELINE=path, lib/timeline.h).

usage: timeline-summary.py TIMELINE [RASD]  (RASD: the binary, to name the waits' callers)

Prints the event loop's phases (wall and its CPU), each kind of wait (count, total,
longest, by caller) and how the wall time divides between the two threads: both
busy, the event loop alone, the writer alone, neither. "Busy" is "not in a wait
noted": a thread preempted on a loaded machine counts as busy (compare its CPU).
"""
import collections
import subprocess
import sys

EL_WAITS = ("wait_room", "wait_sync", "wait_commit")
PHASES = ("setup", "open_db", "taken_back", "run", "stop", "settle_folds", "teardown", "db_close",
          "writer_join", "ckpt_join")


def read(path):
    names, notes = {}, []
    for line in open(path):
        f = line.split()
        if not f or f[0] == "#":
            continue
        if f[0] == "T":
            names[int(f[1])] = f[2] if len(f) > 2 else "?"
            continue
        notes.append((f[0] == "B", int(f[1]), f[2], int(f[3]), int(f[4]), int(f[5]),
                      tuple(int(x, 16) for x in f[6:])))
    return names, notes


def spans(notes):
    """(tid, span, begin_ns, end_ns, cpu_ns, callers, queued_ns) for each begin matched with its end."""
    open_, out = {}, []
    for begin, tid, span, t, cpu, queued, callers in notes:
        key = (tid, span)
        if begin:
            open_[key] = (t, cpu, queued, callers)
        elif key in open_:
            t0, c0, q0, callers0 = open_.pop(key)
            out.append((tid, span, t0, t, cpu - c0, callers0, queued - q0))
    return out


def resolve(binary, offsets):
    if not binary or not offsets:
        return {}
    offs = sorted(offsets)
    r = subprocess.run(["addr2line", "-f", "-s", "-e", binary] + ["%#x" % (o - 1) for o in offs],
                       capture_output=True, text=True)
    lines = r.stdout.split("\n")
    return {o: lines[2 * i] for i, o in enumerate(offs) if 2 * i < len(lines)}


def length(iv):
    return sum(b - a for a, b in iv)


def merge(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def intersect(x, y):
    out, i, j = [], 0, 0
    while i < len(x) and j < len(y):
        a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if a < b:
            out.append([a, b])
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return out


def minus(x, y):
    return [iv for a in x for iv in minus_one(a, y)]


def minus_one(a, y):
    out, lo = [], a[0]
    for b0, b1 in y:
        if b1 <= lo or b0 >= a[1]:
            continue
        if b0 > lo:
            out.append([lo, b0])
        lo = max(lo, b1)
    if lo < a[1]:
        out.append([lo, a[1]])
    return out


def ms(ns):
    return "%8.1f ms" % (ns / 1e6)


def main():
    names, notes = read(sys.argv[1])
    binary = sys.argv[2] if len(sys.argv) > 2 else None
    sp = spans(notes)
    # Roles by the spans noted (a thread's name may be set after its first note).
    for tid, s, *_ in sp:
        if s == "setup":
            names[tid] = "event-loop"
        elif s == "writer_idle":
            names[tid] = "writer"
    writer = [t for t, n in names.items() if n == "writer"]
    phase = {s: (a, b, cpu, q) for tid, s, a, b, cpu, _, q in sp if s in PHASES}
    # A run that failed may lack the teardown's end: its last note then.
    end = phase["teardown"][1] if "teardown" in phase else max(n[3] for n in notes)
    print("event loop phases (wall; the event loop's CPU, and its time runnable but not running):")
    for s in PHASES:
        if s in phase:
            a, b, cpu, q = phase[s]
            print("  %-13s %s  cpu %s  queued %s  (%.1f-%.1f ms)" %
                  (s, ms(b - a), ms(cpu), ms(q), a / 1e6, b / 1e6))
    print("  %-13s %s  (the first note is taken in main, after the configuration)" % ("all", ms(end)))

    waits = collections.defaultdict(list)
    for tid, s, a, b, cpu, callers, _ in sp:
        if s in EL_WAITS or s in ("writer_idle", "writer_commit", "checkpoint"):
            waits[s].append((a, b, cpu, callers, tid))
    where = resolve(binary, {c for tid, s, a, b, cpu, cs, q in sp for c in cs[:3]})
    print("waits and spans (count, total, longest; event loop waits by caller):")
    for s, w in sorted(waits.items()):
        tot = sum(b - a for a, b, *_ in w)
        print("  %-13s %5d  %s  longest %s" % (s, len(w), ms(tot), ms(max(b - a for a, b, *_ in w))))
        if s in EL_WAITS:
            by = collections.defaultdict(lambda: [0, 0])
            for a, b, cpu, callers, _ in w:
                # The three frames above the waiting function (db/db_writer.c's) name the wait.
                chain = " < ".join(where.get(c, "%#x" % c) for c in callers[:3])
                by[chain][0] += 1
                by[chain][1] += b - a
            for chain, (n, t) in sorted(by.items(), key=lambda kv: -kv[1][1])[:8]:
                print("      %5d %s  %s" % (n, ms(t), chain))

    # The event loop is busy from its first note to the teardown's end, but for its waits.
    loop_busy = minus([[0, end]], merge([[a, b] for s in EL_WAITS for a, b, *_ in waits.get(s, [])]))
    w_life = [[min(a for tid, s, a, *_ in sp if tid in writer),
               max(b for tid, s, a, b, *_ in sp if tid in writer)]] if writer else []
    w_busy = minus(w_life, merge([[a, b] for a, b, *_ in waits.get("writer_idle", [])]))
    both = intersect(loop_busy, w_busy)
    print("the wall time, %s, by thread state (writer alive %.1f-%.1f ms):" %
          (ms(end).strip(), w_life[0][0] / 1e6 if w_life else 0, w_life[0][1] / 1e6 if w_life else 0))
    for label, lo, hi in (("whole run", 0, end),) + tuple((p, phase[p][0], phase[p][1]) for p in
                                                          ("setup", "open_db", "taken_back", "run", "stop",
                                                           "teardown") if p in phase):
        win = [[lo, hi]]
        b = length(intersect(both, win))
        lb = length(intersect(loop_busy, win))
        wb = length(intersect(w_busy, win))
        print("  %-10s both busy %s  event loop alone %s  writer alone %s  neither %s" %
              (label, ms(b), ms(lb - b), ms(wb - b), ms(hi - lo - lb - wb + b)))
    work = [phase[p] for p in ("taken_back", "run") if p in phase]
    lo, hi = min(x[0] for x in work), max(x[1] for x in work)
    win = [[lo, hi]]
    b, lb, wb = (length(intersect(x, win)) for x in (both, loop_busy, w_busy))
    last_wait = max([b_ - a_ for a_, b_, *_ in waits.get("wait_sync", []) if lo <= a_ < hi] or [0])
    brief = [("wall", end), ("before", lo), ("work", hi - lo), ("both", b), ("loop_alone", lb - b),
             ("writer_alone", wb - b), ("neither", hi - lo - lb - wb + b), ("longest_sync", last_wait),
             ("after", end - hi)]
    brief += [(s, phase[s][1] - phase[s][0]) for s in ("open_db", "stop", "teardown", "db_close")
              if s in phase]
    counts = " ".join("%s=%d/%.0f" % (s, len(waits[s]), sum(y - x for x, y, *_ in waits[s]) / 1e6)
                      for s in ("wait_room", "wait_sync", "wait_commit", "writer_idle", "writer_commit")
                      if s in waits)
    first, last = {}, {}
    for begin, tid, span, t, cpu, q, _ in notes:
        first.setdefault(tid, (t, cpu, q))
        last[tid] = (t, cpu, q)
    print("by thread, from its first note to its last: wall = waits noted + busy; busy = CPU +\n"
          "off the CPU (runnable on a loaded machine, or blocked: I/O, faults); 'queued' is\n"
          "schedstat's runnable time, which on a VM may overlap the CPU time (compare runs, not sums);\n"
          "then the five longest checkpoint passes:")
    for tid in sorted(first):
        t0, c0, q0 = first[tid]
        t1, c1, q1 = last[tid]
        mine = [x for x in sp if x[0] == tid and (x[1] in EL_WAITS or x[1] == "writer_idle")]
        waited = sum(b - a for x, s, a, b, *_ in mine)
        print("  %-16s wall %s  waits %s  busy %s = cpu %s + off %s  (queued %s)" %
              (names.get(tid, tid), ms(t1 - t0), ms(waited), ms(t1 - t0 - waited), ms(c1 - c0),
               ms(t1 - t0 - waited - (c1 - c0)), ms(q1 - q0).strip()))
    passes = sorted(waits.get("checkpoint", []), key=lambda x: x[0] - x[1])[:5]
    for a, b, cpu, _, tid in sorted(passes):
        print("  checkpoint on %s: %.1f-%.1f ms, cpu %s" %
              (names.get(tid, tid), a / 1e6, b / 1e6, ms(cpu).strip()))
    cpu = {names.get(t): last[t][1] - first[t][1] for t in first}
    brief += [("cpu_loop", cpu.get("event-loop", 0)), ("cpu_writer", cpu.get("writer", 0))]
    print("brief (ms): " + " ".join("%s=%.0f" % (k, v / 1e6) for k, v in brief) + " " + counts)
    unread(sp, names, where)


def overlap(a, b, spans_):
    return sum(max(0, min(b, y) - max(a, x)) for x, y in spans_)


def unread(sp, names, where):
    """The gaps between two reads of the buffers (fill spans): the kernel's buffers fill unread."""
    loop = [t for t, n in names.items() if n == "event-loop"]
    fills = sorted((a, b) for tid, s, a, b, *_ in sp if s == "fill" and tid in loop)
    if len(fills) < 2:
        return
    gaps = sorted(((fills[i + 1][0] - fills[i][1], fills[i][1], fills[i + 1][0])
                   for i in range(len(fills) - 1)), reverse=True)
    kinds = ("wait_commit", "wait_sync", "wait_room", "commit", "confirm", "poll", "give_back")
    writer_kinds = ("writer_commit", "checkpoint", "writer_idle")
    by = collections.defaultdict(list)
    callers = collections.defaultdict(list)
    for tid, s, a, b, cpu, c, _ in sp:
        if s in kinds and tid in loop:
            by[s].append((a, b))
            if s.startswith("wait_"):
                callers[s].append((a, b, c))
        elif s in writer_kinds and tid not in loop:
            by["w:" + s].append((a, b))
    n = len(gaps)
    print("reads of the buffers (fill): %d; unread between two, ms: median %.1f, 99th %.1f, longest %.1f;"
          " over 20 ms %d, over 50 ms %d, over 80 ms %d" %
          (len(fills), gaps[n // 2][0] / 1e6, gaps[n // 100][0] / 1e6, gaps[0][0] / 1e6,
           sum(g > 20e6 for g, *_ in gaps), sum(g > 50e6 for g, *_ in gaps), sum(g > 80e6 for g, *_ in gaps)))
    print("the ten longest, and what the event loop (and the writer, w:) did in them, ms:")
    for g, a, b in gaps[:10]:
        parts = ["%s %.1f" % (k, overlap(a, b, by[k]) / 1e6) for k in kinds + tuple("w:" + w for w in writer_kinds)
                 if overlap(a, b, by[k])]
        who = sorted({" < ".join(where.get(x, "%#x" % x) for x in c[:3])
                      for k in callers for x0, x1, c in callers[k] if x0 < b and x1 > a})
        print("  %.1f at %.1f: %s%s" % (g / 1e6, a / 1e6, ", ".join(parts), ("; waits from " + " | ".join(who)) if who else ""))


if __name__ == "__main__":
    main()

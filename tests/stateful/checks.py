"""What the machine compares with the model after every step (and, for bytes, whenever it
chooses to read them back): the allocations, pools, handles, current context, MemoryPool
segments and every byte the shadow copy is sure of; at the end of each example, that the
snapshot has the schema's shape (acl_lab/spec/snapshot_schema.py)."""
from __future__ import annotations

import itertools

import numpy as np
from hypothesis.stateful import invariant, rule

import acl_lab
from acl_lab import constants as C
from acl_lab.spec.snapshot_schema import mismatches

from .model import Fail
from .model.objects import MEM_ATTRS, OK
from .tally import STATS


class Checks:
    """Part of AclMachine (machine.py): reads its model ``m``, ``acl`` and blocks."""

    # ----- bytes: what was written is what is read back --------------------------------------
    @rule()
    def check_bytes(self):
        """Read every block back; wherever the shadow knows a byte and no unsynchronised work
        may still write it, the runtime must hold exactly that byte."""
        m = self.m
        c = m.contexts.get(m.current)
        can_copy = c is None or m.restricting(c.device) is None
        for b in self.live_blocks():
            mask = b.known & ~m.pending_writes(b)
            n = len(b.data)
            if not mask.any():
                continue
            if b.api == "numpy":
                actual = b.array.reshape(-1).view(np.uint8)[:n]
            elif b.location == "host" or m.profile.run_mode == C.ACL_DEVICE:
                actual = np.frombuffer(self.acl.util.ptr_to_bytes(b.ptr, n), np.uint8)
            elif can_copy:
                ret = self.acl.rt.memcpy(self.scratch_ptr, n, b.ptr, n, C.ACL_MEMCPY_DEFAULT)
                assert ret == OK, self.acl.get_recent_err_msg()
                actual = self.scratch[:n]
            else:
                continue
            wrong = np.flatnonzero(mask & (actual != b.data))
            assert not wrong.size, (
                f"{b.api} block 0x{b.ptr:x}: {wrong.size} byte(s) differ from what was written, "
                f"first at +{wrong[0]}: read {actual[wrong[0]]}, wrote {b.data[wrong[0]]}")
            STATS["bytes checked"] += int(mask.sum())

    @property
    def scratch_ptr(self) -> int:
        return self.acl.util.numpy_to_ptr(self.scratch)

    def teardown(self):
        if hasattr(self, "m"):
            self.check_bytes()
            problems = mismatches(acl_lab.snapshot())
            assert not problems, "snapshot() differs from its schema: " + "; ".join(problems)

    # ----- invariants after every step ----------------------------------------------------------
    @invariant()
    def state_matches_model(self):
        STATS["invariant checks"] += 1
        self.step += 1
        m, snap = self.m, acl_lab.snapshot()
        assert snap["initialized"] == m.initialized
        assert snap["now_us"] >= self.clock, "the modeled clock went backwards"
        self.clock = snap["now_us"]
        self.check_allocations(snap)
        self.check_handles(snap)
        self.check_current_context()
        self.check_pools()

    def check_allocations(self, snap: dict) -> None:
        """Live allocations are the model's; none overlap; each pool's use adds up."""
        m = self.m
        allocs = {a["ptr"]: a for a in snap["allocations"]}
        assert set(allocs) == set(m.blocks), (
            f"allocations {sorted(map(hex, set(allocs) ^ set(m.blocks)))} differ from the model")
        for ptr, b in m.blocks.items():
            a = allocs[ptr]
            assert (a["size"], a["api"], a["location"], a["device"], a["footprint"]) == (
                b.size, b.api, b.location, b.device, b.footprint), (a, b)
            assert b.pool is None or a["occupied"] == b.occupied, (a, b)
            assert b.pool is None or a["pool"].startswith(b.pool + " ("), (a, b.pool)
        by_pool: dict[str, list] = {}
        for a in snap["allocations"]:
            by_pool.setdefault(a["pool"], []).append(a)
        for p in snap["pools"]:
            blocks = sorted(by_pool.get(p["label"], []), key=lambda a: a["ptr"])
            ends = [p["base"]] + [a["ptr"] + a["occupied"] for a in blocks]
            starts = [a["ptr"] for a in blocks] + [p["base"] + p["total"]]
            assert all(e <= s for e, s in zip(ends, starts)), f"overlap in {p['label']}"
            pool = (p["device"], p["label"].rsplit(" (", 1)[0])
            assert p["used"] == m.used(pool) == sum(a["occupied"] for a in blocks), pool
            assert p["total"] == m.pool_sizes[pool]

    def check_handles(self, snap: dict) -> None:
        """Contexts, streams, events, model RIs and device references are the model's."""
        m = self.m
        ctxs = {c["handle"]: c for c in snap["contexts"]}
        assert set(ctxs) == set(m.contexts)
        for h, c in m.contexts.items():
            assert (ctxs[h]["device"], ctxs[h]["default"], ctxs[h]["streams"],
                    ctxs[h]["events"]) == (c.device, c.default, sorted(c.streams), sorted(c.events))
        assert {s["handle"] for s in snap["streams"]} == set(m.streams)
        for s in snap["streams"]:
            ms = m.streams[s["handle"]]
            assert (s["device"], s["context"], s["issued"]) == (
                ms.device, ms.ctx, m.issued.get(ms.key, 0)), s
            assert s["pending"] <= len(m.pending.get(ms.key, [])), (
                f"stream 0x{ms.handle:x} still holds work the host has waited for")
        events = {e["handle"]: e for e in snap["events"]}
        assert set(events) == set(m.events)
        for h, e in m.events.items():
            key = e.rec[0] if e.rec else None
            assert events[h]["stream"] == (0 if isinstance(key, tuple) else key), events[h]
        graphs = {g["handle"]: g for g in snap["models"]}
        assert set(graphs) == set(m.graphs)
        for h, g in m.graphs.items():
            replays = sum(p.graph == h for ops in m.pending.values() for p in ops)
            assert (graphs[h]["ready"], graphs[h]["executions"], len(graphs[h]["tasks"])) == (
                g.ready, g.executions, len(g.templates)), graphs[h]
            assert graphs[h]["in_flight"] <= replays
        refs = {d: r for d, r in m.refs.items() if r or d in snap["devices"]}
        assert {d: v["refs"] for d, v in snap["devices"].items()} == {
            d: refs.get(d, 0) for d in snap["devices"]} and set(refs) <= set(snap["devices"])
        assert {d for d, v in snap["devices"].items() if v["open"]} == set(m.default_ctx)

    def check_pools(self) -> None:
        """Each open pool's blocks tile it exactly; its segments are the model's; its
        stats add up."""
        for p in self.m.open_pools():
            blocks = p.pool.blocks()
            assert [b.start for b in blocks][:1] == [p.base] and all(
                a.start + a.size == b.start for a, b in itertools.pairwise(blocks)) and (
                blocks[-1].start + blocks[-1].size == p.base + p.capacity), blocks
            segments = {b.start: (b.segment.length, b.size) for b in blocks
                        if b.kind == "segment"}
            assert segments == p.segments
            s = p.pool.stats()
            used = sum(n for _, n in segments.values())
            assert (s.capacity, s.segments, s.used, s.free, s.requested) == (
                p.capacity, len(segments), used, p.capacity - used,
                sum(n for n, _ in segments.values()))

    def check_current_context(self) -> None:
        """get_context / get_device answer as the model says; so does get_mem_info for two
        attributes a step (the pool figures are checked in full from the snapshot)."""
        m = self.m
        handle, ret = self.acl.rt.get_context()
        c = m.contexts.get(m.current)
        if c is None:
            assert ret == C.ACL_ERROR_RT_CONTEXT_NULL
            return
        assert (handle, ret) == (c.handle, OK)
        assert self.acl.rt.get_device() == (c.device, OK)
        attrs = list(MEM_ATTRS)
        for attr in (attrs[self.step % len(attrs)], attrs[(self.step * 7 + 3) % len(attrs)]):
            try:
                expected = m.mem_info(attr) + (OK,)
            except Fail as f:
                expected = (0, 0, *f.codes)
            assert self.acl.rt.get_mem_info(attr) == expected, attr

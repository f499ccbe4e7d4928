"""The report `acl-lab run` prints and the pytest plugin checks: how the program ended,
the calls that failed (use-after-free first), what it leaked, and its modeled timeline."""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from acl_lab.i18n import _
from acl_lab.run.watch import Failure


@dataclass
class Report:
    program: str
    status: str                   # "completed", "exit 2", "exception"
    error: str = ""               # the exception that ended the program, one line
    calls: int = 0
    failures: list = field(default_factory=list)      # [Failure]
    dropped_failures: int = 0
    leaks: list = field(default_factory=list)         # [str], one per kind of resource
    timeline: list = field(default_factory=list)      # [{stream, tasks, kinds, busy_us, end_us}]
    now_us: float = 0.0
    app_log_lines: int = 0
    call_counts: dict = field(default_factory=dict)   # "mdl.execute" -> how many (kept calls)

    @property
    def completed(self) -> bool:
        return self.status == "completed"

    @property
    def use_after_free(self) -> list:
        return [f for f in self.failures if f.freed]

    @property
    def misuse(self) -> list:
        return [f for f in self.failures if not f.freed]

    def findings(self) -> list[str]:
        """One short line per problem found (empty: a clean run)."""
        out = [_("use-after-free: acl.{call} at {where} returned {code}").format(
            call=f.call, where=f.where, code=f.code) for f in self.use_after_free]
        out += [_("acl.{call} at {where} returned {code}").format(
            call=f.call, where=f.where, code=f.code) for f in self.misuse]
        return out + [_("leak: {what}").format(what=line) for line in self.leaks]

    def as_json(self) -> dict:
        data = asdict(self)
        data["failures"] = [f._asdict() for f in self.failures]
        return data

    def render(self) -> str:
        lines = [_("── acl-lab run report: {program} ──").format(program=self.program)]
        ended = {"completed": _("ran to completion")}.get(self.status, self.status)
        lines.append(_("ended: {how}").format(how=ended) + (f" ({self.error})" if self.error
                                                            else ""))
        lines.append(_("calls: {calls}, modeled time {ms:.3f} ms").format(
            calls=self.calls, ms=self.now_us / 1000))
        for title, failures in ((_("use-after-free ({count}):"), self.use_after_free),
                                (_("calls that failed ({count}):"), self.misuse)):
            if failures:
                lines.append(title.format(count=len(failures)))
                lines += [f"  {f.where}  acl.{f.call} -> {f.code}: {f.message}" for f in failures]
        if self.dropped_failures:
            lines.append(_("  … and {count} more failed calls").format(
                count=self.dropped_failures))
        if self.leaks:
            lines.append(_("leaks ({count}):").format(count=len(self.leaks)))
            lines += [f"  {line}" for line in self.leaks]
        if self.timeline:
            lines.append(_("timeline (modeled, per stream):"))
            for row in self.timeline:
                kinds = ", ".join(f"{k} x{n}" for k, n in row["kinds"].items())
                lines.append(_("  stream {stream}: {tasks} task(s) ({kinds}), busy {busy:.1f} us, "
                               "last ends at {end:.1f} us").format(
                                   stream=row["stream"], tasks=row["tasks"], kinds=kinds,
                                   busy=row["busy_us"], end=row["end_us"]))
        if self.app_log_lines:
            lines.append(_("acl.app_log: {count} line(s) in the simulated plog "
                           "(ASCEND_LOG_PRINT_TO_STDOUT=1 prints them)").format(
                               count=self.app_log_lines))
        if not self.failures and not self.leaks:
            lines.append(_("no misuse, no leaks found."))
        return "\n".join(lines)


def timeline(rows) -> list[dict]:
    """The snapshot's timeline rows summed per stream, in stream order."""
    per: dict[int, dict] = {}
    for r in rows:
        s = per.setdefault(r["stream"], {"stream": f"0x{r['stream']:x}", "tasks": 0,
                                         "kinds": Counter(), "busy_us": 0.0, "end_us": 0.0})
        s["tasks"] += 1
        s["kinds"][r["kind"]] += 1
        s["busy_us"] += r["end_us"] - r["start_us"]
        s["end_us"] = max(s["end_us"], r["end_us"])
    return [{**s, "kinds": dict(s["kinds"])} for _, s in sorted(per.items())]


def build(program: str, status: str, error: str, session, watch) -> Report:
    """The report of the program that just ran in ``session``'s simulated process."""
    from acl_lab.run.leaks import live_resources

    trace = session.current().trace
    rt = session.simulator.rt
    with rt.lock:
        snap = rt.snapshot()
        leaks = list(snap["reports"]) + live_resources(rt)
        plog = len(rt.plog.lines)
    calls = trace.calls
    counts = Counter(c.name for c in calls)
    return Report(program, status, error, calls=calls[-1].seq if calls else 0,
                  call_counts=dict(sorted(counts.items())),
                  failures=list(watch.failures), dropped_failures=watch.dropped, leaks=leaks,
                  timeline=timeline(snap["timeline"]), now_us=snap["now_us"],
                  app_log_lines=plog)


__all__ = ["Report", "Failure", "build", "timeline"]

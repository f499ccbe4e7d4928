"""What a program left behind when it ended: what its release calls reported, and every
resource still alive in the simulated process, each with the call that releases it."""
from __future__ import annotations

from acl_lab.i18n import _
from acl_lab.spec.memory_rules import ALLOCATORS, c_name


def _listed(handles, limit: int = 4) -> str:
    shown = ", ".join(f"0x{h:x}" for h in handles[:limit])
    return shown + (f", … (+{len(handles) - limit})" if len(handles) > limit else "")


def _line(handles, what: str, release: str) -> str:
    return _("{count} {what} never released (release with {call}): {handles}").format(
        count=len(handles), what=what, call=release, handles=_listed(handles))


def live_resources(rt) -> list[str]:
    """One line per kind of resource still alive in ``rt`` (a simulated Process)."""
    out = []
    by_api: dict[str, list[int]] = {}
    for ptr, block in sorted(rt.memory.map.blocks.items()):
        rule = ALLOCATORS.get(getattr(block, "api", None))
        if rule is not None and rule.freed_by in ("free", "free_host", "dvpp_free"):
            by_api.setdefault(block.api, []).append(ptr)
    for api, ptrs in by_api.items():
        out.append(_line(ptrs, _("allocation(s) from {call}").format(call=c_name(api)),
                         f"acl.{'media' if api == 'dvpp_malloc' else 'rt'}."
                         f"{ALLOCATORS[api].freed_by}"))
    tables = [
        ([s.handle for s in rt.streams.values() if not s.default], "aclrtStream",
         "acl.rt.destroy_stream"),
        ([e.handle for e in rt.events.values()], "aclrtEvent", "acl.rt.destroy_event"),
        ([c.handle for c in rt.contexts.values() if not c.default], "aclrtContext",
         "acl.rt.destroy_context"),
        (sorted(rt.models.loaded), _("loaded model(s)"), "acl.mdl.unload"),
        (sorted(rt.models.descs), "aclmdlDesc", "acl.mdl.destroy_desc"),
        (sorted(rt.models.datasets), "aclmdlDataset", "acl.mdl.destroy_dataset"),
        (sorted(rt.models.buffers), "aclDataBuffer", "acl.destroy_data_buffer"),
        (sorted(rt.kernels.binaries), "aclrtBinHandle", "acl.rt.binary_unload"),
        (sorted(rt.kernels.blobs), "aclrtBinary", "acl.rt.destroy_binary"),
        (sorted(rt.allocators.descs), "aclrtAllocatorDesc", "acl.rt.allocator_destroy_desc"),
    ]
    single_ops = getattr(rt, "single_ops", None)
    if single_ops is not None:
        tables += single_ops.live()
    out += [_line(handles, what, release) for handles, what, release in tables if handles]
    opened = sorted(d.id for d in rt.devices.values() if d.refs > 0)
    if opened:
        out.append(_("device(s) {ids} still set (release with acl.rt.reset_device)").format(
            ids=", ".join(map(str, opened))))
    if rt.initialized:
        out.append(_("acl.init() was never matched by acl.finalize()"))
    return out

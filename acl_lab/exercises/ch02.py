"""Chapter 02 checks: which pages a policy picks, and which call frees which block."""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C

from collections.abc import Callable

from ..i18n import _
from ..memory_rules import FREED_BY
from ..trace import untraced
from . import NotYet, exercise

MiB = 1 << 20
#: (size, policy) cases exercise 02.1 tries, the 1 MiB boundary included.
PAGE_CASES = (
    (200, C.ACL_MEM_MALLOC_HUGE_FIRST), (8 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST),
    (MiB - 40, C.ACL_MEM_MALLOC_HUGE_FIRST), (MiB - 16, C.ACL_MEM_MALLOC_HUGE_FIRST),
    (100, C.ACL_MEM_MALLOC_HUGE_ONLY), (2 * MiB, C.ACL_MEM_MALLOC_NORMAL_ONLY),
)


def traced_free(api: str) -> str:
    """The traced name of the call that releases ``api``'s memory (docs/rules.md#rule-1, #rule-2)."""
    free = FREED_BY[api]
    return f"{'media' if free == 'dvpp_free' else 'rt'}.{free}"


def live_allocation(ptr) -> dict | None:
    """The snapshot entry of the live allocation that starts at ``ptr``, or None."""
    return next((a for a in acl_lab.snapshot()["allocations"] if a["ptr"] == ptr), None)


def page_of(allocation: dict) -> str:
    """'huge' or 'normal': the page type of the pool an allocation came from."""
    pools = acl_lab.snapshot()["pools"]
    return next(p["page"] for p in pools if p["label"] == allocation["pool"])


PAGES_HINT = ("Return 'huge' for ACL_MEM_MALLOC_HUGE_ONLY and 'normal' for "
              "ACL_MEM_MALLOC_NORMAL_ONLY; for ACL_MEM_MALLOC_HUGE_FIRST return 'huge' when "
              "align_up(size, 32) + 32 > MiB (the padded size is what the runtime compares), "
              "else 'normal'.")


@exercise("02.1", "Predict the pages", PAGES_HINT)
def predicted_pages(acl, pages: Callable):
    for size, policy in PAGE_CASES:
        guess = pages(size, policy)
        if guess not in ("huge", "normal"):
            raise NotYet(_("{call} returned {guess}. {hint}").format(
                call=f"pages({size}, {C.MALLOC_POLICY_NAMES[policy]})", guess=repr(guess),
                hint=_(PAGES_HINT)))
        ptr, ret = untraced(acl.rt.malloc)(size, policy)
        assert ret == C.ACL_SUCCESS
        actual = page_of(live_allocation(ptr))
        assert untraced(acl.rt.free)(ptr) == C.ACL_SUCCESS
        if guess != actual:
            text = (_("{call} returned {guess}, but aclrtMalloc put the block on {actual} pages "
                      "(HUGE_FIRST compares the padded size, ALIGN_UP(size, 32) + 32, with "
                      "1 MiB).") if policy == C.ACL_MEM_MALLOC_HUGE_FIRST else
                    _("{call} returned {guess}, but aclrtMalloc put the block on {actual} "
                      "pages."))
            raise NotYet(text.format(call=f"pages({size}, {C.MALLOC_POLICY_NAMES[policy]})",
                                     guess=repr(guess), actual=actual))
    return _("all {count} placements predicted, the 1 MiB boundary included.").format(
        count=len(PAGE_CASES))


def _released_by_partner(calls, api: str, ptr: int) -> bool:
    """Did the partner of ``api`` free ``ptr`` after the allocation that returned it?"""
    born = max((i for i, c in enumerate(calls) if c.name.endswith("." + api)
                and isinstance(c.result, tuple) and c.result == (ptr, C.ACL_SUCCESS)),
               default=-1)
    return any(c.name == traced_free(api) and c.args[:1] == (ptr,) and c.ret == C.ACL_SUCCESS
               for c in calls[born + 1:])


#: The allocators whose blocks the chapter's cell puts in ``blocks``.
BLOCKS_MADE = ("malloc_host", "malloc", "malloc_align32", "dvpp_malloc")


@exercise("02.2", "Free with the partner",
          "Each allocator has one partner: acl.rt.free_host(blocks['malloc_host']); "
          "acl.rt.free(...) for blocks['malloc'] and blocks['malloc_align32']; "
          "acl.media.dvpp_free(blocks['dvpp_malloc']).")
def freed_with_partner(acl, blocks: dict):
    calls = list(acl_lab.tracer().calls)
    unknown = [api for api in blocks if api not in FREED_BY]
    if unknown:
        raise NotYet(_("blocks has a key {key}; keep the keys the cell above made "
                       "({keys}).").format(key=repr(unknown[0]), keys=", ".join(FREED_BY)))
    missing = [api for api in BLOCKS_MADE if api not in blocks]
    if missing:
        raise NotYet(_("blocks has no key {key}: run the cell that made blocks again, then free "
                       "each of its {count} blocks.").format(key=repr(missing[0]),
                                                           count=len(BLOCKS_MADE)))
    left = [api for api, ptr in blocks.items() if not _released_by_partner(calls, api, ptr)]
    if left:
        raise NotYet(_("not released by their partners yet: {calls}. (After a refused free, "
                       "acl.get_recent_err_msg() names the partner.)").format(
            calls="; ".join(f"acl.{traced_free(api)}(blocks[{api!r}])" for api in left)))
    for ptr in blocks.values():
        assert live_allocation(ptr) is None
    return _("every block released by its partner: {pairs}.").format(pairs=", ".join(
        f"{api} -> acl.{traced_free(api)}" for api in blocks))

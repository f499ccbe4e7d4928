"""Chapter 02 checks: which pages a policy picks, and which call frees which block."""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C

from collections.abc import Callable

from acl_lab.i18n import _
from acl_lab.spec.memory_rules import FREED_BY
from acl_lab.trace import untraced
from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name

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


PAGES_HINT = ("HUGE_ONLY and NORMAL_ONLY name their pages. HUGE_FIRST decides by size: compare "
              "what aclrtMalloc really takes for the block (section 3) with 1 MiB.")


@exercise("02.1", "Predict the pages", PAGES_HINT, level="medium",
          more=("For ACL_MEM_MALLOC_HUGE_FIRST, return 'huge' when the padded size, "
                "align_up(size, 32) + 32, is above MiB, else 'normal'.",),
          solution="""
          if policy == ACL_MEM_MALLOC_HUGE_ONLY:
              return "huge"
          if policy == ACL_MEM_MALLOC_NORMAL_ONLY:
              return "normal"
          padded = align_up(size, 32) + 32         # HUGE_FIRST compares what malloc really takes
          return "huge" if padded > MiB else "normal"
          """)
def predicted_pages(acl, pages: Callable):
    name = learner_name(pages, "pages")
    for size, policy in PAGE_CASES:
        call = f"{name}({size}, {C.MALLOC_POLICY_NAMES[policy]})"
        guess = pages(size, policy)
        if guess not in ("huge", "normal"):
            raise NotYet(_("{call} returned {guess}: return 'huge' or 'normal'.").format(
                call=call, guess=repr(guess)))
        ptr, ret = untraced(acl.rt.malloc)(size, policy)
        assert ret == C.ACL_SUCCESS
        actual = page_of(live_allocation(ptr))
        assert untraced(acl.rt.free)(ptr) == C.ACL_SUCCESS
        if guess != actual:
            if policy != C.ACL_MEM_MALLOC_HUGE_FIRST:
                raise NotYet(_("{call} returned {guess}, but aclrtMalloc put the block on "
                               "{actual} pages.").format(call=call, guess=repr(guess),
                                                         actual=actual))
            raise NotYet(_("{call} returned {guess}, but aclrtMalloc put the block on {actual} "
                           "pages.").format(call=call, guess=repr(guess), actual=actual),
                         _("{call} returned {guess}, but aclrtMalloc put the block on {actual} "
                           "pages (HUGE_FIRST compares the padded size, ALIGN_UP(size, 32) + "
                           "32, with 1 MiB).").format(call=call, guess=repr(guess),
                                                      actual=actual))
    return _("all {count} placements predicted, the 1 MiB boundary included.").format(
        count=len(PAGE_CASES))


def _released_by_partner(calls, api: str, ptr: int) -> bool:
    """Did the partner of ``api`` free ``ptr`` after the allocation that returned it?"""
    born = max((i for i, c in enumerate(calls) if c.name.endswith("." + api)
                and isinstance(c.result, tuple) and c.result == (ptr, C.ACL_SUCCESS)),
               default=-1)
    return any(c.name == traced_free(api) and c.args[:1] == (ptr,) and c.ret == C.ACL_SUCCESS
               for c in calls[born + 1:])


#: The allocators whose blocks exercise 02.2 hands out in ``blocks``.
BLOCKS_MADE = ("malloc_host", "malloc", "malloc_align32", "dvpp_malloc")


def _four_blocks(acl):
    """02.2: one 512-byte block from each allocator, by allocator name."""
    return {
        "malloc_host": acl.rt.malloc_host(512)[0],
        "malloc": acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST)[0],
        "malloc_align32": acl.rt.malloc_align32(512, C.ACL_MEM_MALLOC_HUGE_FIRST)[0],
        "dvpp_malloc": acl.media.dvpp_malloc(512)[0],
    }


@exercise("02.2", "Free with the partner",
          "Each allocator has exactly one partner that gives its memory back (docs/rules.md, "
          "rule 1). A refused free changes nothing, and acl.get_recent_err_msg() names the "
          "partner: try one, then read it.",
          level="easy",
          more=("Which memory a block is decides its partner: pinned host memory, device "
                "memory (malloc_align32 gives device memory too) or media memory each have "
                "their own free call, in the namespace of their allocator.",
                "malloc_host pairs with acl.rt.free_host; malloc and malloc_align32 with "
                "acl.rt.free; dvpp_malloc with acl.media.dvpp_free.",),
          setup=_four_blocks,
          solution="""
          acl.rt.free_host(blocks["malloc_host"])      # pinned host memory
          acl.rt.free(blocks["malloc"])                # device memory
          acl.rt.free(blocks["malloc_align32"])
          acl.media.dvpp_free(blocks["dvpp_malloc"])   # media-processing memory
          """)
def freed_with_partner(acl, blocks: dict):
    calls = calls_since_start()
    name = learner_name(blocks, "blocks")
    unknown = [api for api in blocks if api not in FREED_BY]
    if unknown:
        raise NotYet(_("{name} has a key {key}; keep the keys exercises.start() gave it "
                       "({keys}).").format(name=name, key=repr(unknown[0]),
                                           keys=", ".join(BLOCKS_MADE)))
    missing = [api for api in BLOCKS_MADE if api not in blocks]
    if missing:
        raise NotYet(_("{name} has no key {key}: run the exercise cell from its first line, "
                       "then free each of its {count} blocks.").format(
                           name=name, key=repr(missing[0]), count=len(BLOCKS_MADE)))
    left = [api for api, ptr in blocks.items() if not _released_by_partner(calls, api, ptr)]
    if left:
        raise NotYet(_("{count} of {total} blocks are not released by their partner yet: "
                       "{keys}. After a refused free, acl.get_recent_err_msg() names the "
                       "partner.").format(count=len(left), total=len(blocks),
                                          keys=", ".join(f"{name}[{api!r}]" for api in left)),
                     _("not released by their partners yet: {calls}.").format(
                         calls="; ".join(f"acl.{traced_free(api)}({name}[{api!r}])"
                                         for api in left)))
    for ptr in blocks.values():
        assert live_allocation(ptr) is None
    return _("every block released by its partner: {pairs}.").format(pairs=", ".join(
        f"{api} -> acl.{traced_free(api)}" for api in blocks))

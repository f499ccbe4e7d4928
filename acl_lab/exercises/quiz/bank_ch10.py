"""Chapter 10's self-test questions (virtual memory, expandable segments), added to the bank
by ``bank.py`` (kept apart: one module per chapter group keeps each file short)."""
from __future__ import annotations

from acl_lab.i18n import N_
from acl_lab.exercises.quiz.bank import ask

# 10 · Device memory as CANN 8/9 does it
ask("10", N_("`acl.rt.reserve_mem_address(64 << 20, 0, 0, 0)` succeeds. How does "
             "`get_mem_info(ACL_HBM_MEM)`'s free figure move?"), 1,
    (N_("Down by 64 MiB"),
     N_("Reserving takes addresses, not memory: nothing is allocated until physical memory "
        "is mapped.")),
    (N_("It does not move"),
     N_("Only acl.rt.malloc_physical takes pages; map_mem and reserve_mem_address take "
        "none.")),
    (N_("Down by 2 MiB, one granule"),
     N_("A reservation holds no granule; the first physical handle does.")))
ask("10", N_("A handle of 2 MiB is mapped at `va`. Which `acl.rt.map_mem` call maps a second "
             "handle of 2 MiB right after it?"), 2,
    ("`map_mem(va + 4096, 2 << 20, 0, h2, 0)`",
     N_("The address must be a multiple of the granularity (2 MiB), and it would overlap "
        "the first mapping: 107000.")),
    ("`map_mem(va + (2 << 20), 4 << 20, 0, h2, 0)`",
     N_("A map covers one whole handle: its size must equal the handle's, 2 MiB.")),
    ("`map_mem(va + (2 << 20), 2 << 20, 0, h2, 0)`",
     N_("The next granule, the handle's own size, offset and flags 0 (and inside the "
        "reserved range).")))
ask("10", N_("`free_physical(handle)` is called while the handle is still mapped. What "
             "happens?"), 0,
    (N_("It returns 0; the pages stay until the last unmap, and the mapped bytes stay "
        "readable"),
     N_("The docs: the physical memory is only released once its mappings are gone "
        "(a deferred free).")),
    (N_("It returns 107000: unmap first"),
     N_("That is release_mem_address's rule for a mapped range, not free_physical's.")),
    (N_("The pages go at once and reading the range fails"),
     N_("The free is deferred: the mapping keeps the pages alive.")))
ask("10", N_("Why do expandable segments (torch_npu) cure an out-of-memory that a fixed pool "
             "hits with enough free bytes in total?"), 1,
    (N_("They use smaller pages"),
     N_("They map the same 2 MiB (or 20 MiB) chunks a pool would hold.")),
    (N_("A tensor needs contiguous addresses, not contiguous memory: new chunks are mapped "
        "where the range has room, and idle ones are unmapped"),
     N_("The range of addresses is huge and reserved once; physical chunks come and go "
        "under it, so freed holes do not block a bigger tensor.")),
    (N_("They free memory the program still uses"),
     N_("empty_cache unmaps only chunks no live tensor touches.")))
ask("10", N_("Before aclrtUnmapMem, torch_npu synchronizes the device. Why?"), 0,
    (N_("Unmapping does not wait for work in flight: a queued copy or kernel would reach "
        "unmapped addresses"),
     N_("The runtime unmaps at once; the program must make sure no task still uses the "
        "range (the simulator waits for such tasks; hardware does not).")),
    (N_("aclrtUnmapMem refuses a range with queued work (107000)"),
     N_("It does not check; that is why synchronizing is the caller's job.")),
    (N_("To flush the cache of the chunk"),
     N_("Caches are not the concern: tasks that still use the addresses are.")))

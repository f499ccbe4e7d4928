"""What ACL says, with no state: the rules both the simulator and the real-hardware guard
apply, written once.

    codes.py code_texts.py   every ACL error code in plain words (``explain``)
    refusal.py               how the kit says no: Refusal, AclLabError, SimulatorLimit
                             (public as acl_lab.errors), ints read as C reads them
    prototypes/              the C prototype of each pyACL call and what the Python call
                             returns (its failure shape), one module per namespace
    args.py                  how a call reads an argument as its C type
    dtypes.py                aclDataType facts: names, sizes, numpy types
    memory_rules.py          malloc / free / pairing / policy / page rules
    transfer_rules.py        memset / memcpy bounds, direction and alignment rules
    callback_rules.py        what a host callback must not call
    socs.py                  which SoC has which feature and rule (one table)
    aclnn_rules.py           what an aclTensor may be and reach; an executor runs once
    address_map.py           which allocation an address falls in (sorted, interior-aware)
    snapshot_schema.py       the keys of ``acl_lab.snapshot()`` on every backend

A module here imports only ``acl_lab.constants``, ``acl_lab.i18n``, ``acl_lab.align``,
plumbing from ``acl_lab.support`` and other spec modules (tests/project/test_house.py
holds that).
"""

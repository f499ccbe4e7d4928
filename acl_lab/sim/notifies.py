"""Notifies: a flag one stream sets (aclrtRecordNotify) and another waits for and clears
(aclrtWaitAndResetNotify), shared between processes by key (aclrtNotifyGetExportKey,
aclrtNotifySetImportPid, aclrtNotifyImportByKey).

A record task sets the flag when its stream reaches it; a wait task holds its stream until
the flag is set, then clears it. Two records before a wait set it once. The simulator fixes
a task's modeled time when it is issued, so a wait takes the record issued before it (the
official pattern, example/1_basic_features/stream/2_multi_stream): a wait issued with no
record before it would, on hardware, block its stream until some later record, or for
ever; the simulator refuses the wait that would block for ever (stricter than hardware,
where it would hang), and lets a wait with a time limit time out on the device
(ACL_ERROR_RT_WAIT_TIMEOUT, reported to the exception callback).

Keys: one simulated process plays both sides: importing its own exported key gives a second
handle (another process's view) on the same flag. Unless the export turned the check off,
the importing process must be in the whitelist aclrtNotifySetImportPid set: this process's
id (os.getpid(), what aclrtDeviceGetBareTgid answers for it).

Rules and codes as hicann/runtime: src/acl/aclrt_impl/notify.cpp, src/runtime/api/
api_c_event.cc (rtsNotifyCreate: flags; rtsNotifyBatchReset), api_c_standard_soc.cc
(rtNotifyReset, rtIpcOpenNotifyWithFlag, rtsNotifySetImportPid: chip features),
api/impl/api_error.cc and api_impl.cc (NotifyCreate ... IpcOpenNotify, NotifyWait).
"""
from __future__ import annotations

import heapq
import os
from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import device_facts as facts
from acl_lab.sim.hostram import OBJECT_BYTES
from acl_lab.sim.simerror import SimError, TaskFailed
from acl_lab.sim.streams import Task
from acl_lab.spec import device_rules as rules
from acl_lab.spec import handles

NOTIFY_BASE, NOTIFY_STEP = 0x6800_0000, 0x40


@dataclass(eq=False)
class Flag:
    """The notify itself, which every handle on it shares."""
    id: int
    device: int
    setter: tuple | None = None     # (stream, seq, end_us) of the record that sets it
    key: str | None = None
    pid_check: bool = True
    pids: set = field(default_factory=set)


@dataclass(eq=False)
class Notify:
    handle: int
    flag: Flag
    imported: bool = False

    def row(self) -> dict:
        return {"handle": self.handle, "id": self.flag.id, "device": self.flag.device,
                "set_pending": self.flag.setter is not None, "exported": self.flag.key is not None,
                "imported": self.imported}


class Notifies:
    def __init__(self, rt):
        self.rt = rt
        self.table: dict[int, Notify] = {}
        self.keys: dict[str, Flag] = {}
        self._count = 0
        self._ids: dict[int, list] = {}      # device -> [next new id, heap of freed ids]
        self._live: dict[int, int] = {}      # device -> notifies created on it, alive

    def _new_handle(self) -> int:
        self._count += 1
        return NOTIFY_BASE + self._count * NOTIFY_STEP

    def notify(self, handle: int, call: str) -> Notify:
        return handles.live(self.table, handle, call, _(
            "{call}: {handle} is not a live notify. Use a handle from acl.rt.create_notify() "
            "(or acl.rt.notify_import_by_key) that has not been destroyed."),
            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)

    def _feature(self, name: str, call: str, what: str) -> None:
        if name not in facts.chip(self.rt.profile.soc_name).features:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           _("{call}: {what} is not supported on {soc}.").format(
                               call=call, what=what, soc=self.rt.profile.soc_name))

    # ----- create, destroy, id ----------------------------------------------------------
    def create(self, flag: int) -> int:
        call = "aclrtCreateNotify"
        rules.notify_flag(call, flag, (C.ACL_NOTIFY_DEFAULT, C.ACL_NOTIFY_DEVICE_USE_ONLY),
                          "ACL_NOTIFY_DEFAULT (0x0), ACL_NOTIFY_DEVICE_USE_ONLY (0x1)")
        device = self.rt.require_ctx(call).device      # rtsNotifyCreate: rtGetDevice
        limit = facts.chip(self.rt.profile.soc_name).notifies
        if self._live.get(device, 0) >= limit:
            raise SimError(C.ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
                           _("{call}: device {device} already has {limit} notifies, all this "
                             "{soc} holds. Destroy some with acl.rt.destroy_notify.").format(
                               call=call, device=device, limit=limit,
                               soc=self.rt.profile.soc_name))
        self.rt.memory.ram.need(OBJECT_BYTES, call, _("one more notify"))
        ids = self._ids.setdefault(device, [0, []])
        if ids[1]:                                   # the driver hands out its lowest free id
            number = heapq.heappop(ids[1])
        else:
            number, ids[0] = ids[0], ids[0] + 1
        n = Notify(self._new_handle(), Flag(number, device))
        self.table[n.handle] = n
        self._live[device] = self._live.get(device, 0) + 1
        return n.handle

    def destroy(self, handle: int) -> None:
        n = self.notify(handle, "aclrtDestroyNotify")
        del self.table[handle]
        if n.imported:
            return
        if n.flag.key is not None:
            self.keys.pop(n.flag.key, None)      # the exporter's destroy ends the key
        self._live[n.flag.device] -= 1
        heapq.heappush(self._ids[n.flag.device][1], n.flag.id)

    def id_of(self, handle: int) -> int:
        call = "aclrtGetNotifyId"
        n = self.notify(handle, call)
        self.rt.require_ctx(call)                # ApiImpl::GetNotifyID: CurrentContext
        return n.flag.id

    def forget_device(self, device: int) -> None:
        """A device was reset: its notifies went with it."""
        for handle in [h for h, n in self.table.items() if n.flag.device == device]:
            self.destroy(handle)

    # ----- stream tasks -----------------------------------------------------------------
    def _task_stream(self, stream: int, call: str):
        s = self.rt.stream(stream, call, other_device_ok=True)
        if s.capture is not None:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           _("{call}: stream {stream} is capturing; the simulator does not "
                             "capture notify tasks. Record or wait outside the capture, or "
                             "order captured work with events.").format(
                               call=call, stream=f"0x{s.handle:x}"))
        return s

    def record(self, handle: int, stream: int) -> None:
        call = "aclrtRecordNotify"
        n = self.notify(handle, call)
        s = self._task_stream(stream, call)
        task = self.rt.issue(s, Task("notify_record", 0.0, detail={"notify": n.flag.id}), call)
        if n.flag.setter is None:      # a second record before a wait sets it once
            n.flag.setter = (s, task.seq, task.end_us)

    def wait_and_reset(self, handle: int, stream: int, timeout_s: int) -> None:
        call = "aclrtWaitAndResetNotify"
        if timeout_s < 0:                        # pyACL's own checks (rt_notify.cpp)
            raise TypeError("timeout can't be a negative number!")
        if timeout_s >= 1 << 32:
            raise TypeError("timeout should be less than 2**32!")
        n = self.notify(handle, call)
        s = self._task_stream(stream, call)
        if n.imported and s.device != n.flag.device:       # ApiImpl::NotifyWait
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: the wait of an imported notify must be issued on device "
                             "{device}, where the notify was created, not on device "
                             "{current}.").format(call=call, device=n.flag.device,
                                                   current=s.device))
        setter = n.flag.setter
        if setter is None and timeout_s == 0:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: notify {id} has no record to wait for, and timeout 0 "
                             "waits for ever: on a device stream {stream} would stop here until "
                             "a record that the simulator cannot see coming. Record the notify "
                             "first (acl.rt.record_notify on the stream whose work must come "
                             "first), then wait; or give a timeout in seconds.").format(
                               call=call, id=n.flag.id, stream=f"0x{s.handle:x}"))
        if setter is not None:
            self.rt.issue(s, Task("notify_wait", 0.0, wait_for=setter,
                                  detail={"notify": n.flag.id}), call)
            n.flag.setter = None
            return

        def time_out() -> None:
            """The device gives up when the time limit passes: whoever waits learns of it
            then (the host's clock moves there)."""
            self.rt.sched.now_us = max(self.rt.sched.now_us, task.end_us)
            raise TaskFailed(C.ACL_ERROR_RT_WAIT_TIMEOUT,
                             _("{call}: the wait for notify {id} on stream {stream} timed out "
                               "after {timeout} s: nothing recorded the notify. Record it "
                               "before the wait, on the stream whose work must come first.").format(
                                 call=call, id=n.flag.id, stream=f"0x{s.handle:x}",
                                 timeout=timeout_s))
        task = self.rt.issue(s, Task("notify_wait", timeout_s * 1e6, run=time_out,
                                     detail={"notify": n.flag.id}), call)

    def batch_reset(self, handles_: tuple) -> None:
        """aclrtNotifyBatchReset: the host clears each flag now (a record still queued sets it
        later). The simulator checks every handle before it clears any (the runtime clears
        them in turn and stops at the first bad one)."""
        call = "aclrtNotifyBatchReset"
        self._feature(facts.NOTIFY_RESET, call, _("resetting notifies from the host"))
        if not handles_:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: the list of notifies is empty; num must be at least "
                             "1.").format(call=call))
        found = []
        for h in handles_:
            if h == 0:
                raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                               _("{call}: a notify in the list is NULL (0).").format(call=call))
            found.append(self.notify(h, call))
        for n in found:
            setter = n.flag.setter
            if setter is not None and setter[2] <= self.rt.sched.now_us:
                self.rt.sched.run_until(setter[0], setter[1])
                n.flag.setter = None

    # ----- sharing by key ---------------------------------------------------------------
    def export_key(self, handle: int, length: int, flags: int) -> str:
        call = "aclrtNotifyGetExportKey"
        rules.export_key_len(call, length)
        n = self.notify(handle, call)
        self._feature(facts.IPC_NOTIFY, call, _("sharing a notify with another process"))
        rules.notify_flag(call, flags, (C.ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT,
                                        C.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION),
                          "ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (0x0), "
                          "ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION (0x2)")
        if n.flag.key is None:
            n.flag.key = f"acl_lab_notify_{n.flag.device}_{n.flag.id}"
            self.keys[n.flag.key] = n.flag
        n.flag.pid_check = not flags & C.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION
        return n.flag.key[:length - 1]      # a C string of at most len - 1 characters

    def set_import_pids(self, handle: int, pids: tuple) -> None:
        call = "aclrtNotifySetImportPid"
        self._feature(facts.IPC_NOTIFY, call, _("sharing a notify with another process"))
        n = self.notify(handle, call)
        if n.flag.key is None:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: notify {id} has no key yet; call "
                             "acl.rt.notify_get_export_key first.").format(call=call,
                                                                        id=n.flag.id))
        n.flag.pids.update(pids)

    def import_key(self, key: str, flags: int) -> int:
        call = "aclrtNotifyImportByKey"
        self._feature(facts.IPC_NOTIFY, call, _("sharing a notify with another process"))
        rules.notify_flag(call, flags, (0, 1, 2, 3), "ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT (0x0), "
                          "ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS (0x2)")
        self.rt.require_ctx(call)                # ApiImpl::IpcOpenNotify: CurrentContext
        flag = self.keys.get(key)
        if flag is None:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: no notify was exported under key {key} (or its creator "
                             "destroyed it). Pass the key acl.rt.notify_get_export_key "
                             "returned.").format(call=call, key=repr(key)))
        if flag.pid_check and os.getpid() not in flag.pids:
            raise SimError(C.ACL_ERROR_RT_NO_PERMISSION,
                           _("{call}: this process ({pid}) is not in the notify's whitelist. The "
                             "exporting process adds it with acl.rt.notify_set_import_pid, or "
                             "exports with ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION.").format(
                               call=call, pid=os.getpid()))
        self.rt.memory.ram.need(OBJECT_BYTES, call, _("one more notify"))
        n = Notify(self._new_handle(), flag, imported=True)
        self.table[n.handle] = n
        return n.handle

    def snapshot(self) -> list[dict]:
        return [n.row() for n in self.table.values()]

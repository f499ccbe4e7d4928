"""aclopStartDumpArgs / aclopStopDumpArgs: a record of the operators a program runs.

hicann/runtime src/dfx/adump/adump/manage/adump_api_platform.cpp and dump_manager.cpp
(DumpManager::StartDumpArgs): the dump type must include ACL_OP_DUMP_OP_AICORE_ARGS, a
second start while one runs fails, the path is created if missing and must be a writable
folder; every failure is ACL_ERROR_FAILURE. Stopping what never started succeeds. While it
runs, each aclnn operator (the only operators it applies to, per the API reference) leaves
one file per shape in the folder, with the operator's type and its tensors' data types,
formats and shapes: the simulator writes them as JSON (the real files' format is CANN's own).
"""
from __future__ import annotations

import json
import os

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.spec.dtypes import name as dtype_name

MAX_FILES = 1000          # files one start may write (one per operator and shape)


class DumpArgs:
    def __init__(self, rt):
        self.rt = rt
        self.path: str | None = None
        self.written: dict[tuple, str] = {}

    def start(self, dump_type: int, path: str, call: str = "aclopStartDumpArgs") -> None:
        def failed(reason: str) -> SimError:
            return SimError(C.ACL_ERROR_FAILURE, _(
                "{call}: {reason}").format(call=call, reason=reason))
        if not dump_type & C.ACL_OP_DUMP_OP_AICORE_ARGS:
            raise failed(_("dumpType {type} does not include ACL_OP_DUMP_OP_AICORE_ARGS "
                           "(0x1).").format(type=dump_type))
        if self.path is not None:
            raise failed(_("the dump already runs (into {path}); stop it first.").format(
                path=self.path))
        if not path or "\0" in path:
            raise failed(_("the path is empty."))
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as e:
            raise failed(_("the folder {path} cannot be created ({reason}).").format(
                path=repr(path), reason=e.strerror or e)) from None
        if not os.path.isdir(path) or not os.access(path, os.R_OK | os.W_OK):
            raise failed(_("{path} is not a folder this program may read and write.").format(
                path=repr(path)))
        self.path, self.written = os.path.realpath(path), {}

    def stop(self, dump_type: int) -> None:
        if dump_type & C.ACL_OP_DUMP_OP_AICORE_ARGS:
            self.path = None

    def record(self, op: str, tensors: list, out) -> None:
        """An aclnn operator runs: its file, once per shape of its tensors."""
        if self.path is None:
            return
        rows = [{"data_type": dtype_name(t.dtype), "format": C.FORMAT_NAMES.get(t.fmt, t.fmt),
                 "shape": list(t.shape)} for t in tensors + [out]]
        key = (op, json.dumps(rows))
        if key in self.written or len(self.written) >= MAX_FILES:
            return
        name = f"{op}_{len(self.written) + 1:04d}.json"
        text = json.dumps({"op_type": op, "inputs": rows[:-1], "outputs": rows[-1:]}, indent=1)
        try:
            with open(os.path.join(self.path, name), "w", encoding="utf-8") as f:
                f.write(text)
        except OSError:
            return          # the folder went away: the runtime logs and goes on
        self.written[key] = name

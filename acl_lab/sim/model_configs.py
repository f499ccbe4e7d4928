"""Model config handles (aclmdlCreateConfigHandle, aclmdlSetConfigOpt, aclmdlLoadWithConfig)
and execution config handles (aclmdlCreateExecConfigHandle, aclmdlSetExecConfigOpt,
aclmdlExecuteV2) of one simulated process.

As hicann/ge api/acl/acl_model/model/model_config_om2.cpp (g_setMdlConfigMap and its
Check* functions: an attribute outside the map, a value of the wrong size, a NULL pointer,
a load type outside 1..6, a priority outside the stream priority range, a workspace
optimisation other than 0 / 1: ACL_ERROR_INVALID_PARAM), model_common.cpp
CheckMdlConfigHandle (what each load type requires set) and model.cpp
aclmdlLoadWithConfigImpl / aclmdlExecuteV2Impl. The value sizes are the ones pyACL's
WrapAclMdlSetConfigOpt passes: int32 for ACL_MDL_PRIORITY_INT32, a pointer for the *_PTR
attributes (a path as a C string), uint64 for every other attribute.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.sim import waits
from acl_lab.spec import handles

CONFIG_BASE, EXEC_BASE, STEP = 0xA800_0000, 0xAC00_0000, 0x40
#: ACL_MDL_* attribute -> the size GE requires ("int32", "ptr", "size"), from the map
ATTR_SIZES = {C.ACL_MDL_PRIORITY_INT32: "int32", C.ACL_MDL_LOAD_TYPE_SIZET: "size",
              C.ACL_MDL_PATH_PTR: "ptr", C.ACL_MDL_MEM_ADDR_PTR: "ptr",
              C.ACL_MDL_MEM_SIZET: "size", C.ACL_MDL_WEIGHT_ADDR_PTR: "ptr",
              C.ACL_MDL_WEIGHT_SIZET: "size", C.ACL_MDL_WORKSPACE_ADDR_PTR: "ptr",
              C.ACL_MDL_WORKSPACE_SIZET: "size", C.ACL_MDL_INPUTQ_NUM_SIZET: "size",
              C.ACL_MDL_INPUTQ_ADDR_PTR: "ptr", C.ACL_MDL_OUTPUTQ_NUM_SIZET: "size",
              C.ACL_MDL_OUTPUTQ_ADDR_PTR: "ptr", C.ACL_MDL_WORKSPACE_MEM_OPTIMIZE: "size",
              C.ACL_MDL_WEIGHT_PATH_PTR: "ptr"}
#: the pointers that must not be NULL (CheckMdlLoadPtrAttrEx)
NOT_NULL = {C.ACL_MDL_PATH_PTR, C.ACL_MDL_MEM_ADDR_PTR, C.ACL_MDL_INPUTQ_ADDR_PTR,
            C.ACL_MDL_OUTPUTQ_ADDR_PTR, C.ACL_MDL_WEIGHT_PATH_PTR}
PRIORITY_RANGE = (0, 7)     # aclrtDeviceGetStreamPriorityRange: greatest 0, least 7
FROM_FILE = (C.ACL_MDL_LOAD_FROM_FILE, C.ACL_MDL_LOAD_FROM_FILE_WITH_MEM,
             C.ACL_MDL_LOAD_FROM_FILE_WITH_Q)
WITH_Q = (C.ACL_MDL_LOAD_FROM_FILE_WITH_Q, C.ACL_MDL_LOAD_FROM_MEM_WITH_Q)
EXEC_ATTRS = (C.ACL_MDL_STREAM_SYNC_TIMEOUT, C.ACL_MDL_EVENT_SYNC_TIMEOUT)


@dataclass(eq=False)
class ConfigHandle:
    values: dict = field(default_factory=dict)     # ACL_MDL_* -> value


@dataclass(eq=False)
class ExecConfigHandle:
    stream_sync_timeout: int = -1
    event_sync_timeout: int = -1


class ModelConfigs:
    """The config and exec-config handles of one process."""

    def __init__(self, rt):
        self.rt = rt
        self.configs: dict[int, ConfigHandle] = {}
        self.execs: dict[int, ExecConfigHandle] = {}
        self._made = 0

    def _new(self, base: int, table: dict, obj) -> int:
        self._made += 1
        handle = base + self._made * STEP
        table[handle] = obj
        return handle

    # ----- aclmdlConfigHandle ----------------------------------------------------------------
    def create(self) -> int:
        return self._new(CONFIG_BASE, self.configs, ConfigHandle())

    def config(self, handle: int, call: str) -> ConfigHandle:
        return handles.live(self.configs, handle, call, _(
            "{call}: handle {handle} is not a live aclmdlConfigHandle (destroyed, or never "
            "created). Create one with acl.mdl.create_config_handle()."), _(
            "{call}: handle is NULL. Create one with acl.mdl.create_config_handle()."))

    def destroy(self, handle: int) -> None:
        self.config(handle, "aclmdlDestroyConfigHandle")
        del self.configs[handle]

    def set_opt(self, handle: int, attr: int, value) -> None:
        """aclmdlSetConfigOpt: ``value`` as pyACL parsed it for ``attr``."""
        call = "aclmdlSetConfigOpt"
        h = self.config(handle, call)
        kind = ATTR_SIZES.get(attr)
        if kind is None:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: attr {attr} is not an aclmdlConfigAttr ACL takes through pyACL: use "
                "ACL_MDL_PRIORITY_INT32 (0) to ACL_MDL_WEIGHT_PATH_PTR (14).").format(
                    call=call, attr=attr))
        if attr in NOT_NULL and value in (0, None, ""):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the value of attr {attr} is NULL; it must point to something."
            ).format(call=call, attr=attr))
        bounds = {C.ACL_MDL_PRIORITY_INT32: PRIORITY_RANGE,
                  C.ACL_MDL_LOAD_TYPE_SIZET: (C.ACL_MDL_LOAD_FROM_FILE,
                                              C.ACL_MDL_LOAD_FROM_MEM_WITH_Q),
                  C.ACL_MDL_WORKSPACE_MEM_OPTIMIZE: (0, 1)}.get(attr)
        if bounds and not bounds[0] <= value <= bounds[1]:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the value {value} of attr {attr} must be in [{low}, {high}].").format(
                    call=call, value=value, attr=attr, low=bounds[0], high=bounds[1]))
        h.values[attr] = value

    def load(self, handle: int) -> int:
        """aclmdlLoadWithConfig: CheckMdlConfigHandle, then the load its type names."""
        call = "aclmdlLoadWithConfig"
        v = self.config(handle, call).values
        kind = v.get(C.ACL_MDL_LOAD_TYPE_SIZET)
        need = [C.ACL_MDL_LOAD_TYPE_SIZET] if kind is None else (
            [C.ACL_MDL_PATH_PTR] if kind in FROM_FILE
            else [C.ACL_MDL_MEM_ADDR_PTR, C.ACL_MDL_MEM_SIZET])
        if kind in WITH_Q:
            need += [C.ACL_MDL_INPUTQ_ADDR_PTR, C.ACL_MDL_INPUTQ_NUM_SIZET,
                     C.ACL_MDL_OUTPUTQ_ADDR_PTR, C.ACL_MDL_OUTPUTQ_NUM_SIZET]
        missing = [a for a in need if a not in v]
        if missing or (kind in FROM_FILE and C.ACL_MDL_WEIGHT_PATH_PTR in v):
            why = (_("{attrs} is not set for load type {kind}").format(
                attrs=", ".join(_ATTR_NAMES[a] for a in missing), kind=kind) if missing else
                   _("ACL_MDL_WEIGHT_PATH_PTR must not be set when loading from a file"))
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the config handle is incomplete: {why}. Set it with "
                "acl.mdl.set_config_opt.").format(call=call, why=why))
        if kind in WITH_Q:
            raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
                "{call}: load type {kind} feeds the model from data queues (acltdt), which "
                "the simulator does not have (pyACL binds no queue calls either). Load from a "
                "file or from memory.").format(call=call, kind=kind))
        models = self.rt.models
        memory = ((v.get(C.ACL_MDL_WORKSPACE_ADDR_PTR, 0), v.get(C.ACL_MDL_WORKSPACE_SIZET, 0)),
                  (v.get(C.ACL_MDL_WEIGHT_ADDR_PTR, 0), v.get(C.ACL_MDL_WEIGHT_SIZET, 0)))
        if kind in FROM_FILE:
            m = models.read_file(v[C.ACL_MDL_PATH_PTR], call)
        else:
            m = models.read_mem(v[C.ACL_MDL_MEM_ADDR_PTR], v[C.ACL_MDL_MEM_SIZET], call)
        if kind in (C.ACL_MDL_LOAD_FROM_FILE_WITH_MEM, C.ACL_MDL_LOAD_FROM_MEM_WITH_MEM):
            return models.load(m, call, *memory)
        return models.load(m, call)

    # ----- aclmdlExecConfigHandle ------------------------------------------------------------
    def create_exec(self) -> int:
        return self._new(EXEC_BASE, self.execs, ExecConfigHandle())

    def exec_config(self, handle: int, call: str) -> ExecConfigHandle:
        return handles.live(self.execs, handle, call, _(
            "{call}: handle {handle} is not a live aclmdlExecConfigHandle (destroyed, or never "
            "created). Create one with acl.mdl.create_exec_config_handle()."), _(
            "{call}: handle is NULL. Create one with acl.mdl.create_exec_config_handle()."))

    def destroy_exec(self, handle: int) -> None:
        self.exec_config(handle, "aclmdlDestroyExecConfigHandle")
        del self.execs[handle]

    def set_exec_opt(self, handle: int, attr: int, value: int) -> None:
        """aclmdlSetExecConfigOpt: ``value`` is the uint32 pyACL passes, read as the int32
        timeout GE takes (CheckMdlStreamSyncTimeout: -1 .. INT32_MAX)."""
        call = "aclmdlSetExecConfigOpt"
        h = self.exec_config(handle, call)
        if attr not in EXEC_ATTRS:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: attr {attr} is not one ACL takes; use ACL_MDL_STREAM_SYNC_TIMEOUT "
                "(0) or ACL_MDL_EVENT_SYNC_TIMEOUT (1).").format(call=call, attr=attr))
        timeout = value - (1 << 32) if value >= 1 << 31 else value
        if timeout < -1:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: a timeout of {value} ms is invalid; use -1 (wait for ever) or a "
                "number of milliseconds >= 0.").format(call=call, value=timeout))
        if attr == C.ACL_MDL_STREAM_SYNC_TIMEOUT:
            h.stream_sync_timeout = timeout
        else:
            h.event_sync_timeout = timeout

    def execute_v2(self, model_id: int, inputs: int, outputs: int, stream: int,
                   handle: int) -> None:
        """aclmdlExecuteV2: the execution (on ``stream`` if given), then a wait for the
        stream bounded by the handle's stream timeout."""
        call = "aclmdlExecuteV2"
        h = self.exec_config(handle, call)
        s = self.rt.stream(stream, call) if stream else None
        self.rt.models.execute(model_id, inputs, outputs, s)
        if s is not None:
            waits.synchronize_stream(self.rt, stream, h.stream_sync_timeout)


_ATTR_NAMES = {C.ACL_MDL_LOAD_TYPE_SIZET: "ACL_MDL_LOAD_TYPE_SIZET",
               C.ACL_MDL_PATH_PTR: "ACL_MDL_PATH_PTR",
               C.ACL_MDL_MEM_ADDR_PTR: "ACL_MDL_MEM_ADDR_PTR",
               C.ACL_MDL_MEM_SIZET: "ACL_MDL_MEM_SIZET",
               C.ACL_MDL_INPUTQ_ADDR_PTR: "ACL_MDL_INPUTQ_ADDR_PTR",
               C.ACL_MDL_INPUTQ_NUM_SIZET: "ACL_MDL_INPUTQ_NUM_SIZET",
               C.ACL_MDL_OUTPUTQ_ADDR_PTR: "ACL_MDL_OUTPUTQ_ADDR_PTR",
               C.ACL_MDL_OUTPUTQ_NUM_SIZET: "ACL_MDL_OUTPUTQ_NUM_SIZET"}


def of(rt) -> ModelConfigs:
    """The process's config handles (made by the first call that needs them)."""
    found = getattr(rt, "model_configs", None)
    if found is None:
        found = rt.model_configs = ModelConfigs(rt)
    return found

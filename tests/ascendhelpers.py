"""A stand-in for pyACL (the ``acl`` module of a real Ascend install) and fixtures that load
the ascend backend over it, so the guard and the native bindings are tested without an NPU."""
import sys
import types

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C

MiB = 1 << 20
HBM_TOTAL, DDR_TOTAL = 64 << 30, 16 << 30
U8 = np.dtype(np.uint8).num


class StandIn(types.ModuleType):
    """Shaped like pyACL: acl.init(), acl.rt.malloc(...) ... Records (name, args) of each
    call in ``calls``; never dereferences a pointer."""

    def __init__(self, run_mode=C.ACL_HOST, hbm=True, devices=1):
        super().__init__("acl")
        self.calls, self.run_mode, self.hbm, self.devices = [], run_mode, hbm, devices
        self.device_used = 0
        self._next = {"device": 0x1240_0000_0000, "host": 0x7F00_0000_0000, "handle": 0x100}
        self.rt = self._namespace("rt", [
            "set_device", "reset_device", "get_device", "get_device_count", "get_run_mode",
            "malloc", "malloc_align32", "malloc_cached", "malloc_host", "free", "free_host",
            "memset", "memset_async", "memcpy", "memcpy_async", "memcpy2d", "memcpy2d_async",
            "create_stream", "destroy_stream", "synchronize_stream", "create_event",
            "destroy_event", "record_event", "synchronize_event", "get_mem_info"])
        self.util = self._namespace("util", ["numpy_to_ptr", "bytes_to_ptr", "ptr_to_numpy",
                                             "ptr_to_bytes"])
        self.media = self._namespace("media", ["dvpp_malloc", "dvpp_free"])
        self.mdl = self._namespace("mdl", ["load_from_file"])
        for name in ("init", "finalize", "get_soc_name", "get_recent_err_msg"):
            setattr(self, name, self._recorder(name, getattr(self, f"_{name}")))

    def _namespace(self, ns, names):
        out = types.ModuleType(f"acl.{ns}")
        for name in names:
            impl = getattr(self, f"_{name}", lambda *a: 0)
            setattr(out, name, self._recorder(f"{ns}.{name}", impl))
        return out

    def _recorder(self, name, impl):
        def call(*args):   # arrays are not kept, so a learner's array can die as it would
            self.calls.append((name, tuple("<array>" if isinstance(a, np.ndarray) else a
                                           for a in args)))
            return impl(*args)
        return call

    def names(self, part=""):
        """Names of the calls that reached the stand-in (those containing ``part``)."""
        return [n for n, _ in self.calls if part in n]

    def _take(self, where, size, align=64):
        ptr = self._next[where]
        self._next[where] += -(-(size + 32) // align) * align + 4096
        return ptr

    # --- answers ---
    def _init(self, *a): return 0
    def _finalize(self): return 0
    def _get_soc_name(self): return "Ascend910B3"
    def _get_recent_err_msg(self): return "runtime's own message"
    def _get_device(self): return (0, 0)
    def _get_device_count(self): return (self.devices, 0)
    def _get_run_mode(self): return (self.run_mode, 0)
    def _free(self, ptr): return C.ACL_ERROR_INVALID_PARAM if ptr == 0 else 0

    def _malloc(self, size, policy=0):
        self.device_used += size
        return (self._take("device", size), 0)

    _malloc_align32 = _malloc_cached = _malloc
    _dvpp_malloc = _malloc

    def _malloc_host(self, size):
        return (self._take("host", size), 0)

    def _create_stream(self):
        self._next["handle"] += 0x40
        return (self._next["handle"], 0)

    _create_event = _create_stream

    def _get_mem_info(self, attr):
        figures = {C.ACL_DDR_MEM: (DDR_TOTAL, DDR_TOTAL), C.ACL_DDR_MEM_HUGE: (8 << 30, 8 << 30),
                   C.ACL_DDR_MEM_NORMAL: (8 << 30, 8 << 30),
                   C.ACL_HBM_MEM: (HBM_TOTAL - self.device_used, HBM_TOTAL),
                   C.ACL_HBM_MEM_HUGE: (48 << 30, 48 << 30),
                   C.ACL_HBM_MEM_NORMAL: ((16 << 30) - self.device_used, 16 << 30)}
        if not self.hbm:
            figures.update({a: figures[C.ACL_DDR_MEM] for a in (C.ACL_HBM_MEM,)})
        free, total = figures.get(attr, (0, 0))
        return (free, total, 0)

    numpy_address = None      # set to make numpy_to_ptr answer an address of your choice

    def _numpy_to_ptr(self, array):
        return self.numpy_address or array.__array_interface__["data"][0]

    def _bytes_to_ptr(self, data):
        return self._take("host", len(data))

    def _ptr_to_numpy(self, ptr, shape, npy_type):
        return np.zeros(shape, np.dtype(np.uint8))

    def _ptr_to_bytes(self, ptr, size):
        return bytes(size)

    def _load_from_file(self, path):
        return (7, 0)


@pytest.fixture
def stand_in():
    """The pyACL stand-in class to install; a test module that needs more calls overrides
    this fixture with a subclass and imports ``real`` and ``acl`` from here."""
    return StandIn


@pytest.fixture
def real(monkeypatch, stand_in):
    """The stand-in installed as ``acl``; afterwards the simulator is active again."""
    monkeypatch.delenv("ACL_LAB_GUARD", raising=False)
    fake = stand_in()
    monkeypatch.setitem(sys.modules, "acl", fake)
    yield fake
    acl_lab.load(backend="sim")


@pytest.fixture
def acl(real):
    acl = acl_lab.load(backend="ascend")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    real.calls.clear()
    return acl


def refused(real, acl, ret, code, *words):
    """``ret`` is the guard's refusal ``code``, its message names ``words``, and the call
    never reached the runtime."""
    assert ret == code
    msg = acl.get_recent_err_msg()
    assert "guard stopped this call" in msg
    for w in words:
        assert w in msg
    return msg


# ----- the pyACL shape ------------------------------------------------------------------

"""What the model remembers of a process: its records (blocks, contexts, streams, events,
work, models, captures, pools), the codes pyACL gives arguments it cannot parse, and the
tables of ACL facts the rules look up (copy directions, get_mem_info attributes, which free
matches which allocator)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.pool import MemoryPool

WINDOW = 4096                  # bytes of each block the shadow copy tracks (from its start)
OK = C.ACL_SUCCESS

H2H, H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)
DIRECTION = {("host", "host"): H2H, ("host", "device"): H2D,
             ("device", "host"): D2H, ("device", "device"): D2D}
GLOBAL, THREAD_LOCAL, RELAXED = (C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                 C.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
ACTIVE, INVALIDATED = (C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
                       C.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED)

# aclrtGetMemInfo attribute -> (memory kind or None for any, page or None for huge+normal, p2p)
MEM_ATTRS = {
    C.ACL_DDR_MEM: ("DDR", None, False), C.ACL_HBM_MEM: ("HBM", None, False),
    C.ACL_DDR_MEM_HUGE: ("DDR", "huge", False), C.ACL_DDR_MEM_NORMAL: ("DDR", "normal", False),
    C.ACL_HBM_MEM_HUGE: ("HBM", "huge", False), C.ACL_HBM_MEM_NORMAL: ("HBM", "normal", False),
    C.ACL_DDR_MEM_P2P_HUGE: ("DDR", "huge", True),
    C.ACL_DDR_MEM_P2P_NORMAL: ("DDR", "normal", True),
    C.ACL_HBM_MEM_P2P_HUGE: ("HBM", "huge", True),
    C.ACL_HBM_MEM_P2P_NORMAL: ("HBM", "normal", True),
    C.ACL_HBM_MEM_HUGE1G: ("HBM", "huge1g", False),
    C.ACL_HBM_MEM_P2P_HUGE1G: ("HBM", "huge1g", True),
    C.ACL_MEM_NORMAL: (None, "normal", False), C.ACL_MEM_HUGE: (None, "huge", False),
    C.ACL_MEM_HUGE1G: (None, "huge1g", False), C.ACL_MEM_P2P_NORMAL: (None, "normal", True),
    C.ACL_MEM_P2P_HUGE: (None, "huge", True), C.ACL_MEM_P2P_HUGE1G: (None, "huge1g", True),
}
PAGEABLE = ("numpy", "bytes")   # Python's memory registered through acl.util
FREE_CALL = {"malloc": "free", "malloc_align32": "free", "malloc_cached": "free",
             "dvpp_malloc": "dvpp_free", "malloc_host": "free_host"}


class Fail(Exception):
    """The model's verdict that a call must fail, with the codes it may return. ``on_fail``
    is for the few failures that do change state (a capture that breaks): it records the
    change in the model and returns the snapshot expected after the call."""

    def __init__(self, *codes: int, on_fail=None):
        super().__init__(codes)
        self.codes, self.on_fail = set(codes), on_fail


# ----- how pyACL parses integer arguments --------------------------------------------------
def check_int(v: int) -> int:
    """pyACL's int conversion: an int that does not fit 64 bits is ACL_ERROR_INVALID_PARAM."""
    if not -(1 << 63) <= v < (1 << 64):
        raise Fail(C.ACL_ERROR_INVALID_PARAM)
    return v


def check_size(v: int) -> int:
    """Sizes, pointers and handles are unsigned: a negative one is ACL_ERROR_INVALID_PARAM."""
    if check_int(v) < 0:
        raise Fail(C.ACL_ERROR_INVALID_PARAM)
    return v


def _check_range(low: int, high: int):
    def check(v: int) -> int:
        """pyACL parses some arguments as 32-bit C ints: outside, ACL_ERROR_INVALID_PARAM."""
        if not low <= check_int(v) < high:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        return v
    return check


check_i32 = _check_range(-(1 << 31), 1 << 31)
check_u32 = _check_range(0, 1 << 32)


# ----- the records ---------------------------------------------------------------------------
@dataclass(eq=False)
class Block:
    """A live allocation or registration, with the shadow copy of its first WINDOW bytes."""
    ptr: int
    size: int
    api: str
    location: str                 # "device" or "host"
    device: int | None
    footprint: int
    pool: str | None              # pool label; None for pageable registrations
    array: np.ndarray | None = None
    occupied: int = 0             # bytes of its pool it holds (whole pages on huge pages)
    internal: bool = False        # the machine's own read-back buffer
    read_only: bool = False       # a registered array numpy will not let anyone write
    data: np.ndarray = field(init=False)
    known: np.ndarray = field(init=False)

    def __post_init__(self):
        n = min(self.size, WINDOW)
        self.data = np.zeros(n, np.uint8)
        self.known = np.zeros(n, bool)
        if self.array is not None:
            self.data[:] = self.array.reshape(-1).view(np.uint8)[:n]
            self.known[:] = True

    @property
    def end(self) -> int:
        return self.ptr + self.size


@dataclass(eq=False)
class Ctx:
    handle: int
    device: int
    default: bool
    streams: set = field(default_factory=set)
    events: set = field(default_factory=set)


@dataclass(eq=False)
class Strm:
    handle: int                   # 0 for a context's default stream
    ctx: int
    device: int
    capture: Cap | None = None
    stop: bool = False            # ACL_STOP_ON_FAILURE, set on it or a stream of its context
    stop_set: bool = False        # ACL_STOP_ON_FAILURE set on it (StreamSetMode compares)

    @property
    def key(self):
        return self.handle if self.handle else ("default", self.ctx)


@dataclass(eq=False)
class Evt:
    handle: int
    ctx: int
    rec: tuple | None = None      # (stream key, seq) of the last record
    clock_done: bool = False      # the host's modeled clock has certainly passed the record
    flags: int | None = None      # aclrtCreateEventWithFlag's flag (None: aclrtCreateEvent)
    ex: bool = False              # made by aclrtCreateEventExWithFlag: a capture can take it
    capture: Cap | None = None    # the capture that recorded it (while that capture lasts)
    ever: bool = False            # recorded on a stream at least once (Event::HasRecord)

    def captured(self) -> Cap | None:
        cap = self.capture
        return cap if cap is not None and cap.stream.capture is cap else None


@dataclass(eq=False)
class Op:
    """Work whose effect the shadow applied at issue; while pending, a race can spoil it."""
    key: object
    seq: int
    reads: list                   # (Block, lo, hi)
    writes: list
    wait: tuple | None = None     # (stream key, seq) this wait task waits for
    graph: int | None = None      # model RI replayed by this task


@dataclass(eq=False)
class Graph:
    handle: int
    device: int
    stream: int
    templates: list = field(default_factory=list)   # recorded memset/memcpy effects
    ready: bool = False
    executions: int = 0


@dataclass(eq=False)
class PoolModel:
    """A MemoryPool under test: its backing block and the segments it handed out."""
    pool: MemoryPool
    api: str                      # allocator of the backing block
    block: Block
    align: int
    segments: dict = field(default_factory=dict)     # start -> (length, m)
    freed: list = field(default_factory=list)
    closed: bool = False

    @property
    def base(self) -> int:
        return self.block.ptr

    @property
    def capacity(self) -> int:
        return self.block.size


@dataclass(eq=False)
class Cap:
    stream: Strm
    mode: int
    graph: Graph
    status: int = ACTIVE
    joined: list = field(default_factory=list)   # streams that joined through an event
    log: list = field(default_factory=list)      # (stream handle, kind, event) in model order

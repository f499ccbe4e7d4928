"""The aclnn rules the simulator (sim/aclnn.py) and the real-hardware guard
(backends/ascend/guard_ops.py) both apply: what an aclTensor may be, which bytes it reaches,
and that an executor runs once. Sources: the aclCreateTensor page of the aclnn API reference
("do not support negative values"), the aclnnAdd / aclnnMul / aclnnInplaceCopy pages
("shape维度不大于8"; the executor of phase one serves one launch of phase two)."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.spec.refusal import Refusal
from acl_lab.i18n import _

MAX_DIMS = 8     # "shape维度不大于8"


def check_tensor(call: str, shape: tuple, strides: tuple, offset: int, storage: tuple) -> None:
    """aclCreateTensor's dims, strides, offset and storage dims: one stride per dimension,
    nothing negative (a view walking backwards would leave its buffer)."""
    if len(strides) != len(shape) or min(shape + strides + storage, default=0) < 0 \
            or offset < 0:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                      _("{call}: shape {shape} needs one stride per dimension (got {strides}); "
                        "dimensions, strides and offset must not be negative (a reversed view "
                        "is not an aclTensor).").format(call=call, shape=list(shape),
                                                         strides=list(strides)))


def last_element(shape: tuple, strides: tuple, offset: int) -> int:
    """The index (in elements from the storage's start) of the last element a view reaches."""
    return offset + sum((n - 1) * s for n, s in zip(shape, strides))


def span(shape: tuple, strides: tuple, offset: int, itemsize: int) -> int:
    """The bytes from the tensor's address that its view reaches (0 for an empty view)."""
    if any(n == 0 for n in shape):
        return 0
    return (last_element(shape, strides, offset) + 1) * itemsize


def check_executor(call: str, executor: int, live: bool) -> None:
    """Phase two needs a live executor of its own phase one: an executor runs once."""
    if not live:
        raise Refusal(C.ACLNN_ERR_PARAM_NULLPTR,
                      _("{call}: executor {executor} is not a live executor of {phase1}. "
                        "An executor runs once: call {phase1} again for every launch (or "
                        "capture the launch and replay the model).").format(
                          call=call, executor=f"0x{executor:x}",
                          phase1=f"{call}GetWorkspaceSize"))

"""`acl-lab atc --singleop=op.json --output=DIR`: one .om per operator of the description.

ATC checks each operator before writing anything: its type must be one the simulated AI
Core runs, and its outputs as many elements as the operator computes from its inputs (checked by
running it on zeros, for descriptions small enough to do so cheaply).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from acl_lab.spec.dtypes import NUMPY
from acl_lab.i18n import _
from acl_lab.om.op_kernels import KERNELS
from acl_lab.om.op_model import DescriptionError, OpModel, parse_description

CHECK_ELEMENTS = 1 << 20     # larger operators are written unchecked


def _check(model: OpModel) -> None:
    kernel = KERNELS.get(model.op)
    if kernel is None:
        raise DescriptionError(_("operator {op} is not one the simulator runs (it runs {ops})")
                               .format(op=model.op, ops=", ".join(sorted(KERNELS))))
    if sum(math.prod(t.dims) for t in model.inputs + model.outputs) > CHECK_ELEMENTS:
        return
    inputs = [np.frombuffer(t.const, NUMPY[t.dtype]).reshape(t.dims) if t.const is not None
              else np.zeros(t.dims, NUMPY[t.dtype]) for t in model.inputs]
    try:
        with np.errstate(all="ignore"):
            results = kernel(inputs, {n: v for n, _k, v in model.attrs},
                             [NUMPY[t.dtype] for t in model.outputs])
    except (ValueError, IndexError, TypeError) as e:
        raise DescriptionError(_("{op}: the inputs described do not fit the operator ({reason})")
                               .format(op=model.op, reason=e)) from None
    data_dependent = model.op in ("Slice",) and any(t.const is None for t in model.inputs[1:])
    for i, (t, value) in enumerate(zip(model.outputs, results)):
        if np.size(value) != math.prod(t.dims) and not data_dependent:   # [] and [1] agree
            raise DescriptionError(_("{op}: output_desc[{i}] shape {shape} does not hold what "
                                     "the operator computes from its inputs, {computed}").format(
                                         op=model.op, i=i, shape=list(t.dims),
                                         computed=list(np.shape(value))))


def compile_description(description: str, output: Path) -> list[Path]:
    """Write one .om per operator of the description text into the folder ``output``
    (DescriptionError: the description; OSError: the folder)."""
    models = parse_description(description)
    for m in models:
        _check(m)
    output.mkdir(parents=True, exist_ok=True)
    written = []
    for i, m in enumerate(models):
        path = output / f"{m.file_name(i)}.om"
        path.write_bytes(m.to_bytes())
        written.append(path)
    return written

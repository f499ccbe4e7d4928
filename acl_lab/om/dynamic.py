"""Dynamic batch and dynamic image size ("gears"), as ATC builds them and ACL runs them.

`atc --input_shape="data:-1,3,224,224" --dynamic_batch_size="1,2,4"` builds one model for a
few fixed batch sizes (``--dynamic_image_size="224,224;448,448"`` likewise for H and W, the
-1s of an NCHW/NHWC input). As the real ATC does, the model then has one input more, named
``ascend_mbatch_shape_data`` (ACL_DYNAMIC_TENSOR_NAME): the application finds its index with
aclmdlGetInputIndexByName, gives it a buffer, and picks a gear per execution with
aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize, which write the gear into that buffer
(hicann/ge runtime/v1/executor/ge_executor.cc GeExecutor::SetDynamicBatchSize /
SetDynamicImageSize). Buffers are sized for the largest gear; aclmdlGetInputDims reports -1
where the gear decides; aclmdlGetCurOutputDims the outputs of the gear last set.

The .om header keeps it as ``"dynamic": {"kind": "batch"|"hw", "axes": {input: [axis...]},
"gears": [[b]...] or [[h, w]...], "outputs": [per gear: [dims of each output]]}``.
"""
from __future__ import annotations

from dataclasses import dataclass

from acl_lab import constants as C
from acl_lab.i18n import _

TENSOR_NAME = "ascend_mbatch_shape_data"      # ACL_DYNAMIC_TENSOR_NAME (acl_mdl.h)
MAX_GEARS = 100                               # ATC: 2..100 gears
MAX_BATCH = 2048
MAX_HW = 4096
KINDS = {"batch": 1, "hw": 2}                 # values per gear


@dataclass(frozen=True)
class Gears:
    kind: str                  # "batch" or "hw"
    axes: dict                 # input name -> the axes the gear sets (batch: [0]; hw: [h, w])
    gears: tuple               # tuples of 1 (batch) or 2 (h, w) values, in flag order
    outputs: tuple             # per gear: a tuple of output dims tuples

    def largest(self) -> int:
        """Index of the gear with the most elements: buffers are sized for it."""
        sizes = [_product(g) for g in self.gears]
        return sizes.index(max(sizes))

    def dims(self, name: str, template: tuple, gear: tuple) -> tuple:
        """Dims of input ``name`` (its largest-gear dims ``template``) at ``gear``."""
        out = list(template)
        for axis, value in zip(self.axes.get(name, ()), gear):
            out[axis] = value
        return tuple(out)

    def reported(self, name: str, dims: tuple) -> tuple:
        """What aclmdlGetInputDims reports: -1 where the gear decides."""
        return tuple(-1 if i in self.axes.get(name, ()) else d for i, d in enumerate(dims))

    def as_json(self) -> dict:
        return {"kind": self.kind, "axes": {k: list(v) for k, v in self.axes.items()},
                "gears": [list(g) for g in self.gears],
                "outputs": [[list(d) for d in per] for per in self.outputs]}


def _product(values) -> int:
    n = 1
    for v in values:
        n *= v
    return n


def mbatch_desc(kind: str):
    """The extra input's description: one int64 per gear value."""
    from acl_lab.om.container import TensorDesc
    return TensorDesc(TENSOR_NAME, (KINDS[kind],), C.ACL_INT64, C.ACL_FORMAT_ND, C.ACL_INT64)


def from_header(value, inputs: tuple, outputs: tuple) -> Gears:
    """The header's "dynamic" entry, checked; ValueError says which part is wrong."""
    if not isinstance(value, dict) or value.get("kind") not in KINDS:
        raise ValueError("dynamic.kind")
    kind, n = value["kind"], KINDS[value["kind"]]
    names = {t.name: len(t.dims) for t in inputs}
    axes = value.get("axes")
    if (not isinstance(axes, dict) or not axes
            or any(k not in names or not isinstance(v, list) or len(v) != n
                   or any(a.__class__ is not int or not 0 <= a < names[k] for a in v)
                   for k, v in axes.items())):
        raise ValueError("dynamic.axes")
    gears = value.get("gears")
    high = MAX_BATCH if kind == "batch" else MAX_HW
    if (not isinstance(gears, list) or not 2 <= len(gears) <= MAX_GEARS
            or any(not isinstance(g, list) or len(g) != n
                   or any(v.__class__ is not int or not 1 <= v <= high for v in g)
                   for g in gears) or len({tuple(g) for g in gears}) != len(gears)):
        raise ValueError("dynamic.gears")
    outs = value.get("outputs")
    if (not isinstance(outs, list) or len(outs) != len(gears)
            or any(not isinstance(per, list) or len(per) != len(outputs)
                   or any(not isinstance(d, list) or len(d) != len(t.dims)
                          or any(v.__class__ is not int or not 0 <= v < 1 << 31 for v in d)
                          for d, t in zip(per, outputs)) for per in outs)):
        raise ValueError("dynamic.outputs")
    return Gears(kind, {k: tuple(v) for k, v in axes.items()}, tuple(map(tuple, gears)),
                 tuple(tuple(tuple(d) for d in per) for per in outs))


def parse_flag(kind: str, text: str) -> tuple:
    """--dynamic_batch_size="1,2,4" -> ((1,), (2,), (4,)); --dynamic_image_size="224,224;
    448,448" -> ((224, 224), (448, 448)). ValueError with ATC's reason."""
    n, high = KINDS[kind], (MAX_BATCH if kind == "batch" else MAX_HW)
    parts = text.split(",") if kind == "batch" else text.split(";")
    try:
        gears = [tuple(int(v) for v in p.split(",")) for p in parts if p.strip()]
    except ValueError:
        raise ValueError(_("the values must be integers")) from None
    if any(len(g) != n for g in gears):
        raise ValueError(_('each gear is "height,width", gears separated by ";"'))
    if not 2 <= len(gears) <= MAX_GEARS:
        raise ValueError(_("give between 2 and {most} gears").format(most=MAX_GEARS))
    if any(not 1 <= v <= high for g in gears for v in g):
        raise ValueError(_("each value must be between 1 and {high}").format(high=high))
    if len(set(gears)) != len(gears):
        raise ValueError(_("a gear is given twice"))
    return tuple(gears)

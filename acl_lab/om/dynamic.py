"""Dynamic shapes in an offline model, as ATC builds them and ACL runs them: gears (dynamic
batch, image size, dims) and shape ranges.

**Gears.** `atc --input_shape="data:-1,3,224,224" --dynamic_batch_size="1,2,4"` builds one
model for a few fixed batch sizes; ``--dynamic_image_size="224,224;448,448"`` likewise for H
and W (the -1s of an NCHW/NHWC input); ``--dynamic_dims="20,20,1,1;40,40,2,2"`` for any -1s
of any inputs, each gear giving the values of every -1 in the order --input_shape lists them
(ATC: hicann/ge compiler/api/aclgrph/option_utils.cc CheckDynamicInputParamValid,
CheckAndParseDynamicDims; the ATC reference's --dynamic_dims page). As the real ATC does, the
model then has one input more, named ``ascend_mbatch_shape_data`` (ACL_DYNAMIC_TENSOR_NAME):
the application finds its index with aclmdlGetInputIndexByName, gives it a buffer, and picks
a gear per execution with aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize /
aclmdlSetInputDynamicDims, which write the gear into that buffer (hicann/ge runtime/v1/
executor/ge_executor.cc SetDynamicBatchSize / SetDynamicImageSize / SetDynamicDims). Each
input's buffer is sized for its largest shape among the gears; aclmdlGetInputDims reports -1
where the gear decides; aclmdlGetCurOutputDims the outputs of the gear last set.

**Shape ranges.** ``--input_shape_range="x:[1~8,3,-1]"`` builds a model whose inputs take
any shape within the ranges (GE's dynamic-shape models: sizes 0 where a dim is open,
hicann/ge runtime/v1/hybrid/model/hybrid_model.cc GetInputDescInfo); the application gives
each execution's shape with aclmdlSetDatasetTensorDesc.

The .om header keeps them as ``"dynamic": {"kind": "batch"|"hw"|"dims", "axes": {input:
[axis...]}, "order": [input...], "gears": [[value...]...], "outputs": [per gear: [dims of each
output]]}`` and ``"ranges": {input: [[low, high]...]}`` (high -1: no bound).
"""
from __future__ import annotations

from dataclasses import dataclass

from acl_lab import constants as C
from acl_lab.i18n import _

TENSOR_NAME = "ascend_mbatch_shape_data"      # ACL_DYNAMIC_TENSOR_NAME (acl_mdl.h)
MAX_GEARS = 100                               # ATC: 2..100 gears
MAX_BATCH = 2048
MAX_HW = 4096
MAX_DIM = (1 << 31) - 1                       # a dim the .om header holds
KINDS = {"batch": 1, "hw": 2, "dims": None}   # values per gear (dims: one per -1)
HIGHEST = {"batch": MAX_BATCH, "hw": MAX_HW, "dims": MAX_DIM}


@dataclass(frozen=True)
class Gears:
    kind: str                  # "batch", "hw" or "dims"
    axes: dict                 # input name -> the axes the gear sets (batch: [0]; hw: [h, w])
    gears: tuple               # tuples of values, in flag order
    outputs: tuple             # per gear: a tuple of output dims tuples
    order: tuple = ()          # inputs as --input_shape lists them (GE's user designate order)

    def values(self, name: str, gear: tuple) -> tuple:
        """The values of ``gear`` for input ``name``'s axes: the whole gear (batch, hw; every
        such input takes it), or for dims the slice of that input's -1s in --input_shape
        order."""
        if self.kind != "dims":
            return gear
        start = 0
        for n in self.order:
            count = len(self.axes.get(n, ()))
            if n == name:
                return gear[start:start + count]
            start += count
        return ()

    def dims(self, name: str, template: tuple, gear: tuple) -> tuple:
        """Dims of input ``name`` (any dims ``template`` of it) at ``gear``."""
        out = list(template)
        for axis, value in zip(self.axes.get(name, ()), self.values(name, gear)):
            out[axis] = value
        return tuple(out)

    def widest(self, name: str, template: tuple) -> tuple:
        """Dims of input ``name`` at the gear that makes it largest (the first such gear):
        what its buffer is sized for."""
        return max((self.dims(name, template, g) for g in self.gears), key=_product)

    def reported(self, name: str, dims: tuple) -> tuple:
        """What aclmdlGetInputDims reports: -1 where the gear decides."""
        return tuple(-1 if i in self.axes.get(name, ()) else d for i, d in enumerate(dims))

    def as_json(self) -> dict:
        return {"kind": self.kind, "axes": {k: list(v) for k, v in self.axes.items()},
                "order": list(self.order), "gears": [list(g) for g in self.gears],
                "outputs": [[list(d) for d in per] for per in self.outputs]}


def _product(values) -> int:
    n = 1
    for v in values:
        n *= v
    return n


def mbatch_desc(count: int):
    """The extra input's description: one int64 per value of a gear."""
    from acl_lab.om.container import TensorDesc
    return TensorDesc(TENSOR_NAME, (count,), C.ACL_INT64, C.ACL_FORMAT_ND, C.ACL_INT64)


def from_header(value, inputs: tuple, outputs: tuple) -> Gears:
    """The header's "dynamic" entry, checked; ValueError says which part is wrong."""
    if not isinstance(value, dict) or value.get("kind") not in KINDS:
        raise ValueError("dynamic.kind")
    kind, n = value["kind"], KINDS[value["kind"]]
    names = {t.name: len(t.dims) for t in inputs}
    axes = value.get("axes")
    if (not isinstance(axes, dict) or not axes
            or any(k not in names or not isinstance(v, list) or not v
                   or (n is not None and len(v) != n) or len(set(map(repr, v))) != len(v)
                   or any(a.__class__ is not int or not 0 <= a < names[k] for a in v)
                   for k, v in axes.items())):
        raise ValueError("dynamic.axes")
    order = value.get("order", [t.name for t in inputs if t.name in axes])
    if (not isinstance(order, list) or any(k not in names for k in order)
            or len(set(order)) != len(order) or not set(axes) <= set(order)):
        raise ValueError("dynamic.order")
    width = n if n is not None else sum(len(axes.get(k, ())) for k in order)
    gears = value.get("gears")
    if (not isinstance(gears, list) or not 2 <= len(gears) <= MAX_GEARS
            or any(not isinstance(g, list) or len(g) != width
                   or any(v.__class__ is not int or not 1 <= v <= HIGHEST[kind] for v in g)
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
                 tuple(tuple(tuple(d) for d in per) for per in outs), tuple(order))


def parse_flag(kind: str, text: str, count: int = 0) -> tuple:
    """--dynamic_batch_size="1,2,4" -> ((1,), (2,), (4,)); --dynamic_image_size="224,224;
    448,448" -> ((224, 224), (448, 448)); --dynamic_dims="20,1;40,2" (``count`` values per
    gear: the -1s of --input_shape) -> ((20, 1), (40, 2)). ValueError with ATC's reason."""
    n, high = KINDS[kind] or count, HIGHEST[kind]
    parts = text.split(",") if kind == "batch" else text.rstrip(";").split(";")
    if kind == "dims" and any(not v.strip().isdigit() for p in parts for v in p.split(",")):
        raise ValueError(_("Dynamic dims must be a positive integer."))
    try:
        gears = [tuple(int(v) for v in p.split(",")) for p in parts if p.strip()]
    except ValueError:
        raise ValueError(_("the values must be integers")) from None
    if any(len(g) != n for g in gears):
        raise ValueError(_("Each setting needs to be consistent with the number of -1 in the "
                           "input shape.") if kind == "dims" else
                         _('each gear is "height,width", gears separated by ";"'))
    if not 2 <= len(gears) <= MAX_GEARS:
        raise ValueError(_("give between 2 and {most} gears").format(most=MAX_GEARS))
    if any(not 1 <= v <= high for g in gears for v in g):
        raise ValueError(_("each value must be between 1 and {high}").format(high=high))
    if len(set(gears)) != len(gears):
        raise ValueError(_("a gear is given twice"))
    return tuple(gears)


# ----- shape ranges (--input_shape_range) ------------------------------------------------
@dataclass(frozen=True)
class ShapeRanges:
    inputs: dict               # input name -> ((low, high) per dim); high -1: no bound
    outputs: dict              # output name -> the axes whose size depends on the inputs

    def probe(self, name: str) -> tuple:
        """A shape within input ``name``'s ranges: the graph is checked, and the description
        filled, at it (each open dim at its low bound, at least 1)."""
        return tuple(lo if lo == hi else max(lo, 1) for lo, hi in self.inputs[name])

    def reported(self, name: str, dims: tuple, outputs: bool = False) -> tuple:
        """aclmdlGetInputDims / aclmdlGetOutputDims: -1 where the dim is not fixed."""
        if outputs:
            return tuple(-1 if k in self.outputs.get(name, ()) else d
                         for k, d in enumerate(dims))
        r = self.inputs.get(name)
        return dims if r is None else tuple(-1 if lo != hi else d for (lo, hi), d in zip(r, dims))

    def admits(self, name: str, dims: tuple) -> bool:
        """Whether ``dims`` lie within input ``name``'s ranges."""
        r = self.inputs.get(name)
        return r is not None and len(r) == len(dims) and all(
            lo <= d and (hi == -1 or d <= hi) for (lo, hi), d in zip(r, dims))

    def as_json(self) -> dict:
        return {"inputs": {k: [list(p) for p in v] for k, v in self.inputs.items()},
                "outputs": {k: list(v) for k, v in self.outputs.items()}}


def parse_ranges(text: str) -> dict:
    """--input_shape_range="x:[1~8,3,-1];y:[2]" -> {"x": ((1, 8), (3, 3), (0, -1)), ...}, as
    option_utils.cc ParseInputShapeRange / ParseShapeRangePair read it (a lone -1: any size;
    "a~b": a to b). ValueError with ATC's reason."""
    out = {}
    for item in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = item.rpartition(":")
        if not sep or not name.strip():
            raise ValueError(_("The shape must contain two parts: name and value"))
        if value.count("[") != 1 or value.count("]") != 1 or not (
                value.strip().startswith("[") and value.strip().endswith("]")):
            raise ValueError(_("The value can only contains a pair of '[]'"))
        pairs = []
        for part in value.strip()[1:-1].split(","):
            bounds = part.strip().split("~")
            try:
                numbers = [int(b) for b in bounds]
            except ValueError:
                raise ValueError(_("The current string cannot be converted to a number")) \
                    from None
            if len(numbers) == 1 and numbers[0] < 0:
                pairs.append((0, -1))
            elif len(numbers) == 1:
                pairs.append((numbers[0], numbers[0]))
            elif len(numbers) == 2 and 0 <= numbers[0] <= numbers[1]:
                pairs.append(tuple(numbers))
            else:
                raise ValueError(_("The format of the shape range is invalid"))
            if max(pairs[-1]) > MAX_DIM:
                raise ValueError(_("The format of the shape range is invalid"))
        out[name.strip()] = tuple(pairs)
    if not out:
        raise ValueError(_("The format of the shape range is invalid"))
    return out


def ranges_from_header(value, inputs: tuple, outputs: tuple) -> ShapeRanges:
    """The header's "ranges" entry, checked against the inputs and outputs; ValueError names
    the part that is wrong."""
    ins = value.get("inputs") if isinstance(value, dict) else None
    outs = value.get("outputs") if isinstance(value, dict) else None
    dims = {t.name: t.dims for t in inputs}
    if (not isinstance(ins, dict) or not ins
            or any(k not in dims or not isinstance(v, list) or len(v) != len(dims[k])
                   or any(not isinstance(p, list) or len(p) != 2
                          or any(x.__class__ is not int for x in p)
                          or not 0 <= p[0] <= MAX_DIM or not -1 <= p[1] <= MAX_DIM
                          or (p[1] != -1 and p[1] < p[0]) for p in v)
                   for k, v in ins.items())):
        raise ValueError("ranges.inputs")
    ranks = {t.name: len(t.dims) for t in outputs}
    if (not isinstance(outs, dict) or set(value) != {"inputs", "outputs"}
            or any(k not in ranks or not isinstance(v, list) or len(set(map(repr, v))) != len(v)
                   or any(a.__class__ is not int or not 0 <= a < ranks[k] for a in v)
                   for k, v in outs.items())):
        raise ValueError("ranges.outputs")
    return ShapeRanges({k: tuple(tuple(p) for p in v) for k, v in ins.items()},
                       {k: tuple(v) for k, v in outs.items()})

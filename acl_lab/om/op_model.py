"""ATC's single-op description (op.json) and acl_lab's single-op model file (.om).

The description is a JSON list of operators, each ``{"op": "Add", "input_desc": [...],
"output_desc": [...], "attr": [...]}``; a tensor is ``{"format": "ND", "shape": [8, 16],
"type": "int32"}`` (optionally ``"is_const": true, "const_value": [...]``), an attribute
``{"name": "truncate", "type": "bool", "value": false}``. The .om file is

    magic b"ACLLABSO" | JSON of one operator (type names already turned into ACL enums)
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from acl_lab import constants as C
from acl_lab.spec.dtypes import NUMPY
from acl_lab.i18n import _

MAGIC = b"ACLLABSO"
#: ATC's tensor type names -> aclDataType
TYPES = {"float": C.ACL_FLOAT, "float32": C.ACL_FLOAT, "float16": C.ACL_FLOAT16,
         "int8": C.ACL_INT8, "int16": C.ACL_INT16, "int32": C.ACL_INT32, "int64": C.ACL_INT64,
         "uint8": C.ACL_UINT8, "uint16": C.ACL_UINT16, "uint32": C.ACL_UINT32,
         "uint64": C.ACL_UINT64, "double": C.ACL_DOUBLE, "bool": C.ACL_BOOL}
FORMATS = {"ND": C.ACL_FORMAT_ND, "NCHW": C.ACL_FORMAT_NCHW, "NHWC": C.ACL_FORMAT_NHWC,
           "NC1HWC0": C.ACL_FORMAT_NC1HWC0, "FRACTAL_NZ": C.ACL_FORMAT_FRACTAL_NZ,
           "FRACTAL_Z": C.ACL_FORMAT_FRACTAL_Z}
ATTR_TYPES = ("bool", "int", "float", "string", "list_bool", "list_int", "list_float",
              "list_string")


class DescriptionError(ValueError):
    """An op.json ATC would refuse; the message says which operator and field."""


@dataclass(frozen=True)
class TensorSpec:
    dtype: int
    fmt: int
    dims: tuple
    const: bytes | None = None      # the constant input's bytes (is_const)

    def name(self) -> str:
        """ATC's file-name part for a tensor: <type>_<format>_<dims...>."""
        return "_".join(str(v) for v in (self.dtype, self.fmt, *self.dims))

    def as_json(self) -> dict:
        return {"dtype": self.dtype, "format": self.fmt, "dims": list(self.dims),
                "const": None if self.const is None else self.const.hex()}


@dataclass(frozen=True)
class OpModel:
    op: str
    inputs: tuple
    outputs: tuple
    attrs: tuple          # ((name, kind, value), ...) sorted; values as canonical_attr makes

    def file_name(self, index: int) -> str:
        return f"{index}_{self.op}_" + "_".join(t.name() for t in self.inputs + self.outputs)

    def to_bytes(self) -> bytes:
        return MAGIC + json.dumps({"op": self.op,
                                   "inputs": [t.as_json() for t in self.inputs],
                                   "outputs": [t.as_json() for t in self.outputs],
                                   "attrs": [list(a) for a in self.attrs]}).encode()


def canonical_attr(kind: str, value):
    """An attribute value as both the model and aclopSetAttr* keep it (so they compare)."""
    if kind.startswith("list_"):
        return tuple(canonical_attr(kind[5:], v) for v in value)
    return {"bool": bool, "int": int, "float": lambda v: float(np.float32(v)),
            "string": str}[kind](value)


def _freeze(value):
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def parse_model(data: bytes) -> OpModel | None:
    """The operator of a single-op .om, or None if ``data`` is not one."""
    if not data.startswith(MAGIC):
        return None
    d = json.loads(data[len(MAGIC):])
    specs = lambda items: tuple(TensorSpec(t["dtype"], t["format"], tuple(t["dims"]),
                                           None if t["const"] is None
                                           else bytes.fromhex(t["const"])) for t in items)
    return OpModel(d["op"], specs(d["inputs"]), specs(d["outputs"]),
                   tuple((n, k, _freeze(v)) for n, k, v in d["attrs"]))


def _tensor(op: str, where: str, t) -> TensorSpec:
    if not isinstance(t, dict):
        raise DescriptionError(_("{op}: each entry of {where} must be an object with format, "
                                 "shape and type").format(op=op, where=where))
    kind, fmt, shape = t.get("type"), t.get("format", "ND"), t.get("shape")
    if kind not in TYPES:
        raise DescriptionError(_("{op}: {where} type {value} is not one of {names}").format(
            op=op, where=where, value=repr(kind), names=", ".join(sorted(TYPES))))
    if fmt not in FORMATS:
        raise DescriptionError(_("{op}: {where} format {value} is not one of {names}").format(
            op=op, where=where, value=repr(fmt), names=", ".join(FORMATS)))
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise DescriptionError(_("{op}: {where} shape must be a list of non-negative integers "
                                 "(static shapes only), not {value}").format(
                                     op=op, where=where, value=json.dumps(shape)))
    const = None
    if t.get("is_const"):
        values = np.asarray(t.get("const_value", []), NUMPY[TYPES[kind]])
        if values.size != int(np.prod(shape, dtype=np.int64)):
            raise DescriptionError(_("{op}: {where} const_value has {count} value(s) for shape "
                                     "{shape}").format(op=op, where=where, count=values.size,
                                                       shape=shape))
        const = values.tobytes()
    return TensorSpec(TYPES[kind], FORMATS[fmt], tuple(shape), const)


def parse_description(text: str) -> list[OpModel]:
    """The operators of an ATC single-op description; DescriptionError says what is wrong."""
    try:
        items = json.loads(text)
    except ValueError as e:
        raise DescriptionError(_("the file is not valid JSON ({reason})").format(reason=e)) \
            from None
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list) or not items:
        raise DescriptionError(_("the file must hold a list of operators"))
    out = []
    for item in items:
        op = item.get("op") if isinstance(item, dict) else None
        if not isinstance(op, str) or not op:
            raise DescriptionError(_("every operator needs \"op\": its type, such as \"Add\""))
        ins = [_tensor(op, f"input_desc[{i}]", t) for i, t in enumerate(item.get("input_desc",
                                                                                  []))]
        outs = [_tensor(op, f"output_desc[{i}]", t) for i, t in enumerate(item.get("output_desc",
                                                                                    []))]
        attrs = {}
        for a in item.get("attr", []):
            kind = a.get("type") if isinstance(a, dict) else None
            if kind not in ATTR_TYPES or not isinstance(a.get("name"), str) or "value" not in a:
                raise DescriptionError(_("{op}: each attr needs a name, a value and a type "
                                         "among {types}").format(op=op,
                                                                 types=", ".join(ATTR_TYPES)))
            try:
                attrs[a["name"]] = (kind, canonical_attr(kind, a["value"]))
            except (TypeError, ValueError):
                raise DescriptionError(_("{op}: attr {name} value {value} is not a {kind}")
                                       .format(op=op, name=a["name"],
                                               value=json.dumps(a["value"]), kind=kind)) \
                    from None
        out.append(OpModel(op, tuple(ins), tuple(outs),
                           tuple(sorted((n, k, v) for n, (k, v) in attrs.items()))))
    return out

"""`acl-lab atc`: ATC's command line, turning an ONNX model into acl_lab's offline model (.om).

    acl-lab atc --model=resnet.onnx --framework=5 --output=resnet --soc_version=Ascend910B3

Flags follow ATC's (--model, --framework, --output, --soc_version, --input_format,
--input_shape, --input_fp16_nodes, --output_type, --out_nodes); failures print an
E-coded line and "ATC run failed" as ATC does, success "ATC run success". Only ONNX
(--framework=5) is converted: the other frameworks' parsers are not part of acl_lab.
The E-coded lines follow the learner's language (ACL_LAB_LANG); the closing "ATC run ..."
lines are ATC's own words, which scripts look for, and stay as ATC prints them.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from . import constants as C
from .align import align_up
from .argparse_i18n import ArgumentParser, translate
from .i18n import _
from .om import ACL_DTYPE, MEM_ALIGN, OfflineModel, TensorDesc

FRAMEWORKS = {0: "Caffe", 1: "MindSpore", 3: "TensorFlow", 5: "ONNX"}
SOC_VERSION = re.compile(r"^Ascend(310|310B[1-4]|310P[1-7]|910|910[AB]|910B[1-4]|910_93\d*)$")
FORMATS = {"NCHW": C.ACL_FORMAT_NCHW, "NHWC": C.ACL_FORMAT_NHWC, "ND": C.ACL_FORMAT_ND}
OUTPUT_TYPES = {"FP32": C.ACL_FLOAT, "FP16": C.ACL_FLOAT16, "UINT8": C.ACL_UINT8}
#: ONNX operators the simulated AI Core runs (anything else is refused, as ATC refuses an
#: operator it has no parser or kernel for)
SUPPORTED_OPS = frozenset({
    "Add", "AveragePool", "BatchNormalization", "Cast", "Clip", "Concat", "Constant", "Conv",
    "Div", "Dropout", "Flatten", "Gemm", "GlobalAveragePool", "GlobalMaxPool", "Identity",
    "LeakyRelu", "MatMul", "MaxPool", "Mul", "ReduceMean", "Relu", "Reshape", "Sigmoid",
    "Softmax", "Squeeze", "Sub", "Tanh", "Transpose", "Unsqueeze"})
FAILED = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"
SUCCESS = "ATC run success, welcome to the next use."


class AtcError(Exception):
    """A conversion failure; the message is ATC's E-coded line."""


def _invalid(flag: str, value, reason: str) -> AtcError:
    return AtcError(_("E10001: Value [{value}] for parameter [--{flag}] is invalid. Reason: "
                      "{reason}").format(value=value, flag=flag, reason=reason))


class _Parser(ArgumentParser):
    """Refuses a command line as ATC does: an E-coded line, not argparse's usage."""

    def error(self, message):
        raise AtcError(f"E10016: {translate(message)}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="acl-lab atc", description=_(__doc__.split("\n\n")[0]))
    p.add_argument("--model", default="", help=_("the framework model file (ONNX: .onnx)"))
    p.add_argument("--framework", default="", help=_("0 Caffe, 1 MindSpore, 3 TensorFlow, "
                                                     "5 ONNX"))
    p.add_argument("--output", default="", help=_("output path without .om"))
    p.add_argument("--soc_version", default="", help=_("e.g. Ascend910B3 "
                                                       "(acl.get_soc_name())"))
    p.add_argument("--input_format", default="NCHW", help=_("NCHW (default), NHWC or ND"))
    p.add_argument("--input_shape", default="",
                   help=_('fix dynamic dims: "name:1,3,224,224;..."'))
    p.add_argument("--input_fp16_nodes", default="", help=_("inputs fed as float16: a;b"))
    p.add_argument("--output_type", default="", help=_("FP32, FP16 or UINT8 for all outputs"))
    p.add_argument("--out_nodes", default="", help=_("accepted for compatibility; outputs "
                                                     "are the graph's outputs"))
    p.add_argument("--weight", default="", help=_("Caffe weights (not used for ONNX)"))
    p.add_argument("--singleop", default="", help=_("a single-operator description (op.json): "
                                                    "one .om per operator into --output"))
    return p


def _shapes(text: str) -> dict[str, list[int]]:
    out = {}
    for item in filter(None, text.split(";")):
        name, _, dims = item.rpartition(":")
        try:
            out[name] = [int(d) for d in dims.split(",")]
        except ValueError:
            raise _invalid("input_shape", text, _('use "name:n,c,h,w;name2:..." with integer '
                                                  'dimensions')) from None
    return out


def convert(args: argparse.Namespace) -> tuple[Path, OfflineModel]:
    """Check the flags and the graph, then build the .om; AtcError says what is wrong."""
    for flag in ("model", "framework", "output", "soc_version"):
        if not getattr(args, flag):
            raise AtcError(_("E10004: Value for parameter [--{flag}] is empty. It is "
                             "required.").format(flag=flag))
    if args.framework not in {str(k) for k in FRAMEWORKS}:
        raise _invalid("framework", args.framework,
                       _("the value must be 0 (Caffe), 1 (MindSpore), 3 (TensorFlow) or 5 "
                         "(ONNX)"))
    if args.framework != "5":
        raise _invalid("framework", args.framework,
                       _("acl-lab atc converts ONNX models only (--framework=5); the "
                         "{framework} parser is not part of acl_lab").format(
                           framework=FRAMEWORKS[int(args.framework)]))
    if not SOC_VERSION.match(args.soc_version):
        raise _invalid("soc_version", args.soc_version,
                       _("not a supported SoC, e.g. Ascend310, Ascend310P3, Ascend910B3"))
    if args.input_format not in FORMATS:
        raise _invalid("input_format", args.input_format, _("use NCHW, NHWC or ND"))
    if args.output_type and args.output_type not in OUTPUT_TYPES:
        raise _invalid("output_type", args.output_type, _("use FP32, FP16 or UINT8"))
    path = Path(args.model)
    if not path.is_file():
        raise _invalid("model", args.model, _("the file does not exist or cannot be read."))
    return Path(f"{args.output}.om"), build(path.read_bytes(), args)


def build(onnx_bytes: bytes, args: argparse.Namespace) -> OfflineModel:
    import onnx
    from onnx import shape_inference

    try:
        model = onnx.load_from_string(onnx_bytes)
        onnx.checker.check_model(model)
    except Exception as e:   # protobuf DecodeError, ValidationError: not a usable ONNX graph
        raise _invalid("model", args.model, _("not a valid ONNX model ({error}: {message})").format(
            error=type(e).__name__,
            message=str(e).splitlines()[0] if str(e) else _("parse error"))) from None
    graph = model.graph
    for node in graph.node:
        if node.op_type not in SUPPORTED_OPS or node.domain not in ("", "ai.onnx"):
            raise AtcError(_("E19010: No parser is registered for Op [{name}, optype "
                             "[{optype}]].").format(name=node.name or node.output[0],
                                                     optype=node.op_type))
    weights = {t.name for t in graph.initializer}
    fixed = _shapes(args.input_shape)
    fp16 = set(filter(None, args.input_fp16_nodes.split(";")))
    inputs = [i for i in graph.input if i.name not in weights]
    for name in list(fixed) + sorted(fp16):
        if name not in {i.name for i in inputs}:
            raise _invalid("input_shape" if name in fixed else "input_fp16_nodes", name,
                           _("the model has no input named {name}; its inputs are "
                             "{inputs}").format(name=repr(name),
                                                inputs=[i.name for i in inputs]))
    for i in inputs:
        if i.name in fixed:
            dims = i.type.tensor_type.shape.dim
            if len(dims) != len(fixed[i.name]):
                raise _invalid("input_shape", args.input_shape,
                               _("input {name} has {count} dimensions").format(
                                   name=i.name, count=len(dims)))
            for d, v in zip(dims, fixed[i.name]):
                d.Clear()
                d.dim_value = v
    inferred = shape_inference.infer_shapes(model, strict_mode=True)

    def desc(vi, dtype=None, fmt=C.ACL_FORMAT_ND) -> TensorDesc:
        t = vi.type.tensor_type
        dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim)
        if -1 in dims:
            raise _invalid("input_shape", vi.name, _(
                '{name} has a dynamic shape {dims}; fix it with --input_shape="{name}:..." '
                '(acl_lab builds static models only).').format(name=vi.name, dims=list(dims)))
        onnx_dtype = ACL_DTYPE.get(t.elem_type)
        if onnx_dtype is None:
            raise AtcError(_("E19999: tensor {name} has ONNX element type {type}, which "
                             "acl_lab does not support.").format(name=vi.name,
                                                                 type=t.elem_type))
        return TensorDesc(vi.name, dims, onnx_dtype if dtype is None else dtype, fmt, onnx_dtype)

    in_fmt = FORMATS[args.input_format]
    ins = tuple(desc(i, C.ACL_FLOAT16 if i.name in fp16 else None,
                     in_fmt if len(i.type.tensor_type.shape.dim) == 4 else C.ACL_FORMAT_ND)
                for i in inferred.graph.input if i.name not in weights)
    out_dtype = OUTPUT_TYPES.get(args.output_type)
    outs = tuple(desc(o, out_dtype) for o in inferred.graph.output)
    features = sum(align_up(desc(v).size, MEM_ALIGN) for v in inferred.graph.value_info)
    weight = sum(align_up(_nbytes(t), MEM_ALIGN) for t in graph.initializer)
    return OfflineModel(args.soc_version, ins, outs, max(features, 512), weight,
                        inferred.SerializeToString(), len(graph.node))


def single_operators(args: argparse.Namespace) -> None:
    """--singleop: each operator of the description compiled into the --output folder."""
    from .op.compile import compile_description
    from .op.model import DescriptionError

    for flag in ("output", "soc_version"):
        if not getattr(args, flag):
            raise AtcError(_("E10004: Value for parameter [--{flag}] is empty. It is "
                             "required.").format(flag=flag))
    if not SOC_VERSION.match(args.soc_version):
        raise _invalid("soc_version", args.soc_version,
                       _("not a supported SoC, e.g. Ascend310, Ascend310P3, Ascend910B3"))
    path = Path(args.singleop)
    if not path.is_file():
        raise _invalid("singleop", args.singleop, _("the file does not exist or cannot be "
                                                    "read."))
    try:
        compile_description(path, Path(args.output))
    except DescriptionError as e:
        raise _invalid("singleop", args.singleop, str(e)) from None


def _nbytes(tensor) -> int:
    from onnx import numpy_helper
    return numpy_helper.to_array(tensor).nbytes


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    try:
        args = _parser().parse_args(argv)
        if args.singleop:
            single_operators(args)
        else:
            target, om = convert(args)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(om.to_bytes())
    except AtcError as e:
        print(e, file=out)
        print(FAILED, file=out)
        return 1
    print(SUCCESS, file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`acl-lab atc`: ATC's command line, turning an ONNX model into acl_lab's offline model (.om).

    acl-lab atc --model=resnet.onnx --framework=5 --output=resnet --soc_version=Ascend910B3

Flags follow ATC's (--model, --framework, --output, --soc_version, --input_format,
--input_shape, --input_fp16_nodes, --output_type, --out_nodes, --dynamic_batch_size,
--dynamic_image_size, --dynamic_dims, --input_shape_range, --insert_op_conf); failures print an
E-coded line and "ATC run failed" as ATC does, success "ATC run success". Only ONNX
(--framework=5) is converted: the other frameworks' parsers are not part of acl_lab.
The E-coded lines follow the learner's language (ACL_LAB_LANG); the closing "ATC run ..."
lines are ATC's own words, which scripts look for, and stay as ATC prints them.

atc reads only the files its flags name, each a regular file of bounded size
(support/files.py): a model up to ``model_limit()`` (protobuf's 2 GiB, and a third of the
host-RAM budget, since a conversion holds about three copies), a config up to 1 MiB, a
single-op description up to 64 MiB. A graph keeping tensor data in other files (ONNX
external data) is refused (om/graph.py). An output that cannot be written is an E10001 of
--output, as ATC reports it.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import replace
from pathlib import Path

from acl_lab import constants as C
from acl_lab.om import aipp as om_aipp
from acl_lab.om import dynamic as om_dynamic
from acl_lab.om import graph as om_graph
from acl_lab.support import files
from acl_lab.support.argparse_i18n import ArgumentParser, translate
from acl_lab.support.host_budget import current_budget
from acl_lab.i18n import _
from acl_lab.om.container import OfflineModel, TensorDesc

FRAMEWORKS = {0: "Caffe", 1: "MindSpore", 3: "TensorFlow", 5: "ONNX"}
SOC_VERSION = re.compile(r"^Ascend(310|310B[1-4]|310P[1-7]|910|910[AB]|910B[1-4]|910_93\d*)$")
FORMATS = {"NCHW": C.ACL_FORMAT_NCHW, "NHWC": C.ACL_FORMAT_NHWC, "ND": C.ACL_FORMAT_ND}
OUTPUT_TYPES = {"FP32": C.ACL_FLOAT, "FP16": C.ACL_FLOAT16, "UINT8": C.ACL_UINT8}
FAILED = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"
PROTOBUF_LIMIT = (2 << 30) - 1     # a protobuf message (an ONNX model) is under 2 GiB
CONFIG_LIMIT = 1 << 20
DESCRIPTION_LIMIT = 64 << 20
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
    p.add_argument("--dynamic_batch_size", default="",
                   help=_('batch gears, e.g. "1,2,4" (with -1 as N in --input_shape)'))
    p.add_argument("--insert_op_conf", default="",
                   help=_("an aipp.cfg: static or dynamic AIPP compiled in before the "
                          "network"))
    p.add_argument("--dynamic_image_size", default="",
                   help=_('image size gears, e.g. "224,224;448,448" (with -1 as H and W in '
                          '--input_shape)'))
    p.add_argument("--dynamic_dims", default="",
                   help=_('dims gears, e.g. "20,1;40,2": per gear a value for each -1 of '
                          '--input_shape, in its order'))
    p.add_argument("--input_shape_range", default="",
                   help=_('shape ranges, e.g. "data:[1~8,3,-1]": a model for any shape '
                          'within them'))
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
    return Path(f"{args.output}.om"), build(_read("model", args.model, model_limit()), args)


def model_limit() -> int:
    """The largest ONNX file atc reads: protobuf's limit, and a third of the host-RAM budget
    (the file, its parse and the graph written out)."""
    return min(PROTOBUF_LIMIT, current_budget()[0] // 3)


def _read(flag: str, path: str, limit: int) -> bytes:
    """The bytes of the file --``flag`` names; E10001 saying why it cannot be read."""
    if not os.path.lexists(path):
        raise _invalid(flag, path, _("the file does not exist or cannot be read."))
    try:
        return files.read(path, limit)
    except files.Refused as why:
        raise _invalid(flag, path, _("the file cannot be read: {reason}.").format(
            reason=why)) from None


def build(onnx_bytes: bytes, args: argparse.Namespace) -> OfflineModel:
    """The offline model of ``onnx_bytes`` as the flags ask: the graph checked (operators,
    data, static shapes), its inputs fixed, its description and sizes worked out."""
    try:
        model = om_graph.parse(onnx_bytes)
        seeded = om_graph.give_seeds(model.graph)
        om_graph.check_ops(model.graph)
    except om_graph.GraphError as e:
        if e.op:
            raise AtcError(_("E19010: No parser is registered for Op [{name}, optype "
                             "[{optype}]].").format(name=e.node, optype=e.op)) from None
        raise _invalid("model", args.model, str(e)) from None
    graph = model.graph
    fixed = _shapes(args.input_shape)
    fp16 = set(filter(None, args.input_fp16_nodes.split(";")))
    weights = {t.name for t in graph.initializer}
    inputs = [i for i in graph.input if i.name not in weights]
    for name in list(fixed) + sorted(fp16):
        if name not in {i.name for i in inputs}:
            raise _invalid("input_shape" if name in fixed else "input_fp16_nodes", name,
                           _("the model has no input named {name}; its inputs are "
                             "{inputs}").format(name=repr(name),
                                                inputs=[i.name for i in inputs]))
    for i in inputs:
        if i.name in fixed:
            _fix_dims(i, fixed[i.name], args.input_shape)
    dyn = _gears(args, fixed)
    spans = _spans(args, inputs, fixed)
    for o in graph.output if dyn or spans else ():   # inferred per gear, or left open
        for k, d in enumerate(o.type.tensor_type.shape.dim):
            d.Clear()
            d.dim_param = f"{o.name}_{k}"
    rng = None
    if dyn:                                  # every gear checked; buffers for the largest
        per_gear = [_inspect(model, args, {n: dyn.dims(n, fixed[n], g) for n in dyn.axes})
                    for g in dyn.gears]
        facts = om_graph.widest(per_gear)
        dyn = replace(dyn, outputs=tuple(tuple(f.shapes[o.name][0] for o in graph.output)
                                         for f in per_gear))
    elif spans:                              # checked at one shape within the ranges
        for i in inputs:
            if i.name in spans:
                _fix_dims(i, [lo if lo == hi else -1 for lo, hi in spans[i.name]],
                          args.input_shape_range, "input_shape_range")
        rng = om_dynamic.ShapeRanges(spans, {})
        facts = _inspect(model, args, {n: rng.probe(n) for n in spans})
        rng = replace(rng, outputs={k: v for k, v in om_graph.open_axes(model).items() if v})
    else:
        facts = _inspect(model, args)
    _check_executable(model)
    in_fmt = FORMATS[args.input_format]
    out_dtype = OUTPUT_TYPES.get(args.output_type)
    ins = tuple(_desc(i.name, facts, C.ACL_FLOAT16 if i.name in fp16 else None,
                      in_fmt if len(facts.shapes[i.name][0]) == 4 else C.ACL_FORMAT_ND)
                for i in inputs)
    outs = tuple(_desc(o.name, facts, out_dtype) for o in graph.output)
    if rng is not None:                      # an open dim: size 0, as GE reports it
        ins = tuple(replace(d, nbytes=0) if rng.reported(d.name, d.dims) != d.dims else d
                    for d in ins)
        outs = tuple(replace(d, nbytes=0) if d.name in rng.outputs else d for d in outs)
    aipp = _aipp(args, ins, dyn or rng, fp16)
    if aipp:
        replaced = {a.input: a.input_desc() for a in aipp}
        ins = tuple(replaced.get(t.name, t) for t in ins)
        ins += tuple(a.data_desc() for a in aipp if hasattr(a, "data_desc"))   # dynamic
    if dyn:
        ins += (om_dynamic.mbatch_desc(len(dyn.gears[0])),)
    graph_bytes = (model.SerializeToString() if fixed or spans or seeded   # else: as given
                   else onnx_bytes)
    return OfflineModel(args.soc_version, ins, outs, facts.work_size, facts.weight_size,
                        graph_bytes, facts.nodes, dyn, aipp, rng)


def _aipp(args, inputs: tuple, gears, fp16) -> tuple:
    """--insert_op_conf: the static AIPP of each aipp_op block, checked against the graph."""
    if not args.insert_op_conf:
        return ()
    text = _read("insert_op_conf", args.insert_op_conf, CONFIG_LIMIT).decode("utf-8", "replace")
    try:
        blocks = om_aipp.parse(text)
        if gears:
            raise om_aipp.AippError(_("acl_lab does not combine AIPP with dynamic shapes "
                                      "(gears or shape ranges)"))
        aipp = tuple(om_aipp.build(b, list(inputs)) for b in blocks)
        if len({a.input for a in aipp}) != len(aipp):
            raise om_aipp.AippError(_("two aipp_op blocks name the same input"))
        if sum(hasattr(a, "data_desc") for a in aipp) > 1:
            raise om_aipp.AippError(_("acl_lab compiles one dynamic AIPP per model"))
        if any(a.input in fp16 for a in aipp):
            raise om_aipp.AippError(_("an AIPP input cannot also be in --input_fp16_nodes"))
    except om_aipp.AippError as e:
        raise _invalid("insert_op_conf", args.insert_op_conf, str(e)) from None
    return aipp


def _inspect(model, args, fixed=None):
    try:
        return om_graph.inspect(model, fixed)
    except om_graph.GraphError as e:
        if e.node:
            raise _invalid("input_shape", e.node, str(e)) from None
        raise _invalid("model", args.model, str(e)) from None


GEAR_FLAGS = {"dynamic_batch_size": "batch", "dynamic_image_size": "hw", "dynamic_dims": "dims"}
EXCLUSIVE = (*GEAR_FLAGS, "input_shape_range")


def _gears(args, fixed: dict) -> om_dynamic.Gears | None:
    """--dynamic_batch_size / --dynamic_image_size / --dynamic_dims: the gears (outputs not
    yet worked out), as ATC checks them (hicann/ge option_utils.cc
    CheckDynamicInputParamValid). Without one, -1 stays an error of the graph (static)."""
    given = [flag for flag in EXCLUSIVE if getattr(args, flag)]
    if len(given) > 1:
        raise AtcError(_("E10009: --dynamic_batch_size, --dynamic_image_size, "
                         "--input_shape_range, and --dynamic_dims are mutually exclusive."))
    flag = next((f for f in given if f in GEAR_FLAGS), None)
    if flag is None:
        return None
    kind, text = GEAR_FLAGS[flag], getattr(args, flag)
    if not fixed:
        raise AtcError(_("E10004: Value for parameter [--{flag}] is empty. It is "
                         "required.").format(flag="input_shape"))
    axes = {name: tuple(k for k, d in enumerate(dims) if d == -1)
            for name, dims in fixed.items() if -1 in dims}
    if kind == "dims":
        count = sum(map(len, axes.values()))
        if not count:
            raise _invalid("input_shape", args.input_shape,
                           _("At least one dim should be -1 when dynamic_dims is set."))
    want = {"batch": (0,), "hw": (1, 2) if args.input_format == "NHWC" else (2, 3)}.get(kind)
    if want is not None and (not axes or any(a != want or (kind == "hw" and len(fixed[n]) != 4)
                                             for n, a in axes.items())):
        raise _invalid("input_shape", args.input_shape,
                       _("with --{flag}, --input_shape must give -1 exactly where the gear "
                         "goes: {where}").format(
                             flag=flag, where=_("N (the first dimension)") if kind == "batch"
                             else _("H and W of a 4-D {format} input").format(
                                 format=args.input_format)))
    try:
        gears = om_dynamic.parse_flag(kind, text, sum(map(len, axes.values())))
    except ValueError as e:
        raise _invalid(flag, text, str(e)) from None
    return om_dynamic.Gears(kind, axes, gears, (), tuple(fixed))


SHAPE_RANGE_SAMPLE = '"input_name1:[n1~n2,c1,h1,w1]"'


def _spans(args, inputs, fixed: dict) -> dict:
    """--input_shape_range: input name -> ((low, high) per dim), as option_utils.cc
    ParseInputShapeRange reads it (E10048), for inputs of the model that --input_shape does
    not fix; {} without the flag (E10009 for another dynamic flag: _gears)."""
    if not args.input_shape_range:
        return {}
    try:
        spans = om_dynamic.parse_ranges(args.input_shape_range)
    except ValueError as e:
        raise AtcError(_("E10048: Value [{value}] for parameter [--input_shape_range] is "
                         "invalid. Reason: {reason}. The value must be formatted as "
                         "{sample}.").format(value=args.input_shape_range, reason=e,
                                             sample=SHAPE_RANGE_SAMPLE)) from None
    names = [i.name for i in inputs]
    for name in spans:
        if name not in names or name in fixed:
            raise _invalid("input_shape_range", name,
                           _("the model has no input named {name}; its inputs are "
                             "{inputs}").format(name=repr(name), inputs=names)
                           if name not in names else
                           _("input {name} is given by --input_shape too").format(
                               name=repr(name)))
    return spans


def _check_executable(model) -> None:
    """The executor builds the graph (without its weights' data) as a load will: a graph
    that converts also loads."""
    from acl_lab.om.executor import Session

    try:
        Session(om_graph.skeleton(model).SerializeToString())
    except (ImportError, MemoryError):
        raise
    except Exception as e:
        raise AtcError(_("E19999: the graph cannot be executed: {error}").format(
            error=f"{type(e).__name__}: {e}"[:300])) from None


def _fix_dims(value_info, dims: list[int], text: str, flag: str = "input_shape") -> None:
    """--input_shape (or --input_shape_range): the input's dimensions become ``dims``."""
    have = value_info.type.tensor_type.shape.dim
    if len(have) != len(dims):
        raise _invalid(flag, text, _("input {name} has {count} dimensions").format(
            name=value_info.name, count=len(have)))
    for k, (d, v) in enumerate(zip(have, dims)):
        d.Clear()
        if v == -1:          # left open: a gear or a shape range sets it
            d.dim_param = f"{value_info.name}_{k}"
        else:
            d.dim_value = v


def _desc(name: str, facts, dtype=None, fmt=C.ACL_FORMAT_ND) -> TensorDesc:
    dims, onnx_dtype = facts.shapes[name]
    return TensorDesc(name, dims, onnx_dtype if dtype is None else dtype, fmt, onnx_dtype)


def single_operators(args: argparse.Namespace) -> None:
    """--singleop: each operator of the description compiled into the --output folder."""
    from acl_lab.om.op_compile import compile_description
    from acl_lab.om.op_model import DescriptionError

    for flag in ("output", "soc_version"):
        if not getattr(args, flag):
            raise AtcError(_("E10004: Value for parameter [--{flag}] is empty. It is "
                             "required.").format(flag=flag))
    if not SOC_VERSION.match(args.soc_version):
        raise _invalid("soc_version", args.soc_version,
                       _("not a supported SoC, e.g. Ascend310, Ascend310P3, Ascend910B3"))
    text = _read("singleop", args.singleop, DESCRIPTION_LIMIT).decode("utf-8", "replace")
    try:
        compile_description(text, Path(args.output))
    except DescriptionError as e:
        raise _invalid("singleop", args.singleop, str(e)) from None
    except OSError as e:
        raise _unwritable(args.output, e) from None


def _unwritable(output: str, error: OSError) -> AtcError:
    return _invalid("output", output, _("it cannot be written: {reason}.").format(
        reason=error.strerror or error))


def _write(target: Path, om: OfflineModel) -> None:
    """The .om at ``target``: header, then the graph (no joined copy)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as f:
            f.write(om.header())
            f.write(om.onnx_bytes)
    except OSError as e:
        raise _unwritable(os.fspath(target), e) from None


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    try:
        args = _parser().parse_args(argv)
        if args.singleop:
            single_operators(args)
        else:
            target, om = convert(args)
            _write(target, om)
    except AtcError as e:
        print(e, file=out)
        print(FAILED, file=out)
        return 1
    print(SUCCESS, file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The ONNX graph inside an .om: one set of rules for `acl-lab atc` and for loading.

- ``check_ops``: the operators ATC converts (om/onnx_ops.py); atc refuses anything else and
  the loader refuses a graph that holds anything else (an edited .om).
- ``check_self_contained(model)``: every tensor's data is inside the model. ONNX can keep a
  tensor's bytes in another file ("external data": an initializer, a Constant node's value,
  a sparse tensor), found relative to the working directory when the model is run from
  bytes; neither atc nor a load reads a file the learner did not name, so such a model is
  refused.
- ``inspect(model)``: checks the graph (operator set, domains, names, data, static shapes)
  and returns its ``Facts``: every tensor's shape, the work (feature map) and weight sizes
  atc writes and aclmdlQuerySize reports, and the host RAM one execution needs at its peak.

Shapes are inferred on a *skeleton* of the graph: the weights' data is left out (only their
shapes are kept, and the few small integer tensors such as Reshape's target shape), so
checking a model with 1 GiB of weights costs kilobytes, not another copy of the weights.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from acl_lab.align import align_up
from acl_lab.constants import ACL_DYNAMIC_AIPP_NAME
from acl_lab.i18n import _
from acl_lab.om.container import ACL_DTYPE, MEM_ALIGN, NUMPY_DTYPE
from acl_lab.om.node_ops import node_ops
from acl_lab.om.onnx_ops import RANDOM, SUPPORTED, WITH_SUBGRAPHS

SMALL_TENSOR = 64          # elements: tensors this small keep their data (shapes, axes, scales)
MAX_NODES = 100_000


class GraphError(ValueError):
    """The graph breaks a rule; ``op`` names the unsupported node's type when that is why."""

    def __init__(self, message: str, op: str = "", node: str = ""):
        super().__init__(message)
        self.op, self.node = op, node


@dataclass(frozen=True)
class Facts:
    shapes: dict            # tensor name -> (dims tuple, aclDataType)
    work_size: int          # feature maps, each on a 512-byte boundary (at least 512)
    weight_size: int        # weights, each on a 512-byte boundary
    peak_bytes: int         # host RAM an execution holds at its peak (estimate)
    nodes: int
    ops: tuple = ()         # (op type, op name) of the top-level operators (om/node_ops.py)


def parse(data) -> "onnx.ModelProto":
    """The ModelProto in ``data`` (bytes-like); GraphError if protobuf cannot read it."""
    import onnx
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except Exception as e:    # protobuf's DecodeError, or a nesting it refuses
        raise GraphError(_("not a valid ONNX model ({error})").format(
            error=type(e).__name__)) from None
    return model


def check_ops(graph) -> None:
    """Every node, and every node of an If's branches, is an operator of the default domain
    that ATC converts (om/onnx_ops.py); a random one has its seed (give_seeds)."""
    nodes = list(_nodes(graph))
    if len(nodes) > MAX_NODES:
        raise GraphError(_("the graph has {count} nodes, more than {limit}").format(
            count=len(nodes), limit=MAX_NODES))
    for node in nodes:
        name = node.name or (node.output[0] if node.output else "?")
        if (node.op_type not in SUPPORTED or node.domain not in ("", "ai.onnx")
                or (node.op_type not in WITH_SUBGRAPHS
                    and any(a.g.node or a.graphs for a in node.attribute))):
            raise GraphError(_("operator {optype} of node {name} is not supported").format(
                optype=node.op_type, name=name), op=node.op_type, node=name)
        if node.op_type in RANDOM and not any(a.name == "seed" for a in node.attribute):
            raise GraphError(_("random operator {optype} of node {name} has no seed, so its "
                               "numbers would differ from run to run; convert the model with "
                               "acl-lab atc, which gives each one a seed").format(
                                   optype=node.op_type, name=name))


def _nodes(graph):
    """The graph's nodes, then (depth first) those of its nodes' subgraphs."""
    for node in graph.node:
        yield node
        for a in node.attribute:
            for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                yield from _nodes(sub)


def give_seeds(graph) -> bool:
    """Give each random operator without a ``seed`` one (its position: deterministic), as
    atc compiles the model; True if any was given."""
    from onnx import helper

    given = False
    for k, node in enumerate(_nodes(graph)):
        if node.op_type in RANDOM and not any(a.name == "seed" for a in node.attribute):
            node.attribute.append(helper.make_attribute("seed", float(k)))
            given = True
    return given


def _tensors(model):
    """(where, TensorProto) of every tensor a model holds: initializers, sparse
    initializers, and node attributes (a Constant's value) in the graph, its subgraphs and
    the model's local functions."""
    def in_nodes(nodes, where):
        for node in nodes:
            label = f"{where}{node.op_type} {node.name or (node.output[0] if node.output else '?')}"
            for a in node.attribute:
                if a.HasField("t"):
                    yield label, a.t
                yield from ((label, t) for t in a.tensors)
                for sparse in ([a.sparse_tensor] if a.HasField("sparse_tensor") else []) + \
                        list(a.sparse_tensors):
                    yield label, sparse.values
                    yield label, sparse.indices
                for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    yield from in_graph(g, label + " / ")

    def in_graph(graph, where=""):
        yield from ((f"{where}{t.name}", t) for t in graph.initializer)
        for sparse in graph.sparse_initializer:
            yield f"{where}{sparse.values.name}", sparse.values
            yield f"{where}{sparse.indices.name}", sparse.indices
        yield from in_nodes(graph.node, where)

    yield from in_graph(model.graph)
    for f in model.functions:
        yield from in_nodes(f.node, f"{f.name} / ")


def check_self_contained(model) -> None:
    """GraphError unless every tensor's data is inside the model (no external data)."""
    for where, t in _tensors(model):
        if t.data_location == 1 or len(t.external_data):     # TensorProto.EXTERNAL
            location = next((e.value for e in t.external_data if e.key == "location"), "")
            raise GraphError(_("tensor {name} keeps its data outside the model, in the file "
                               "{location}: the simulator reads only the model you name. "
                               "Save the model with its data inside (onnx.save_model(model, "
                               "path, save_as_external_data=False)).").format(
                                   name=where, location=repr(location)))


def weight_bytes(tensor) -> int:
    """Bytes of one initializer, from its dims and type (its data is not read)."""
    dtype = ACL_DTYPE.get(tensor.data_type)
    if dtype is None or any(d < 0 for d in tensor.dims):
        raise GraphError(_("weight {name} has ONNX element type {type} or dims {dims}, which "
                           "acl_lab does not support").format(
                               name=tensor.name, type=tensor.data_type, dims=list(tensor.dims)))
    return math.prod(tensor.dims) * NUMPY_DTYPE[dtype]().itemsize


def skeleton(model, fixed: dict | None = None):
    """``model`` without its weights' data (and without value_info, which is re-inferred);
    ``fixed``: input name -> dims to give it (one gear of a dynamic model)."""
    import onnx
    from onnx import helper

    sk = onnx.ModelProto()
    sk.ir_version, sk.producer_name = model.ir_version, model.producer_name
    sk.opset_import.extend(model.opset_import)
    g, src = sk.graph, model.graph
    g.name = src.name
    g.node.extend(src.node)
    g.output.extend(src.output)
    weights = {t.name for t in src.initializer}
    g.input.extend(i for i in src.input if i.name not in weights)
    for vi in g.input:
        if fixed and vi.name in fixed:
            for d, v in zip(vi.type.tensor_type.shape.dim, fixed[vi.name]):
                d.Clear()
                d.dim_value = v
    for t in src.initializer:
        if math.prod(t.dims) <= SMALL_TENSOR:
            g.initializer.append(t)
        else:
            g.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
    return sk


def check_data(graph) -> int:
    """Every initializer holds as many bytes as its dims say; the weight size (aligned)."""
    total = 0
    for t in graph.initializer:
        n = weight_bytes(t)
        if t.HasField("raw_data") and len(t.raw_data) != n:
            raise GraphError(_("weight {name} holds {have} B, its dims say {need} B").format(
                name=t.name, have=len(t.raw_data), need=n))
        total += align_up(n, MEM_ALIGN)
    return total


def inspect(model, fixed: dict | None = None, fed=None) -> Facts:
    """Check ``model`` (its inputs given ``fixed`` dims, if any) and work out its Facts;
    GraphError says what is wrong. ``fed``: the inputs an execution feeds, where the graph's
    inputs also hold weights (a skeleton's)."""
    import onnx
    from onnx import shape_inference

    graph = model.graph
    check_ops(graph)
    check_self_contained(model)
    weight = check_data(graph)
    sk = skeleton(model, fixed)
    try:
        onnx.checker.check_model(sk)
        inferred = shape_inference.infer_shapes(sk, strict_mode=True, data_prop=True)
    except Exception as e:     # ValidationError, InferenceError: a graph onnx itself refuses
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise GraphError(_("not a valid ONNX model ({error}: {message})").format(
            error=type(e).__name__, message=first[:200])) from None
    shapes = {}
    ig = inferred.graph
    for vi in ig.input:
        shapes[vi.name] = _shape(vi)
    makers = {o: n for n in graph.node for o in n.output}
    for vi in list(ig.value_info) + list(ig.output):
        shapes[vi.name] = _shape(vi, makers.get(vi.name))
    produced = {o for n in graph.node for o in n.output if o}
    for name in produced:
        if name not in shapes:
            raise GraphError(_("the shape of tensor {name} cannot be inferred").format(
                name=name))
    inputs = (set(fed) if fed is not None else
              {i.name for i in ig.input} - {t.name for t in graph.initializer})
    features = sum(align_up(_nbytes(shapes[v.name]), MEM_ALIGN) for v in ig.value_info)
    return Facts(shapes, max(features, MEM_ALIGN), weight,
                 _peak(graph, shapes, inputs), len(graph.node))


def open_axes(model) -> dict:
    """Each graph output's axes whose size the graph leaves open (it follows an input's open
    dim: --input_shape_range), from shape inference with the open dims kept symbolic."""
    from onnx import shape_inference

    inferred = shape_inference.infer_shapes(skeleton(model), data_prop=True)
    return {o.name: tuple(k for k, d in enumerate(o.type.tensor_type.shape.dim)
                          if not d.HasField("dim_value")) for o in inferred.graph.output}


def _shape(vi, maker=None) -> tuple:
    """(dims, aclDataType) of a tensor; GraphError if a dim is unknown: for an input, fix it
    with --input_shape; for a tensor a node makes (``maker``), it depends on the data."""
    t = vi.type.tensor_type
    dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim)
    if (not t.HasField("shape") or -1 in dims) and maker is not None:
        raise GraphError(_("the shape of tensor {name} ({dims}, made by {optype} node "
                           "{node}) depends on the data, so it is known only when the model "
                           "runs; acl_lab builds offline models with static shapes. Replace "
                           "the operator, or compute it on the host.").format(
                               name=vi.name, dims=list(dims), optype=maker.op_type,
                               node=maker.name or vi.name))
    if not t.HasField("shape") or -1 in dims:
        raise GraphError(_('{name} has a dynamic shape {dims}; fix it with '
                           '--input_shape="{name}:..." (acl_lab builds static models '
                           'only).').format(name=vi.name, dims=list(dims)), node=vi.name)
    dtype = ACL_DTYPE.get(t.elem_type)
    if dtype is None:
        raise GraphError(_("tensor {name} has ONNX element type {type}, which acl_lab does "
                           "not support.").format(name=vi.name, type=t.elem_type))
    return dims, dtype


def _nbytes(shape) -> int:
    dims, dtype = shape
    return math.prod(dims) * NUMPY_DTYPE[dtype]().itemsize


def _peak(graph, shapes, inputs) -> int:
    """Host RAM an execution holds at its peak: the inputs fed, then node by node the
    tensors still to be read plus the node's outputs and its scratch (a convolution unfolds
    its input, im2col). Each tensor is freed after its last reader, as the runtimes do."""
    produced = {o for node in graph.node for o in node.output}
    last = {}
    for i, node in enumerate(graph.node):
        for name in node.input:
            last[name] = i
    for o in graph.output:
        last[o.name] = len(graph.node)
    live = sum(_nbytes(shapes[n]) for n in inputs) * 2       # the fed copies and their cast
    peak = live
    for i, node in enumerate(graph.node):
        out = sum(_nbytes(shapes[o]) for o in node.output if o in shapes)
        peak = max(peak, live + out + _scratch(node, shapes))
        live += out
        live -= sum(_nbytes(shapes[n]) for n in set(node.input)
                    if last.get(n) == i and n in produced and n in shapes)
    outputs = sum(_nbytes(shapes[o.name]) for o in graph.output)
    return peak + outputs                                    # the copies written back


def _scratch(node, shapes) -> int:
    if node.op_type != "Conv" or len(node.input) < 2 or node.output[0] not in shapes:
        return 0
    (wdims, dtype), (odims, _) = shapes[node.input[1]], shapes[node.output[0]]
    return math.prod(wdims[1:]) * math.prod(odims[2:]) * NUMPY_DTYPE[dtype]().itemsize


def widest(per_gear: list) -> Facts:
    """The Facts of a model with gears, from each gear's: every tensor at its largest shape
    among the gears (the first such gear's: what its buffer is sized for), the largest work
    size and execution peak."""
    first = per_gear[0]
    shapes = {name: max((f.shapes[name] for f in per_gear), key=lambda s: math.prod(s[0]))
              for name in first.shapes}
    return Facts(shapes, max(f.work_size for f in per_gear), first.weight_size,
                 max(f.peak_bytes for f in per_gear), first.nodes)


def verify(m) -> Facts:
    """Check an .om's graph against its header (what atc would have written for it): the
    operators, the data, every shape (every gear's, for a dynamic model), the inputs' and
    outputs' names, dims and types, and the work and weight sizes. Its Facts (over every
    gear: widest); GraphError says what differs."""
    from acl_lab.om.dynamic import mbatch_desc

    model = parse(m.onnx_bytes)
    weights = {t.name for t in model.graph.initializer}
    graph_inputs = [i.name for i in model.graph.input if i.name not in weights]
    inputs, gears = m.inputs, m.dynamic
    if gears is not None:
        if inputs[-1] != mbatch_desc(len(gears.gears[0])):
            raise GraphError(_("the header's {kind} {header} are not the graph's "
                               "{graph}").format(kind="inputs", header=[t.name for t in inputs],
                                                 graph=graph_inputs))
        inputs = inputs[:-1]
    if inputs and inputs[-1].name == ACL_DYNAMIC_AIPP_NAME:   # dynamic AIPP's parameters
        inputs = inputs[:-1]
    before = {a.input: a.network for a in m.aipp}     # AIPP feeds these network inputs
    inputs = tuple(before.get(t.name, t) for t in inputs)
    opened = {t.name: t.dims for t in inputs if gears is not None and t.name in gears.axes}
    ranges = m.ranges
    opened.update({n: ranges.probe(n) for n in (ranges.inputs if ranges else ())})
    for vi in model.graph.input:      # a gear's axes, a range's open dims: open in the graph
        if vi.name in opened:
            declared = tuple(d.dim_value if d.HasField("dim_value") else -1
                             for d in vi.type.tensor_type.shape.dim)
            owner = gears if gears is not None else ranges
            _same(vi.name, owner.reported(vi.name, opened[vi.name]), 0, (declared, 0))
    if ranges is not None:
        if open_axes(model) != {t.name: ranges.outputs.get(t.name, ()) for t in m.outputs}:
            raise GraphError(_("the header's open output axes {header} are not the "
                               "graph's").format(header=ranges.outputs))
        facts = inspect(model, opened)
    elif gears is None:
        facts = inspect(model)
    else:
        per_gear = [inspect(model, {n: gears.dims(n, d, g) for n, d in opened.items()})
                    for g in gears.gears]
        for f, outs in zip(per_gear, gears.outputs):
            for t, dims in zip(m.outputs, outs):
                _same(t.name, dims, t.onnx_dtype, f.shapes[t.name])
        facts = widest(per_gear)
    for kind, descs, names in (("inputs", inputs, graph_inputs),
                               ("outputs", m.outputs, [o.name for o in model.graph.output])):
        if [t.name for t in descs] != names:
            raise GraphError(_("the header's {kind} {header} are not the graph's "
                               "{graph}").format(kind=kind, header=[t.name for t in descs],
                                                 graph=names))
        for t in descs:
            _same(t.name, t.dims, t.onnx_dtype, facts.shapes[t.name])
    if (m.work_size, m.weight_size, m.nodes) != (facts.work_size, facts.weight_size,
                                                 facts.nodes):
        raise GraphError(_("the header's sizes (work {work} B, weight {weight} B, {nodes} "
                           "nodes) are not the graph's ({graph_work} B, {graph_weight} B, "
                           "{graph_nodes})").format(
                               work=m.work_size, weight=m.weight_size, nodes=m.nodes,
                               graph_work=facts.work_size, graph_weight=facts.weight_size,
                               graph_nodes=facts.nodes))
    return replace(facts, ops=node_ops(model.graph))


def _same(name: str, dims: tuple, dtype: int, graph: tuple) -> None:
    if (tuple(dims), dtype) != graph:
        raise GraphError(_("the header says {name} is {dims} of type {dtype}; the graph says "
                           "{graph_dims} of type {graph_dtype}").format(
                               name=name, dims=list(dims), dtype=dtype,
                               graph_dims=list(graph[0]), graph_dtype=graph[1]))

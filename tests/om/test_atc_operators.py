"""`acl-lab atc` converts the ONNX operators ATC's parser converts (CANN 8.0.0's ONNX
operator list, om/onnx_ops.py) and the simulator runs them as onnxruntime does: the
operators the official samples' and ModelZoo's models use, each in a model built here."""
from __future__ import annotations

import io

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from acl_lab import constants as C
from acl_lab.om import atc
from acl_lab.om import container as om
from acl_lab.om import graph as om_graph
from modelhelpers import Loaded

F, I64 = TensorProto.FLOAT, TensorProto.INT64
OPSET = 17


def _model(nodes, inputs, outputs, inits=(), opset=OPSET):
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, t, s)
                                           for n, t, s in inputs],
                              [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs],
                              [numpy_helper.from_array(np.asarray(v), n) for n, v in inits])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _convert(tmp_path, model, *flags):
    src = tmp_path / "m.onnx"
    src.write_bytes(model.SerializeToString())
    out = io.StringIO()
    code = atc.main([f"--model={src}", "--framework=5", f"--output={tmp_path / 'm'}",
                     "--soc_version=Ascend910B3", *flags], out=out)
    return code, out.getvalue(), tmp_path / "m.om"


def _run(acl, path, feeds):
    """Load the .om, feed ``feeds`` (arrays in input order), execute: the outputs."""
    m = Loaded(acl, path)
    for i, x in enumerate(feeds):
        m.feed(x, i)
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0, acl.get_recent_err_msg()
    descs = om.read(path).outputs
    return [m.result(i, om.NUMPY_DTYPE[d.dtype]) for i, d in enumerate(descs)]


def _onnxruntime(model, feeds):
    import onnxruntime
    s = onnxruntime.InferenceSession(model.SerializeToString(),
                                     providers=["CPUExecutionProvider"])
    return s.run(None, {i.name: x for i, x in zip(s.get_inputs(), feeds)})


def _same_as_onnxruntime(acl, tmp_path, model, *feeds):
    code, out, path = _convert(tmp_path, model)
    assert code == 0, out
    got = _run(acl, path, feeds)
    for g, want in zip(got, _onnxruntime(model, feeds)):
        np.testing.assert_array_equal(g, want)
    return got


RNG = np.random.default_rng(7)
X45 = RNG.standard_normal((4, 5)).astype(np.float32)


@pytest.mark.parametrize("name, nodes, outputs, inits", [
    ("Gather", [helper.make_node("Gather", ["x", "i"], ["y"], axis=1)], [("y", F, [4, 3])],
     [("i", np.array([4, 0, 2], np.int64))]),
    ("GatherElements", [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=0)],
     [("y", F, [2, 5])], [("i", np.array([[3, 2, 1, 0, 0], [0, 1, 2, 3, 3]], np.int64))]),
    ("ReduceSum", [helper.make_node("ReduceSum", ["x", "a"], ["y"], keepdims=0)],
     [("y", F, [4])], [("a", np.array([1], np.int64))]),
    ("ReduceMean", [helper.make_node("ReduceMean", ["x"], ["y"], axes=[0], keepdims=1)],
     [("y", F, [1, 5])], []),
    ("ReduceMax", [helper.make_node("ReduceMax", ["x"], ["y"], axes=[1], keepdims=0)],
     [("y", F, [4])], []),
    ("Where", [helper.make_node("Greater", ["x", "z"], ["c"]),
               helper.make_node("Where", ["c", "x", "z"], ["y"])], [("y", F, [4, 5])],
     [("z", np.float32(0.25))]),
    ("Expand", [helper.make_node("Slice", ["x", "s", "e", "ax"], ["col"]),
                helper.make_node("Expand", ["col", "shape"], ["y"])], [("y", F, [2, 4, 3])],
     [("s", np.array([0], np.int64)), ("e", np.array([1], np.int64)),
      ("ax", np.array([1], np.int64)), ("shape", np.array([2, 4, 3], np.int64))]),
    ("Tile", [helper.make_node("Tile", ["x", "r"], ["y"])], [("y", F, [8, 15])],
     [("r", np.array([2, 3], np.int64))]),
    ("Pad", [helper.make_node("Pad", ["x", "p"], ["y"], mode="reflect")], [("y", F, [6, 7])],
     [("p", np.array([1, 1, 1, 1], np.int64))]),
    ("Split", [helper.make_node("Split", ["x", "parts"], ["y", "w"], axis=1)],
     [("y", F, [4, 2]), ("w", F, [4, 3])], [("parts", np.array([2, 3], np.int64))]),
    ("Slice", [helper.make_node("Slice", ["x", "s", "e", "ax", "st"], ["y"])],
     [("y", F, [2, 3])], [("s", np.array([3, 0], np.int64)), ("e", np.array([0, 5], np.int64)),
                          ("ax", np.array([0, 1], np.int64)),
                          ("st", np.array([-2, 2], np.int64))]),
    ("LayerNormalization", [helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"],
                                             axis=-1, epsilon=1e-5)], [("y", F, [4, 5])],
     [("g", np.linspace(0.5, 1.5, 5, dtype=np.float32)), ("b", np.full(5, 0.1, np.float32))]),
    ("Einsum", [helper.make_node("Einsum", ["x", "w"], ["y"], equation="ij,jk->ik")],
     [("y", F, [4, 3])], [("w", RNG.standard_normal((5, 3)).astype(np.float32))]),
    ("TopK", [helper.make_node("TopK", ["x", "k"], ["y", "i"], axis=1)],
     [("y", F, [4, 2]), ("i", I64, [4, 2])], [("k", np.array([2], np.int64))]),
    ("CumSum", [helper.make_node("CumSum", ["x", "ax"], ["y"])], [("y", F, [4, 5])],
     [("ax", np.array(1, np.int64))]),
])
def test_each_operator_converts_and_computes_what_onnxruntime_computes(
        acl, tmp_path, name, nodes, outputs, inits):
    model = _model(nodes, [("x", F, [4, 5])], outputs, inits)
    _same_as_onnxruntime(acl, tmp_path, model, X45)


def test_recurrent_layers_lstm_and_gru_run_as_onnxruntime_runs_them(acl, tmp_path):
    seq, batch, size, hidden = 6, 2, 4, 3
    inits = []
    for op, gates in (("LSTM", 4), ("GRU", 3)):
        inits += [(f"{op}_W", RNG.standard_normal((1, gates * hidden, size)).astype(np.float32)),
                  (f"{op}_R", RNG.standard_normal((1, gates * hidden, hidden)).astype(
                      np.float32)),
                  (f"{op}_B", RNG.standard_normal((1, 2 * gates * hidden)).astype(np.float32))]
    model = _model(
        [helper.make_node("LSTM", ["x", "LSTM_W", "LSTM_R", "LSTM_B"], ["ly", "lh", "lc"],
                          hidden_size=hidden),
         helper.make_node("GRU", ["x", "GRU_W", "GRU_R", "GRU_B"], ["gy", "gh"],
                          hidden_size=hidden, linear_before_reset=1)],
        [("x", F, [seq, batch, size])],
        [("ly", F, [seq, 1, batch, hidden]), ("lh", F, [1, batch, hidden]),
         ("lc", F, [1, batch, hidden]), ("gy", F, [seq, 1, batch, hidden]),
         ("gh", F, [1, batch, hidden])], inits)
    x = RNG.standard_normal((seq, batch, size)).astype(np.float32)
    ly, *_ = _same_as_onnxruntime(acl, tmp_path, model, x)
    assert ly.shape == (seq, 1, batch, hidden)


def test_a_reshape_to_a_shape_computed_from_the_input_converts(acl, tmp_path):
    """PyTorch's export of x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat ->
    Reshape. The target shape is data, known only by propagating the input's shape."""
    model = _model(
        [helper.make_node("Shape", ["x"], ["s"]),
         helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
         helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
         helper.make_node("Concat", ["n1", "minus1"], ["target"], axis=0),
         helper.make_node("Reshape", ["x", "target"], ["y"])],
        [("x", F, [2, 3, 4])], [("y", F, ["n", "m"])],
        [("zero", np.array(0, np.int64)), ("axes", np.array([0], np.int64)),
         ("minus1", np.array([-1], np.int64))])
    code, out, path = _convert(tmp_path, model)
    assert code == 0, out
    assert om.read(path).outputs[0].dims == (2, 12)
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_array_equal(_run(acl, path, [x])[0], x.reshape(2, 12))


def test_resize_by_float_scales_converts(acl, tmp_path):
    model = _model([helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest")],
                   [("x", F, [1, 1, 4, 5])], [("y", F, ["n", "c", "h", "w"])],
                   [("scales", np.array([1, 1, 2, 2], np.float32))])
    x = RNG.standard_normal((1, 1, 4, 5)).astype(np.float32)
    y, = _same_as_onnxruntime(acl, tmp_path, model, x)
    assert y.shape == (1, 1, 8, 10)


def test_an_if_runs_the_branch_its_condition_picks(acl, tmp_path):
    def branch(op):
        return helper.make_graph([helper.make_node(op, ["x"], [f"{op}_y"])], op, [],
                                 [helper.make_tensor_value_info(f"{op}_y", F, [4, 5])])
    model = _model([helper.make_node("ReduceSum", ["x"], ["total"], keepdims=0),
                    helper.make_node("Greater", ["total", "zero"], ["positive"]),
                    helper.make_node("If", ["positive"], ["y"], then_branch=branch("Relu"),
                                     else_branch=branch("Neg"))],
                   [("x", F, [4, 5])], [("y", F, [4, 5])], [("zero", np.float32(0))])
    for x in (np.abs(X45), -np.abs(X45)):
        _same_as_onnxruntime(acl, tmp_path, model, x)


def test_random_operators_get_a_seed_so_a_program_prints_the_same_numbers_each_run(
        acl, tmp_path):
    model = _model([helper.make_node("RandomNormalLike", ["x"], ["y"])],
                   [("x", F, [4, 5])], [("y", F, [4, 5])])
    code, out, path = _convert(tmp_path, model)
    assert code == 0, out
    first = _run(acl, path, [X45])[0]
    again = _run(acl, path, [X45])[0]         # a second load: the sequence starts over
    np.testing.assert_array_equal(first, again)
    m = Loaded(acl, path)
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    one = m.result()
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    assert not np.array_equal(one, m.result())     # each execution draws new numbers
    # an .om whose random operator lost its seed (edited) is not loaded
    sk = om_graph.parse(om.read(path).onnx_bytes)
    del sk.graph.node[0].attribute[:]
    with pytest.raises(om_graph.GraphError, match="no seed"):
        om_graph.check_ops(sk.graph)


@pytest.mark.parametrize("op, domain", [("Gelu", ""), ("Upsample", ""),
                                        ("QuantizeLinear", ""), ("Relu", "com.microsoft")])
def test_what_atcs_onnx_parser_does_not_convert_is_refused_as_atc_refuses_it(
        tmp_path, op, domain):
    node = helper.make_node(op, ["x"], ["y"], domain=domain, name="n1")
    model = _model([node], [("x", F, [4, 5])], [("y", F, [4, 5])])
    code, out, _ = _convert(tmp_path, model)
    assert code == 1
    assert f"E19010: No parser is registered for Op [n1, optype [{op}]]." in out
    assert out.strip().endswith(atc.FAILED)


def test_an_operator_whose_output_shape_depends_on_the_data_is_refused_with_why(tmp_path):
    model = _model([helper.make_node("NonZero", ["x"], ["y"])], [("x", F, [4, 5])],
                   [("y", I64, [2, "k"])])
    code, out, _ = _convert(tmp_path, model)
    assert code == 1
    assert "depends on the data" in out and "y" in out


def test_the_operator_list_is_atcs(tmp_path):
    from acl_lab.om.onnx_ops import RANDOM, SUPPORTED, WITH_SUBGRAPHS
    assert RANDOM <= SUPPORTED and WITH_SUBGRAPHS <= SUPPORTED
    assert len(SUPPORTED) == 149
    assert {"Gather", "ReduceSum", "Where", "LSTM", "GRU", "LayerNormalization",
            "Einsum"} <= SUPPORTED
    assert not {"Loop", "Scan", "Gelu", "Upsample", "QuantizeLinear"} & SUPPORTED

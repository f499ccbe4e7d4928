"""Small ONNX models the acl.mdl contract tests convert with `acl-lab atc` for the SoC they
run on, and a snapshot of the model state a refused call must leave as it was."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from acl_lab.om import atc

F = TensorProto.FLOAT
W = np.arange(12, dtype=np.float32).reshape(4, 3) / 10


def _save(path: Path, graph) -> Path:
    path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    return path


def seq(path: Path) -> Path:
    """x [N, T, 4] -> MatMul -> y [N, T, 3]: a sequence model's shape."""
    return _save(path, helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "seq",
        [helper.make_tensor_value_info("x", F, ["N", "T", 4])],
        [helper.make_tensor_value_info("y", F, ["N", "T", 3])],
        [numpy_helper.from_array(W, "w")]))


def image(path: Path) -> Path:
    """x [1, 3, 16, 16] -> Relu -> y: an image input AIPP can feed."""
    return _save(path, helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "img",
        [helper.make_tensor_value_info("x", F, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", F, [1, 3, 16, 16])]))


def convert(folder: Path, builder, soc: str, *flags: str, name: str = "m") -> Path:
    """`acl-lab atc` of ``builder``'s model for ``soc``; the .om's path (the run must pass)."""
    src = builder(folder / f"{name}.onnx")
    out = io.StringIO()
    code = atc.main([f"--model={src}", "--framework=5", f"--output={folder / name}",
                     f"--soc_version={soc}", *flags], out=out)
    assert code == 0, out.getvalue()
    return folder / f"{name}.om"


def buffers(acl, sizes) -> list[int]:
    out = []
    for n in sizes:
        ptr, ret = acl.rt.malloc(max(n, 1), 0)
        assert ret == 0, acl.get_recent_err_msg()
        out.append(ptr)
    return out


def dataset(acl, ptrs, sizes) -> int:
    ds = acl.mdl.create_dataset()
    for ptr, n in zip(ptrs, sizes):
        _, ret = acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, n))
        assert ret == 0, acl.get_recent_err_msg()
    return ds


class Model:
    """A loaded model, its description, one device buffer per input and output in datasets."""

    def __init__(self, acl, path):
        self.acl = acl
        self.id, ret = acl.mdl.load_from_file(str(path))
        assert ret == 0, acl.get_recent_err_msg()
        self.desc = acl.mdl.create_desc()
        assert acl.mdl.get_desc(self.desc, self.id) == 0
        self.in_sizes = [acl.mdl.get_input_size_by_index(self.desc, i)
                         for i in range(acl.mdl.get_num_inputs(self.desc))]
        self.out_sizes = [acl.mdl.get_output_size_by_index(self.desc, i)
                          for i in range(acl.mdl.get_num_outputs(self.desc))]
        self.inputs, self.outputs = buffers(acl, self.in_sizes), buffers(acl, self.out_sizes)
        self.in_ds = dataset(acl, self.inputs, self.in_sizes)
        self.out_ds = dataset(acl, self.outputs, self.out_sizes)

    def put(self, index: int, array) -> None:
        data = np.ascontiguousarray(array)
        assert self.acl.rt.memcpy(self.inputs[index], data.nbytes,
                                  self.acl.util.numpy_to_ptr(data), data.nbytes, 1) == 0

    def get(self, index: int, count: int, dtype=np.float32) -> np.ndarray:
        host = np.empty(count, dtype)
        assert self.acl.rt.memcpy(self.acl.util.numpy_to_ptr(host), host.nbytes,
                                  self.outputs[index], host.nbytes, 2) == 0
        return host

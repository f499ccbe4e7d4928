"""Helpers the offline-model tests share: sample models converted by acl-lab atc, and the
usual load -> buffers -> datasets steps of an inference program."""
from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np

from acl_lab import sample_models
from acl_lab.om import atc
from acl_lab import constants as C
from simhelpers import device_buffer

SOC = "Ascend910B3"


def convert(folder: Path, name: str, *flags: str, soc: str = SOC) -> tuple[int, str, Path]:
    """Run `acl-lab atc` on sample ``name`` in ``folder``: (exit code, output, .om path)."""
    onnx_path = sample_models.write(name, folder)
    out = io.StringIO()
    target = folder / re.sub(r"\W+", "_", "_".join((name, soc) + flags))
    code = atc.main([f"--model={onnx_path}", "--framework=5", f"--output={target}",
                     f"--soc_version={soc}", *flags], out=out)
    return code, out.getvalue(), Path(f"{target}.om")


def dataset(acl, *ptr_sizes) -> int:
    ds = acl.mdl.create_dataset()
    for ptr, size in ptr_sizes:
        _, ret = acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
        assert ret == 0
    return ds


class Loaded:
    """A model loaded from ``om_path`` with its description and one device buffer per
    input and output, in datasets ready to execute."""

    def __init__(self, acl, om_path):
        self.acl = acl
        self.model_id, ret = acl.mdl.load_from_file(str(om_path))
        assert ret == 0, acl.get_recent_err_msg()
        self.desc = acl.mdl.create_desc()
        assert acl.mdl.get_desc(self.desc, self.model_id) == 0
        self.in_sizes = [acl.mdl.get_input_size_by_index(self.desc, i)
                         for i in range(acl.mdl.get_num_inputs(self.desc))]
        self.out_sizes = [acl.mdl.get_output_size_by_index(self.desc, i)
                          for i in range(acl.mdl.get_num_outputs(self.desc))]
        self.inputs = [device_buffer(acl, n) for n in self.in_sizes]
        self.outputs = [device_buffer(acl, n) for n in self.out_sizes]
        self.in_ds = dataset(acl, *zip(self.inputs, self.in_sizes))
        self.out_ds = dataset(acl, *zip(self.outputs, self.out_sizes))

    def feed(self, array: np.ndarray, index: int = 0) -> None:
        data = np.ascontiguousarray(array)
        assert data.nbytes == self.in_sizes[index]
        assert self.acl.rt.memcpy(self.inputs[index], data.nbytes,
                                  self.acl.util.numpy_to_ptr(data), data.nbytes,
                                  C.ACL_MEMCPY_HOST_TO_DEVICE) == 0

    def result(self, index: int = 0, dtype=np.float32) -> np.ndarray:
        n = self.out_sizes[index]
        host = np.empty(n // np.dtype(dtype).itemsize, dtype)
        assert self.acl.rt.memcpy(self.acl.util.numpy_to_ptr(host), n, self.outputs[index], n,
                                  C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        dims, ret = self.acl.mdl.get_output_dims(self.desc, index)
        assert ret == 0
        return host.reshape(dims["dims"])


def reference(name: str, array: np.ndarray) -> np.ndarray:
    """Sample ``name`` run directly by onnxruntime on ``array`` (the ground truth: what the
    simulator's executor must reproduce bit for bit)."""
    import onnxruntime

    m = sample_models.model(name)
    session = onnxruntime.InferenceSession(m.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    return session.run(None, {m.graph.input[0].name: array})[0]

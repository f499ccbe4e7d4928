"""What computes an offline model: onnxruntime where it is installed, else onnx's reference
evaluator (Pyodide has no onnxruntime build; it is also 30-100x slower).

A session is built once, at load, from the graph's bytes; ``run(feed)`` gives the outputs in
graph order. onnxruntime keeps its CPU memory arena (without it a ResNet-50 runs ~20% slower):
the arena holds an execution's tensors between runs, so a loaded model's budget counts them
(sim/model.py), and its logging is quiet (its warnings would land in notebook outputs).
"""
from __future__ import annotations


def engine() -> str:
    """"onnxruntime" or "onnx reference evaluator": what executes models here."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return "onnx reference evaluator"
    return "onnxruntime"


class Session:
    """One loaded model's executor."""

    def __init__(self, onnx_bytes: bytes):
        try:
            import onnxruntime as ort
        except ImportError:
            import onnx
            from onnx.reference import ReferenceEvaluator
            self._run = ReferenceEvaluator(onnx.load_from_string(onnx_bytes)).run
            return
        options = ort.SessionOptions()
        options.log_severity_level = 3           # errors only
        options.inter_op_num_threads = 1
        s = ort.InferenceSession(onnx_bytes, options, providers=["CPUExecutionProvider"])
        s.disable_fallback()
        s._model_bytes = None     # it keeps the bytes only to rebuild itself, which we never do
        self._run = s.run

    def run(self, feed: dict) -> list:
        return self._run(None, feed)

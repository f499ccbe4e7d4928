"""The offline model: the .om container `acl-lab atc` writes and acl.mdl loads, and what
computes it. The simulator reads models through this room; nothing here imports it.

    container.py     the .om file: header, tensor descriptions, the graph bytes
    graph.py         the checks atc and the loader make on an ONNX graph
    aipp.py          static AIPP (colour conversion, crop, normalisation before an input)
    aipp_dynamic.py  dynamic AIPP: the parameters an input takes at run time
    dynamic.py       dynamic batch / image size gears
    node_ops.py      the graph's operators as a profiler names them
    bundle.py        bundle files: several .om in one (aclmdlBundleLoadFromFile)
    executor.py      what runs a model: onnxruntime (onnx's reference evaluator without it)
    atc.py           `acl-lab atc`: ONNX -> .om, and --singleop descriptions -> op models
    op_model.py      a single operator's compiled model (acl.op)
    op_compile.py    compiling a --singleop JSON description into op models
    op_kernels.py    numpy kernels of the single operators
"""

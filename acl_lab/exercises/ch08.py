"""Chapter 08 exercises: model memory the application manages, outputs prepared from the
model description, and results collected by a callback in stream order.

Each setup builds what its exercise works on in the fresh process ``exercises.start`` opens;
the digits model is converted first if the chapter's ``models/digits.om`` is not there yet
(a restart with only the first cell run, a fresh checkout).
"""
from __future__ import annotations

import io
import threading
from collections.abc import Collection
from pathlib import Path

import numpy as np

import acl_lab
from acl_lab import constants as C

from acl_lab.errors import explain
from acl_lab.i18n import _
from acl_lab.spec.callback_rules import forbidden_in_callback
from acl_lab.spec.prototypes import PROTOTYPES
from acl_lab.trace import untraced
from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name, released_by

#: Where chapter 08 converts its digits model (relative to the notebook), and the images
#: exercise 08.3 classifies.
DIGITS_OM = "models/digits.om"
CALLBACK_DIGITS = (2, 6, 8)


def digits_model(acl) -> str:
    """DIGITS_OM, converted with `acl-lab atc` for this device if it is missing."""
    if not Path(DIGITS_OM).is_file():
        from acl_lab import sample_models
        from acl_lab.om import atc
        onnx_path = sample_models.write("digits", Path(DIGITS_OM).parent)
        out = io.StringIO()
        code = atc.main([f"--model={onnx_path}", "--framework=5",
                         f"--output={DIGITS_OM[:-3]}", f"--soc_version={acl.get_soc_name()}"],
                        out=out)
        if code != 0:
            raise RuntimeError(out.getvalue())
    return DIGITS_OM


def _device_block(ptr: int, size: int) -> dict | None:
    """The live device allocation holding [ptr, ptr + size), if any."""
    return next((a for a in acl_lab.snapshot()["allocations"]
                 if a["location"] == "device" and a["ptr"] <= ptr
                 and ptr + size <= a["ptr"] + a["size"]), None)


def _last_call(name: str):
    return next((c for c in reversed(calls_since_start()) if c.name == name), None)


@exercise("08.1", "Model memory you manage",
          "Here ACL allocates nothing for the model: you do. Before loading, the model file "
          "can tell you how much memory it needs, and of which two kinds (section 5).",
          level="medium",
          more=("acl.mdl.query_size(model_path) returns the work size, the weight size and "
                "ret. Allocate a device block of each size yourself; section 5's loading "
                "call takes your pointers and sizes and returns (model_id, ret).",
                "acl.mdl.query_size(model_path) returns the work size, the weight size "
                "and ret. Allocate each with acl.rt.malloc on the device, then "
                "acl.mdl.load_from_file_with_mem with the path, the work pointer and "
                "size, the weight pointer and size: it returns (model_id, ret); keep "
                "the id as digits_id.",),
          setup=digits_model,
          solution="""
          work_size, weight_size, ret = acl.mdl.query_size(model_path)   # what the model needs
          work, ret = acl.rt.malloc(work_size, ACL_MEM_MALLOC_HUGE_FIRST)
          weight, ret = acl.rt.malloc(weight_size, ACL_MEM_MALLOC_HUGE_FIRST)
          digits_id, ret = acl.mdl.load_from_file_with_mem(model_path, work, work_size, weight, weight_size)
          acl_lab.check(ret)                  # the memory stays yours: unload does not free it
          """)
def app_managed(acl, digits_id):
    model_id, name = digits_id, learner_name(digits_id, "digits_id")
    if isinstance(model_id, tuple):
        raise NotYet(_("{name} is the whole (model_id, ret) tuple: unpack it, {name}, ret = "
                       "acl.mdl.load_from_file_with_mem(...).").format(name=name))
    entry = next((m for m in acl_lab.snapshot().get("offline_models", [])
                  if m["model_id"] == model_id), None)
    if entry is None:
        load = _last_call("mdl.load_from_file_with_mem")
        if load is not None and load.ret != 0:
            raise NotYet(_("your acl.mdl.load_from_file_with_mem returned {ret}: "
                           "{meaning}").format(ret=load.ret, meaning=explain(load.ret)))
        if released_by(model_id) is not None:
            raise NotYet(_("model {model} was unloaded (acl.mdl.unload): check it while it is "
                           "loaded.").format(model=model_id))
        raise NotYet(_("{name} = {model} is not a loaded model: pass the model_id "
                       "acl.mdl.load_from_file_with_mem returned.").format(
            name=name, model=repr(model_id)))
    if entry["memory"] != "app":
        raise NotYet(_("model {model} runs on memory ACL allocated ({memory}): pass your own "
                       "work and weight pointers to load_from_file_with_mem.").format(
            model=model_id, memory=entry["memory"]))
    for part, missing in (("work", _("the work memory is not a live device allocation of "
                                     "{size} B.")),
                          ("weight", _("the weight memory is not a live device allocation of "
                                       "{size} B."))):
        if _device_block(entry[f"{part}_ptr"], entry[f"{part}_size"]) is None:
            raise NotYet(missing.format(size=entry[f"{part}_size"]))
    return _("model {model} uses your {work} B of work memory and {weight} B of weights; "
             "acl.mdl.unload will leave them to you.").format(
        model=model_id, work=entry["work_size"], weight=entry["weight_size"])


def _loaded(acl):
    """The digits model loaded with memory ACL manages, and its description."""
    model_id, ret = acl.mdl.load_from_file(digits_model(acl))
    acl_lab.check(ret)
    desc = acl.mdl.create_desc()
    acl_lab.check(acl.mdl.get_desc(desc, model_id))
    return model_id, desc


@exercise("08.2", "Outputs from the description",
          "The model description knows how many outputs the model has and how many bytes "
          "each needs: one device buffer per output, each wrapped in a data buffer, all in "
          "one dataset, in index order.",
          level="medium",
          more=("Create the dataset with acl.mdl.create_dataset(); for each output "
                "index i below acl.mdl.get_num_outputs(desc), take "
                "acl.mdl.get_output_size_by_index(desc, i) bytes with acl.rt.malloc, "
                "wrap them with acl.create_data_buffer and add that with "
                "acl.mdl.add_dataset_buffer, which returns (dataset, ret).",),
          setup=_loaded,
          solution="""
          out_ds = acl.mdl.create_dataset()
          for i in range(acl.mdl.get_num_outputs(desc)):
              size = acl.mdl.get_output_size_by_index(desc, i)      # bytes output i needs
              ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)   # the model writes device memory
              out_ds, ret = acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(ptr, size))
          """)
def output_dataset(acl, desc: int, out_ds):
    mdl, dataset = acl.mdl, out_ds
    name = learner_name(out_ds, "out_ds")
    if isinstance(out_ds, tuple):
        raise NotYet(_("{name} is the whole (dataset, ret) tuple that add_dataset_buffer "
                       "returns: unpack it, {name}, ret = acl.mdl.add_dataset_buffer(...).").format(
            name=name))
    outputs = untraced(mdl.get_num_outputs)(desc)
    if outputs == 0:        # every model has an output: desc describes none
        raise NotYet(_("desc describes no model: pass the description acl.mdl.get_desc(desc, "
                       "model_id) filled."))
    held = untraced(mdl.get_dataset_num_buffers)(dataset)
    if held != outputs:
        raise NotYet(_("{name} holds {held} buffer(s) but the model has {outputs} output(s) "
                       "(acl.mdl.get_num_outputs(desc)): one buffer per output.").format(
            name=name, held=held, outputs=outputs))
    for i in range(outputs):
        buf = untraced(mdl.get_dataset_buffer)(dataset, i)
        addr = untraced(acl.get_data_buffer_addr)(buf)
        size = untraced(acl.get_data_buffer_size_v2)(buf)
        need = untraced(mdl.get_output_size_by_index)(desc, i)
        if size < need:
            raise NotYet(_("buffer {i} says {size} B, but output {i} needs {need} B: use "
                           "acl.mdl.get_output_size_by_index(desc, {i}).").format(
                i=i, size=size, need=need))
        if _device_block(addr, need) is None:
            raise NotYet(_("buffer {i} points at {addr}, which is not {need} B of live device "
                           "memory. The model writes device memory: acl.rt.malloc it.").format(
                i=i, addr=f"0x{addr:x}", need=need))
    return _("{outputs} output buffer(s), each sized from the description, on the "
             "device.").format(outputs=outputs)


def _serve(args):
    """The callback worker: runs reports until its flag is set (or its process ends). Its
    own polling stays out of the learner's trace; the callbacks it runs do not."""
    acl, context, done = args
    untraced(acl.rt.set_context)(context)
    process_report = untraced(acl.rt.process_report)
    try:
        while not done.is_set():
            process_report(20)
    except SystemExit:          # the simulated process it served ended: end with it
        return


#: The stop flag of the worker the last 08.3 setup started: the next setup stops it first
#: (the simulator ends it with its process anyway; real hardware does not).
_WORKER_STOP: list[threading.Event] = []


def _by_callback(acl):
    """The chapter's section 8: the model, its datasets, a stream with a worker thread
    subscribed to it, and one pinned buffer per image."""
    model_id, desc = _loaded(acl)
    in_size = acl.mdl.get_input_size_by_index(desc, 0)
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    dev = {}
    for name, size in (("in", in_size), ("out", out_size)):
        dev[name], ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
        acl_lab.check(ret)
    datasets = {}
    for name, size in (("in", in_size), ("out", out_size)):
        datasets[name] = acl.mdl.create_dataset()
        _ds, ret = acl.mdl.add_dataset_buffer(datasets[name],
                                              acl.create_data_buffer(dev[name], size))
        acl_lab.check(ret)
    out_host, ret = acl.rt.malloc_host(out_size)
    acl_lab.check(ret)
    context, ret = acl.rt.get_context()
    acl_lab.check(ret)
    stream, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    for done in _WORKER_STOP:
        done.set()
    _WORKER_STOP[:] = [threading.Event()]
    worker, ret = acl.util.start_thread(_serve, [acl, context, _WORKER_STOP[0]])
    acl_lab.check(ret)
    acl_lab.check(acl.rt.subscribe_report(worker, stream))
    from acl_lab import sample_models
    pinned = {}
    for d in CALLBACK_DIGITS:
        pinned[d], ret = acl.rt.malloc_host(in_size)
        acl_lab.check(ret)
        acl.util.ptr_to_numpy(pinned[d], (1, 1, 28, 28), np.dtype(np.float32).num)[:] = \
            sample_models.digit_image(d)
    return (model_id, stream, dev["in"], in_size, datasets["in"], dev["out"], out_size,
            datasets["out"], out_host, pinned, list(CALLBACK_DIGITS))


@exercise("08.3", "Results by callback",
          "Queue, per image, its copy into in_dev, the execution, the copy of the output "
          "into out_host and a blocking callback on stream, in that order; the callback (run "
          "by the worker thread subscribed to stream) only reads out_host and appends the "
          "recognised digit to answers. Wait for the stream before checking.",
          level="hard",
          more=("Name the callback collect(user_data): it reads the 10 scores from out_host "
                "and appends the index of the highest to answers; it makes no ACL call that "
                "allocates, frees, synchronizes or submits a task (aclrtLaunchCallback's "
                "constraints). Per digit, four calls on stream: acl.rt.memcpy_async from "
                "pinned[digit] into in_dev, acl.mdl.execute_async, acl.rt.memcpy_async from "
                "out_dev into out_host, acl.rt.launch_callback with ACL_CALLBACK_BLOCK; then "
                "synchronize stream.",),
          setup=_by_callback,
          solution="""
          def collect(user_data):                   # runs on the worker thread, in stream order
              answers.append(int(acl.util.ptr_to_numpy(out_host, (10,), NPY_FLOAT32).argmax()))

          for digit in digits:
              acl_lab.check(acl.rt.memcpy_async(in_dev, in_size, pinned[digit], in_size, ACL_MEMCPY_HOST_TO_DEVICE, stream))
              acl_lab.check(acl.mdl.execute_async(digits_id, in_ds, out_ds, stream))
              acl_lab.check(acl.rt.memcpy_async(out_host, out_size, out_dev, out_size, ACL_MEMCPY_DEVICE_TO_HOST, stream))
              acl_lab.check(acl.rt.launch_callback(collect, [digit], ACL_CALLBACK_BLOCK, stream))
          acl_lab.check(acl.rt.synchronize_stream(stream))   # every callback has run after this
          """)
def by_callback(acl, answers: Collection, digits: Collection):
    name = learner_name(answers, "answers")
    calls = calls_since_start()
    executed = sum(c.name == "mdl.execute_async" and c.ret == C.ACL_SUCCESS for c in calls)
    launched = [c for c in calls if c.name == "rt.launch_callback" and c.ret == C.ACL_SUCCESS]
    if executed < len(digits) or len(launched) < len(digits):
        raise NotYet(_("{executed} execute_async and {launched} launch_callback calls "
                       "succeeded; each of the {count} images needs both.").format(
            executed=executed, launched=len(launched), count=len(digits)))
    if any(s["pending"] for s in acl_lab.snapshot()["streams"]):
        raise NotYet(_("the executions and callbacks are queued but have not run: nothing "
                       "waited for the stream. Call acl.rt.synchronize_stream(stream) before "
                       "the check."))
    inside = sorted({c.name for c in calls if c.thread != "main" and c.name in PROTOTYPES
                     and forbidden_in_callback(PROTOTYPES[c.name].c_name or "")})
    if inside:
        raise NotYet(_("the callback called {calls}: a callback must not allocate, free, "
                       "synchronize or submit tasks (aclrtLaunchCallback's constraints; on "
                       "hardware it may fail or deadlock). Queue the copy of the output with "
                       "acl.rt.memcpy_async before acl.rt.launch_callback, and let the "
                       "callback only read out_host.").format(
                           calls=", ".join(inside)))
    if list(answers) == list(digits):
        return _("the callbacks read {answers}, in stream order.").format(answers=list(answers))
    sync_copies = sum(c.name == "rt.memcpy" and c.args[-1:] == (C.ACL_MEMCPY_HOST_TO_DEVICE,)
                      for c in calls)
    if sync_copies:
        raise NotYet(_("{name} is {answers}, but the images show {digits}: a synchronous "
                       "acl.rt.memcpy into in_dev does not wait for the stream, so every "
                       "queued execution saw the last image. Copy each image with "
                       "acl.rt.memcpy_async on stream.").format(
            name=name, answers=list(answers), digits=list(digits)))
    if any(c.args[2:3] != (C.ACL_CALLBACK_BLOCK,) for c in launched):
        raise NotYet(_("{name} is {answers}, but the images show {digits}: a callback that "
                       "does not block lets the next execution overwrite the output before it "
                       "is read. Launch each with ACL_CALLBACK_BLOCK.").format(
            name=name, answers=list(answers), digits=list(digits)))
    raise NotYet(_("{name} is {answers}, but the images show {digits}. Did every callback "
                   "read the output of its own execution, and append one digit?").format(
        name=name, answers=list(answers), digits=list(digits)))

"""Chapter 08 checks: model memory the application manages, outputs prepared from the
model description, and results collected by a callback in stream order."""
from __future__ import annotations

from collections.abc import Collection

import acl_lab
from acl_lab import constants as C

from ..i18n import _
from ..trace import untraced
from . import NotYet, exercise


def _device_block(ptr: int, size: int) -> dict | None:
    """The live device allocation holding [ptr, ptr + size), if any."""
    return next((a for a in acl_lab.snapshot()["allocations"]
                 if a["location"] == "device" and a["ptr"] <= ptr
                 and ptr + size <= a["ptr"] + a["size"]), None)


MEMORY_HINT = (
    "Ask the model file, allocate on the device, load into it:\n"
    "d_work_size, d_weight_size, ret = acl.mdl.query_size(\"models/digits.om\")\n"
    "d_work, ret = acl.rt.malloc(d_work_size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
    "d_weight, ret = acl.rt.malloc(d_weight_size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
    "digits_id, ret = acl.mdl.load_from_file_with_mem(\"models/digits.om\", d_work, "
    "d_work_size, d_weight, d_weight_size)")

OUTPUTS_HINT = (
    "One device buffer per output, sized from the description:\n"
    "out_ds = acl.mdl.create_dataset()\n"
    "for i in range(acl.mdl.get_num_outputs(desc)):\n"
    "    size = acl.mdl.get_output_size_by_index(desc, i)\n"
    "    ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
    "    out_ds, ret = acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(ptr, size))")

CALLBACK_HINT = (
    "A callback that reads the output, then copy, execute and callback per image, in "
    "stream order:\n"
    "def collect(user_data):\n"
    "    acl.rt.memcpy(out_host, out_size, out_dev, out_size, ACL_MEMCPY_DEVICE_TO_HOST)\n"
    "    answers.append(int(acl.util.ptr_to_numpy(out_host, (10,), NPY_FLOAT32).argmax()))\n"
    "for d in digits:\n"
    "    acl.rt.memcpy_async(in_dev, in_size, pinned[d], in_size, ACL_MEMCPY_HOST_TO_DEVICE, "
    "stream)\n"
    "    acl.mdl.execute_async(digits_id, in_ds, out_ds, stream)\n"
    "    acl.rt.launch_callback(collect, [d], ACL_CALLBACK_BLOCK, stream)\n"
    "acl.rt.synchronize_stream(stream)")


@exercise("08.1", "Model memory you manage", MEMORY_HINT)
def app_managed(acl, model_id):
    assert isinstance(model_id, int)
    entry = next((m for m in acl_lab.snapshot().get("offline_models", [])
                  if m["model_id"] == model_id), None)
    if entry is None:
        raise NotYet(_("model {model} is not loaded. Did load_from_file_with_mem return ret 0? "
                       "(acl.get_recent_err_msg() says why not.)").format(model=repr(model_id)))
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


@exercise("08.2", "Outputs from the description", OUTPUTS_HINT)
def output_dataset(acl, desc: int, dataset: int):
    mdl = acl.mdl
    outputs = untraced(mdl.get_num_outputs)(desc)
    if outputs == 0:        # every model has an output: desc describes none
        raise NotYet(f"desc describes no model: pass the description "
                     f"acl.mdl.get_desc(desc, model_id) filled. {OUTPUTS_HINT}")
    held = untraced(mdl.get_dataset_num_buffers)(dataset)
    if held != outputs:
        raise NotYet(_("the dataset holds {held} buffer(s) but the model has {outputs} "
                       "output(s) (acl.mdl.get_num_outputs(desc)): one buffer per "
                       "output.").format(held=held, outputs=outputs))
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


@exercise("08.3", "Results by callback", CALLBACK_HINT)
def by_callback(acl, answers: Collection, digits: Collection):
    calls = list(acl_lab.tracer().calls)
    executed = sum(c.name == "mdl.execute_async" and c.ret == C.ACL_SUCCESS for c in calls)
    launched = sum(c.name == "rt.launch_callback" and c.ret == C.ACL_SUCCESS for c in calls)
    if executed < len(digits) or launched < len(digits):
        raise NotYet(_("{executed} execute_async and {launched} launch_callback calls "
                       "succeeded; each of the {count} images needs both. {hint}").format(
            executed=executed, launched=launched, count=len(digits), hint=_(CALLBACK_HINT)))
    if list(answers) != list(digits):
        raise NotYet(_("answers {answers} but the images show {digits}. Did every callback run "
                       "(synchronize the stream first) and read its own output? {hint}").format(
            answers=list(answers), digits=list(digits), hint=_(CALLBACK_HINT)))
    return _("the callbacks read {answers}, in stream order.").format(answers=list(answers))

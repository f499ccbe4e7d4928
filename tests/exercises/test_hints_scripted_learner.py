"""Hints that lead somewhere. A scripted learner opens each chapter in a real IPython shell
and runs it top to bottom. At each exercise it runs the cell as given (the placeholder
``...``) again and again, as a stuck learner does, until the hints run out: each run says
"not yet", and together the hints must name what the learner's code below needs (the calls,
the notebook's own variable names). Then it types that code in place of the placeholder,
runs the cell again, and the check must pass. It never asks for exercises.solution()."""
import re
import textwrap
from pathlib import Path

import nbformat
import pytest

import acl_lab
from acl_lab import exercises
from acl_lab.exercises import Result

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = exercises.PLACEHOLDER

#: exercise -> (what the learner types where the placeholder was, taken from the hint)
LEARNER = {
    "00.1": "count, ret = acl.rt.get_device_count()",
    "00.2": "count, _ = acl.rt.get_device_count()\nret = acl.rt.set_device(count)",
    "01.1": "acl.rt.set_context(default_ctx)",
    "01.2": "acl.rt.record_event(ready, producer)\nacl.rt.stream_wait_event(consumer, ready)",
    "01.3": "acl.rt.destroy_event(e)\nacl.rt.destroy_stream(s)\nacl.rt.free(buf)\n"
            "acl.rt.reset_device(0)\nacl.finalize()",
    "02.1": "if policy == ACL_MEM_MALLOC_HUGE_ONLY:\n    return 'huge'\n"
            "if policy == ACL_MEM_MALLOC_NORMAL_ONLY:\n    return 'normal'\n"
            "return 'huge' if align_up(size, 32) + 32 > MiB else 'normal'",
    "02.2": "acl.rt.free_host(blocks['malloc_host'])\nacl.rt.free(blocks['malloc'])\n"
            "acl.rt.free(blocks['malloc_align32'])\nacl.media.dvpp_free(blocks['dvpp_malloc'])",
    "03.1": "acl.rt.memcpy(dev_buf, data.nbytes, acl.util.numpy_to_ptr(data), data.nbytes, "
            "ACL_MEMCPY_HOST_TO_DEVICE)\n"
            "acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, dev_buf, data.nbytes, "
            "ACL_MEMCPY_DEVICE_TO_HOST)",
    "03.2": "acl.rt.synchronize_stream(stream)",
    "03.3": "host_view(staging, payload.nbytes)[:] = payload\n"
            "acl.rt.memcpy_async(dev_in, payload.nbytes, staging, payload.nbytes, "
            "ACL_MEMCPY_HOST_TO_DEVICE, stream)\nacl.rt.synchronize_stream(stream)",
    "04.1": "drops = []\nfor size in sizes:\n    before = free_bytes(ACL_HBM_MEM_NORMAL)\n"
            "    ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
            "    drops.append(before - free_bytes(ACL_HBM_MEM_NORMAL))\n    acl.rt.free(ptr)",
    "04.2": "before = {a: free_bytes(a) for a in WATCHED}\n"
            "ptr, ret = acl.rt.malloc(3 * MiB, ACL_MEM_MALLOC_HUGE_FIRST)\n"
            "attr = next(a for a in WATCHED if free_bytes(a) != before[a])",
    "04.3": "host_buf, ret = acl.rt.malloc_host(64)\n"
            "acl.util.ptr_to_numpy(host_buf, (64,), np.dtype(np.uint8).num)[:] = np.arange(64)\n"
            "dev_buf, ret = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)\n"
            "acl.rt.memcpy(dev_buf, 64, host_buf, 64, ACL_MEMCPY_DEVICE_TO_DEVICE)",
    "05.1": "offsets, end = [], 0\nfor n in lengths:\n    offsets.append(align_up(end, 64))\n"
            "    end = offsets[-1] + segment_size(n)",
    "05.2": "ptr = block + align_up(segment_size(100), 64)\n"
            "acl.util.ptr_to_numpy(pinned, (64,), np.dtype(np.uint8).num)[:] = np.arange(64)\n"
            "acl.rt.memcpy_async(ptr, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream)\n"
            "acl.rt.synchronize_stream(stream)",
    "05.3": "try:\n    suspects.check_guards()\nexcept acl_lab.AclLabError as e:\n    print(e)\n"
            "    culprit = str(e).split('segment ')[1].split(' at ')[0]",
    "06.1": "ws, ex, ret = acl.nn.add_get_workspace_size(x_t, x_t, one, x_t)\n"
            "acl.mdl.ri_capture_begin(s2, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)\n"
            "acl.nn.add(0, ws, ex, s2)\ndoubling, ret = acl.mdl.ri_capture_end(s2)\n"
            "for _ in range(3):\n    acl.mdl.ri_execute_async(doubling, s2)\n"
            "acl.rt.synchronize_stream(s2)",
    "06.2": "acl.mdl.ri_capture_begin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)\n"
            "codes = [acl.rt.synchronize_stream(s),\n"
            "         acl.rt.memcpy(buf, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE),\n"
            "         acl.rt.memcpy_async(buf, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),\n"
            "         acl.rt.memset_async(buf, 64, 0, 64, 0),\n"
            "         acl.rt.memcpy_async(buf, 64, acl.util.numpy_to_ptr(pageable), 64, "
            "ACL_MEMCPY_HOST_TO_DEVICE, s),\n"
            "         acl.rt.record_event(ev, s)]\nacl.mdl.ri_capture_end(s)",
    "06.3": "acl.rt.record_event(t0, s)\nacl.mdl.ri_execute_async(graph, s)\n"
            "acl.rt.record_event(t1, s)\nacl.rt.synchronize_event(t1)\n"
            "ms, ret = acl.rt.event_elapsed_time(t0, t1)",
    "07.1": "acl.rt.memcpy_async(buf['x'], NBYTES, in_h, NBYTES, ACL_MEMCPY_HOST_TO_DEVICE, "
            "copy_stream)\n"
            "acl.rt.record_event(uploaded, copy_stream)\n"
            "acl.rt.stream_wait_event(compute_stream, uploaded)\n"
            "ws, ex, ret = acl.nn.mul_get_workspace_size(tensor['x'], tensor['w'], tensor['y'])\n"
            "acl.nn.mul(0, ws, ex, compute_stream)\n"
            "acl.rt.memcpy_async(out_h, NBYTES, buf['y'], NBYTES, ACL_MEMCPY_DEVICE_TO_HOST, "
            "compute_stream)\n"
            "acl.rt.synchronize_stream(compute_stream)",
    "07.2": "scratch = pool.alloc(3000, name='scratch', rule='dvpp')",
    "07.3": "acl.mdl.ri_destroy(graph)\nacl.rt.destroy_stream(copy_stream)\n"
            "acl.rt.destroy_stream(compute_stream)\n"
            "for event in ev.values():\n    acl.rt.destroy_event(event)\n"
            "for t in tensor.values():\n    acl.nn.destroy_tensor(t)\n"
            "acl.nn.destroy_scalar(one)\n"
            "for seg in [b.segment for b in pool.blocks() if b.kind == 'segment']:\n"
            "    pool.free(seg.start)\npool.close()\n"
            "acl.rt.free_host(in_h)\nacl.rt.free_host(out_h)\n"
            "acl.rt.reset_device(0)\nacl.finalize()",
    "08.1": "work_size, weight_size, ret = acl.mdl.query_size(model_path)\n"
            "work, ret = acl.rt.malloc(work_size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
            "weight, ret = acl.rt.malloc(weight_size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
            "digits_id, ret = acl.mdl.load_from_file_with_mem(model_path, work, work_size, weight, "
            "weight_size)",
    "08.2": "out_ds = acl.mdl.create_dataset()\n"
            "for i in range(acl.mdl.get_num_outputs(desc)):\n"
            "    size = acl.mdl.get_output_size_by_index(desc, i)\n"
            "    ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)\n"
            "    out_ds, ret = acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(ptr, size))",
    "08.3": "def collect(user_data):\n"
            "    answers.append(int(acl.util.ptr_to_numpy(out_host, (10,), NPY_FLOAT32).argmax()))\n"
            "for d in digits:\n"
            "    acl.rt.memcpy_async(in_dev, in_size, pinned[d], in_size, "
            "ACL_MEMCPY_HOST_TO_DEVICE, stream)\n"
            "    acl.mdl.execute_async(digits_id, in_ds, out_ds, stream)\n"
            "    acl.rt.memcpy_async(out_host, out_size, out_dev, out_size, "
            "ACL_MEMCPY_DEVICE_TO_HOST, stream)\n"
            "    acl.rt.launch_callback(collect, [d], ACL_CALLBACK_BLOCK, stream)\n"
            "acl.rt.synchronize_stream(stream)",
    "09.1": "m = acl.media\n"
            "w, h = m.dvpp_get_pic_desc_width(decoded), m.dvpp_get_pic_desc_height(decoded)\n"
            "ws = m.dvpp_get_pic_desc_width_stride(decoded)\n"
            "hs = m.dvpp_get_pic_desc_height_stride(decoded)\n"
            "plane = np.zeros(ws * hs, dtype=np.uint8)\n"
            "acl.rt.memcpy(acl.util.numpy_to_ptr(plane), ws * hs, m.dvpp_get_pic_desc_data(decoded), "
            "ws * hs, ACL_MEMCPY_DEVICE_TO_HOST)\n"
            "luma = plane.reshape(hs, ws)[:h, :w]",
    "09.2": "ws, hs = 112, 50\nsize = ws * hs * 3 // 2\nbuf, ret = acl.media.dvpp_malloc(size)\n"
            "acl.media.dvpp_set_pic_desc_data(out_desc, buf)\n"
            "acl.media.dvpp_set_pic_desc_size(out_desc, size)\n"
            "acl.media.dvpp_set_pic_desc_format(out_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)\n"
            "acl.media.dvpp_set_pic_desc_width(out_desc, 100)\n"
            "acl.media.dvpp_set_pic_desc_height(out_desc, 50)\n"
            "acl.media.dvpp_set_pic_desc_width_stride(out_desc, ws)\n"
            "acl.media.dvpp_set_pic_desc_height_stride(out_desc, hs)\n"
            "acl.media.dvpp_vpc_resize_async(channel, decoded, out_desc, resize_config, stream)\n"
            "acl.rt.synchronize_stream(stream)",
    "09.3": "acl.media.dvpp_free(jpeg_dev)\nacl.media.dvpp_free(yuv)\n"
            "acl.media.dvpp_destroy_pic_desc(decoded)\n"
            "acl.media.dvpp_destroy_channel(channel)\n"
            "acl.media.dvpp_destroy_channel_desc(channel)",
    "10.1": "acl.rt.map_mem(va + (2 << 20), 2 << 20, 0, handle, 0)\n"
            "acl.rt.memcpy(va + (2 << 20), 256, acl.util.numpy_to_ptr(data), 256, "
            "ACL_MEMCPY_HOST_TO_DEVICE)",
    "10.2": "acl.rt.unmap_mem(va)\nacl.rt.free_physical(handle)\nacl.rt.release_mem_address(va)",
    "10.3": "for i in range(3):\n    handle, ret = acl.rt.malloc_physical(2 << 20, PROP, 0)\n"
            "    acl.rt.map_mem(va + i * (2 << 20), 2 << 20, 0, handle, 0)\n"
            "acl.rt.memcpy(va, data.nbytes, acl.util.numpy_to_ptr(data), data.nbytes, "
            "ACL_MEMCPY_HOST_TO_DEVICE)",
}
#: how often a stuck learner runs an unfinished exercise before giving up
MAX_ATTEMPTS = 4

#: what the failing messages must say for the code above to be "the hint, followed"
SAYS = {
    "00.1": ["acl.rt.get_device_count()", "the count and the ret"],
    "00.2": ["device count", "set the device whose id is the count", "acl_lab.explain(ret)"],
    "01.1": ["default_ctx", "aclrtSetContext", "before acl.rt.create_stream()"],
    "01.2": ["record the event ready on producer", "make consumer wait for it"],
    "01.3": ["reverse order of creation", "destroy the event, destroy the stream, free the "
             "buffer, reset device 0, then finalize"],
    "02.1": ["HUGE_ONLY and NORMAL_ONLY name their pages", "align_up(size, 32) + 32",
             "is above MiB"],
    "02.2": ["malloc_host pairs with acl.rt.free_host", "malloc and malloc_align32 with "
             "acl.rt.free", "dvpp_malloc with acl.media.dvpp_free"],
    "03.1": ["acl.util.numpy_to_ptr", "ACL_MEMCPY_HOST_TO_DEVICE", "ACL_MEMCPY_DEVICE_TO_HOST",
             "data.nbytes"],
    "03.2": ["Wait for the stream (aclrtSynchronizeStream) after the first copy"],
    "03.3": ["host_view(staging, payload.nbytes)", "ACL_MEMCPY_HOST_TO_DEVICE on stream",
             "synchronize the stream"],
    "04.1": ["free_bytes(ACL_HBM_MEM_NORMAL)", "acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)",
             "how far the figure dropped to drops"],
    "04.2": ["free_bytes(a) for each a in WATCHED",
             "acl.rt.malloc(3 * MiB, ACL_MEM_MALLOC_HUGE_FIRST)", "no longer the noted figure"],
    "04.3": ["acl.rt.malloc_host(64)", "acl.util.ptr_to_numpy(host_buf, (64,), "
             "np.dtype(np.uint8).num)", "ACL_MEMCPY_DEVICE_TO_DEVICE"],
    "05.1": ["ALIGN_UP(previous end, 64)", "align_up and segment_size"],
    "05.2": ["align_up and segment_size", "acl.util.ptr_to_numpy",
             "acl.rt.memcpy_async on stream", "acl.rt.synchronize_stream(stream)"],
    "05.3": ["suspects.check_guards()", "acl_lab.AclLabError", "culprit"],
    "06.1": ["add_get_workspace_size", "x_t as self, other and out, alpha one",
             "acl.mdl.ri_capture_begin", "acl.nn.add", "acl.mdl.ri_capture_end",
             "keep the model as doubling", "acl.mdl.ri_execute_async",
             "acl.rt.synchronize_stream"],
    "06.2": ["acl.mdl.ri_capture_begin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)",
             "acl.mdl.ri_capture_end(s)", "a list named codes"],
    "06.3": ["acl.mdl.ri_execute_async(graph, s)", "acl.rt.record_event on s",
             "t0 before and t1 after", "acl.rt.synchronize_event(t1)",
             "acl.rt.event_elapsed_time(t0, t1)", "(ms, ret)"],
    "07.1": ["acl.rt.record_event(uploaded, copy_stream)",
             "acl.rt.stream_wait_event(compute_stream, uploaded)",
             "mul_get_workspace_size(tensor['x'], tensor['w'], tensor['y'])",
             "buf['y'] into out_h", "synchronize compute_stream"],
    "07.2": ["pool.alloc(length, name=..., rule='dvpp')", "3000 bytes"],
    "07.3": ["acl.mdl.ri_destroy(graph)", "copy_stream", "compute_stream", "each event in ev",
             "acl.nn.destroy_scalar(one)", "pool.close()", "acl.rt.free_host(in_h)",
             "acl.rt.reset_device(0)", "acl.finalize()"],
    "08.1": ["acl.mdl.query_size(model_path)", "acl.rt.malloc",
             "acl.mdl.load_from_file_with_mem", "keep the id as digits_id"],
    "08.2": ["acl.mdl.create_dataset()", "acl.mdl.get_num_outputs(desc)",
             "acl.mdl.get_output_size_by_index(desc, i)", "acl.rt.malloc",
             "acl.create_data_buffer", "acl.mdl.add_dataset_buffer"],
    "08.3": ["collect(user_data)", "out_dev into out_host", "appends the index of the highest",
             "acl.rt.memcpy_async from pinned[digit] into in_dev",
             "acl.rt.memcpy_async from out_dev into out_host", "acl.mdl.execute_async",
             "acl.rt.launch_callback with ACL_CALLBACK_BLOCK", "synchronize stream"],
    "09.1": ["acl.media.dvpp_get_pic_desc_width / _height / _width_stride / _height_stride",
             "copy ws * hs bytes from dvpp_get_pic_desc_data(decoded)",
             "ACL_MEMCPY_DEVICE_TO_HOST", "reshape it to (hs, ws) and slice [:h, :w]"],
    "09.2": ["acl.media.dvpp_malloc", "width stride ALIGN_UP(100, 16) = 112",
             "size 112 * 50 * 3 // 2 = 8400", "width_stride and height_stride on out_desc",
             "acl.media.dvpp_vpc_resize_async(channel, decoded, out_desc, resize_config, stream)",
             "acl.rt.synchronize_stream(stream)"],
    "09.3": ["Free jpeg_dev and yuv with acl.media.dvpp_free",
             "destroy decoded with dvpp_destroy_pic_desc",
             "dvpp_destroy_channel(channel) then dvpp_destroy_channel_desc(channel)"],
    "10.1": ["acl.rt.map_mem(address, size, 0, handle, 0)", "va + 2 MiB (2 << 20)",
             "acl.rt.memcpy(va + (2 << 20), 256, acl.util.numpy_to_ptr(data), 256, "
             "ACL_MEMCPY_HOST_TO_DEVICE)"],
    "10.2": ["unmap, free the physical memory, release the range",
             "acl.rt.unmap_mem(va), then acl.rt.free_physical(handle), then "
             "acl.rt.release_mem_address(va)"],
    "10.3": ["ceil(5 MiB / 2 MiB) chunks", "acl.rt.malloc_physical(2 << 20, PROP, 0)",
             "acl.rt.map_mem(va + i * (2 << 20), 2 << 20, 0, handle, 0)"],
}


def typed_in(cell: str, code: str) -> str:
    """``cell`` with the learner's ``code`` where the first placeholder was (same indent) and
    the other placeholder lines gone."""
    lines, out, done = cell.splitlines(), [], False
    for line in lines:
        match = PLACEHOLDER.match(line)
        if match is None:
            out.append(line)
        elif not done:
            out.append(textwrap.indent(code, match["indent"]))
            done = True
    assert done, f"no placeholder in:\n{cell}"
    return "\n".join(out)


def exercise_id(source: str) -> str:
    return re.findall(r'exercises\.check\("(\d\d\.\d)"', source)[-1]


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")),
                         ids=lambda p: p.stem)
def test_a_learner_who_follows_each_hint_passes(path, shell, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    nb = nbformat.read(path, as_version=4)
    seen = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type != "code":
            continue
        if "exercise" not in tags:
            result = shell.run_cell(cell.source, store_history=False)
            assert result.success, f"{cell.source[:200]}\n{result.error_in_exec!r}"
            continue
        ex = exercise_id(cell.source)
        seen_hints = []
        exercises.forget(ex)                 # a learner new to this exercise
        for _attempt in range(MAX_ATTEMPTS):
            first = shell.run_cell(cell.source, store_history=False).result
            assert isinstance(first, Result) and not first.passed, ex
            seen_hints.append(first.message)
            if "exercises.solution(" in first.message:      # every hint shown: last resort
                break
        hints = "\n".join(seen_hints)
        for words in SAYS[ex]:
            assert words in hints, f"{ex}: the hints should say {words!r}:\n{hints}"
        result = shell.run_cell(typed_in(cell.source, LEARNER[ex]), store_history=False)
        assert result.success, f"{ex}: {result.error_in_exec!r}"
        assert isinstance(result.result, Result) and result.result.passed, \
            f"{ex}: {result.result!r}"
        seen.append(ex)
    capsys.readouterr()
    acl_lab.reset("910b")
    chapter = path.stem[:2]
    assert seen == sorted(k for k in LEARNER if k.startswith(chapter + ".")), \
        "exercises numbered in the order the chapter shows them, each scripted"

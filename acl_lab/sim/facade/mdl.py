"""``acl.mdl``: offline models (aclmdl*: load, describe, datasets, gears, execute; hicann/ge
acl_mdl.h; the work is sim/models.py's) and stream capture into a model running instance
(aclmdlRI*: capture, replay, task groups, debug print; sim/capture.py's)."""
from acl_lab import constants as C
from acl_lab.i18n import N_, _
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.sim import model_bundles
from acl_lab.sim.facade.mdl_aipp import MdlAipp
from acl_lab.sim.facade.mdl_config import MdlConfig
from acl_lab.sim.facade.mdl_dynamic import MdlDynamic
from acl_lab.sim.facade.top import read_config
from acl_lab.sim.models import io_name
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args


def _dims(t, dims=None) -> dict:
    """pyACL's aclmdlIODims: {"name", "dimCount", "dims"}."""
    dims = t.dims if dims is None else dims
    return {"name": t.name, "dimCount": len(dims), "dims": list(dims)}


class Mdl(MdlAipp, MdlConfig, MdlDynamic, Namespace):
    """acl.mdl"""

    # ----- loading --------------------------------------------------------------------
    @acl_call("mdl.load_from_file")
    def load_from_file(self, rt, model_path: args.path):
        c = "aclmdlLoadFromFile"
        return rt.models.load(rt.models.read_file(model_path, c), c)

    @acl_call("mdl.load_from_mem")
    def load_from_mem(self, rt, model: args.ptr, model_size: args.size):
        c = "aclmdlLoadFromMem"
        return rt.models.load(rt.models.read_mem(model, model_size, c), c)

    @acl_call("mdl.load_from_file_with_mem")
    def load_from_file_with_mem(self, rt, model_path: args.path, work_ptr: args.ptr,
                                work_size: args.size, weight_ptr: args.ptr,
                                weight_size: args.size):
        c = "aclmdlLoadFromFileWithMem"
        return rt.models.load(rt.models.read_file(model_path, c), c, (work_ptr, work_size),
                              (weight_ptr, weight_size))

    @acl_call("mdl.load_from_mem_with_mem")
    def load_from_mem_with_mem(self, rt, model: args.ptr, model_size: args.size,
                               work_ptr: args.ptr, work_size: args.size, weight_ptr: args.ptr,
                               weight_size: args.size):
        c = "aclmdlLoadFromMemWithMem"
        return rt.models.load(rt.models.read_mem(model, model_size, c), c,
                              (work_ptr, work_size), (weight_ptr, weight_size))

    @acl_call("mdl.query_size")
    def query_size(self, rt, file_name: args.path):
        m = rt.models.read_file(file_name, "aclmdlQuerySize", graph=False)
        return m.work_size, m.weight_size

    @acl_call("mdl.query_size_from_mem")
    def query_size_from_mem(self, rt, model: args.ptr, model_size: args.size):
        m = rt.models.read_mem(model, model_size, "aclmdlQuerySizeFromMem", graph=False)
        return m.work_size, m.weight_size

    @acl_call("mdl.unload")
    def unload(self, rt, model_id: args.i64):
        model_bundles.of(rt).check_not_inner(model_id)
        rt.models.unload(model_id)

    # ----- descriptions ---------------------------------------------------------------
    @acl_call("mdl.create_desc")
    def create_desc(self, rt):
        return rt.models.create_desc()

    @acl_call("mdl.get_desc")
    def get_desc(self, rt, model_desc: args.ptr, model_id: args.i64):
        rt.models.get_desc(model_desc, model_id)

    @acl_call("mdl.destroy_desc")
    def destroy_desc(self, rt, model_desc: args.ptr):
        rt.models.destroy_desc(model_desc)

    @acl_call("mdl.get_num_inputs")
    def get_num_inputs(self, rt, model_desc: args.ptr):
        return len(rt.models.desc(model_desc, "aclmdlGetNumInputs").model.inputs)

    @acl_call("mdl.get_num_outputs")
    def get_num_outputs(self, rt, model_desc: args.ptr):
        return len(rt.models.desc(model_desc, "aclmdlGetNumOutputs").model.outputs)

    @acl_call("mdl.get_input_size_by_index")
    def get_input_size_by_index(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, False, "aclmdlGetInputSizeByIndex").size

    @acl_call("mdl.get_output_size_by_index")
    def get_output_size_by_index(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, True, "aclmdlGetOutputSizeByIndex").size

    @acl_call("mdl.get_input_dims")
    def get_input_dims(self, rt, model_desc: args.ptr, index: args.size):
        """A dynamic model's input reports -1 where its gear decides or its shape range
        leaves the dim open (the V2 form gives the largest gear's dims)."""
        c = "aclmdlGetInputDims"
        return _dims(rt.models.tensor(model_desc, index, False, c),
                     rt.models.reported_dims(model_desc, index, False, c))

    @acl_call("mdl.get_input_dims_v2")
    def get_input_dims_v2(self, rt, model_desc: args.ptr, index: args.size):
        return _dims(rt.models.tensor(model_desc, index, False, "aclmdlGetInputDimsV2"))

    @acl_call("mdl.get_output_dims")
    def get_output_dims(self, rt, model_desc: args.ptr, index: args.size):
        """-1 where a shape-range model's output depends on its inputs' shapes."""
        c = "aclmdlGetOutputDims"
        return _dims(rt.models.tensor(model_desc, index, True, c),
                     rt.models.reported_dims(model_desc, index, True, c))

    @acl_call("mdl.get_cur_output_dims")
    def get_cur_output_dims(self, rt, model_desc: args.ptr, index: args.size):
        """The output's dims at the gear last set on the model (a static model: its dims)."""
        c = "aclmdlGetCurOutputDims"
        dims = rt.models.cur_output_dims(model_desc, index, c)
        return _dims(rt.models.tensor(model_desc, index, True, c), dims)

    @acl_call("mdl.get_input_data_type")
    def get_input_data_type(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, False, "aclmdlGetInputDataType").dtype

    @acl_call("mdl.get_output_data_type")
    def get_output_data_type(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, True, "aclmdlGetOutputDataType").dtype

    @acl_call("mdl.get_input_format")
    def get_input_format(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, False, "aclmdlGetInputFormat").fmt

    @acl_call("mdl.get_output_format")
    def get_output_format(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, True, "aclmdlGetOutputFormat").fmt

    @acl_call("mdl.get_input_name_by_index")
    def get_input_name_by_index(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, False, "aclmdlGetInputNameByIndex").name

    @acl_call("mdl.get_output_name_by_index")
    def get_output_name_by_index(self, rt, model_desc: args.ptr, index: args.size):
        return rt.models.tensor(model_desc, index, True, "aclmdlGetOutputNameByIndex").name

    @acl_call("mdl.get_input_index_by_name")
    def get_input_index_by_name(self, rt, model_desc: args.ptr, name: args.text):
        return _index_by_name(rt, "aclmdlGetInputIndexByName", model_desc, name, False)

    @acl_call("mdl.get_output_index_by_name")
    def get_output_index_by_name(self, rt, model_desc: args.ptr, name: args.text):
        return _index_by_name(rt, "aclmdlGetOutputIndexByName", model_desc, name, True)

    # ----- dynamic gears --------------------------------------------------------------
    @acl_call("mdl.get_dynamic_batch")
    def get_dynamic_batch(self, rt, model_desc: args.ptr):
        gears = rt.models.desc(model_desc, "aclmdlGetDynamicBatch").model.dynamic
        batch = [g[0] for g in gears.gears] if gears and gears.kind == "batch" else []
        return {"batchCount": len(batch), "batch": batch}

    @acl_call("mdl.get_dynamic_hw")
    def get_dynamic_hw(self, rt, model_desc: args.ptr, index: args.i64):
        """``index`` is reserved (the C code ignores it; samples pass -1)."""
        gears = rt.models.desc(model_desc, "aclmdlGetDynamicHW").model.dynamic
        hw = [list(g) for g in gears.gears] if gears and gears.kind == "hw" else []
        return {"hwCount": len(hw), "hw": hw}

    @acl_call("mdl.set_dynamic_batch_size")
    def set_dynamic_batch_size(self, rt, model_id: args.i64, dataset: args.ptr,
                               index: args.size, batch_size: args.u64):
        rt.models.set_gear("aclmdlSetDynamicBatchSize", model_id, dataset, index, (batch_size,))

    @acl_call("mdl.set_dynamic_hw_size")
    def set_dynamic_hw_size(self, rt, model_id: args.i64, dataset: args.ptr, index: args.size,
                            height: args.u64, width: args.u64):
        rt.models.set_gear("aclmdlSetDynamicHWSize", model_id, dataset, index, (height, width))

    # ----- datasets and execution -----------------------------------------------------
    @acl_call("mdl.create_dataset")
    def create_dataset(self, rt):
        return rt.models.create_dataset()

    @acl_call("mdl.add_dataset_buffer")
    def add_dataset_buffer(self, rt, dataset: args.ptr, data_buffer: args.ptr):
        return rt.models.add_buffer(dataset, data_buffer)

    @acl_call("mdl.get_dataset_num_buffers")
    def get_dataset_num_buffers(self, rt, dataset: args.ptr):
        return len(rt.models.dataset(dataset, "aclmdlGetDatasetNumBuffers").buffers)

    @acl_call("mdl.get_dataset_buffer")
    def get_dataset_buffer(self, rt, dataset: args.ptr, index: args.size):
        return rt.models.dataset_buffer(dataset, index, "aclmdlGetDatasetBuffer")

    @acl_call("mdl.destroy_dataset")
    def destroy_dataset(self, rt, dataset: args.ptr):
        rt.models.destroy_dataset(dataset)

    @acl_call("mdl.execute")
    def execute(self, rt, model_id: args.i64, input_: args.ptr, output: args.ptr):
        rt.models.execute(model_id, input_, output, None)

    @acl_call("mdl.execute_async")
    def execute_async(self, rt, model_id: args.i64, input_: args.ptr, output: args.ptr,
                      stream: args.ptr):
        rt.models.execute(model_id, input_, output, rt.stream(stream, "aclmdlExecuteAsync"))

    # ----- dump configuration ---------------------------------------------------------
    @acl_call("mdl.init_dump")
    def init_dump(self, rt):
        rt.configure("aclmdlInitDump")

    @acl_call("mdl.set_dump")
    def set_dump(self, rt, dump_cfg_path: args.path):
        rt.configure("aclmdlSetDump", lambda: read_config(dump_cfg_path, "aclmdlSetDump"))

    @acl_call("mdl.finalize_dump")
    def finalize_dump(self, rt):
        rt.configure("aclmdlFinalizeDump")

    # ----- stream capture into a model RI (sim/capture.py) ----------------------------
    @acl_call("mdl.ri_capture_begin")
    def ri_capture_begin(self, rt, stream: args.ptr, mode: args.i64):
        c = "aclmdlRICaptureBegin"
        rt.capture.begin(_explicit_stream(rt, stream, c, _CAPTURE), mode)

    @acl_call("mdl.ri_capture_end")
    def ri_capture_end(self, rt, stream: args.ptr):
        c = "aclmdlRICaptureEnd"
        return rt.capture.end(_explicit_stream(rt, stream, c, _CAPTURE))

    @acl_call("mdl.ri_capture_get_info")
    def ri_capture_get_info(self, rt, stream: args.ptr):
        c = "aclmdlRICaptureGetInfo"
        return rt.capture.info(_explicit_stream(rt, stream, c, _CAPTURE))

    @acl_call("mdl.ri_capture_thread_exchange_mode")
    def ri_capture_thread_exchange_mode(self, rt, mode: args.i64):
        return rt.capture.exchange_mode(mode)

    @acl_call("mdl.ri_execute_async")
    def ri_execute_async(self, rt, model_ri: args.ptr.named("modelRI"), stream: args.ptr):
        rt.capture.execute_async(model_ri, rt.stream(stream, "aclmdlRIExecuteAsync"))

    @acl_call("mdl.ri_execute")
    def ri_execute(self, rt, model_ri: args.ptr.named("modelRI"), timeout: args.i64):
        rt.capture.execute(model_ri, timeout)

    @acl_call("mdl.ri_destroy")
    def ri_destroy(self, rt, model_ri: args.ptr.named("modelRI")):
        rt.capture.destroy(model_ri)

    @acl_call("mdl.ri_debug_json_print")
    def ri_debug_json_print(self, rt, model_ri: args.ptr.named("modelRI"), path: args.path,
                            flags: args.i64 = 0):
        rt.capture.debug_json(model_ri, path, flags)

    # ----- task groups and model update ------------------------------------------------
    @acl_call("mdl.ri_capture_task_grp_begin")
    def ri_capture_task_grp_begin(self, rt, stream: args.ptr):
        c = "aclmdlRICaptureTaskGrpBegin"
        rt.capture.group_begin(_explicit_stream(rt, stream, c, _GROUP))

    @acl_call("mdl.ri_capture_task_grp_end")
    def ri_capture_task_grp_end(self, rt, stream: args.ptr):
        c = "aclmdlRICaptureTaskGrpEnd"
        return rt.capture.group_end(_explicit_stream(rt, stream, c, _GROUP))

    @acl_call("mdl.ri_capture_task_update_begin")
    def ri_capture_task_update_begin(self, rt, stream: args.ptr, handle: args.ptr):
        c = "aclmdlRICaptureTaskUpdateBegin"
        s = _explicit_stream(rt, stream, c, _GROUP)
        if handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: handle is NULL (0).").format(call=c))
        rt.capture.update_begin(s, handle)

    @acl_call("mdl.ri_capture_task_update_end")
    def ri_capture_task_update_end(self, rt, stream: args.ptr):
        c = "aclmdlRICaptureTaskUpdateEnd"
        rt.capture.update_end(_explicit_stream(rt, stream, c, _GROUP))


_CAPTURE = N_("{call}: stream is NULL — the default stream cannot capture. Create a "
              "stream with acl.rt.create_stream() and capture on it.")
_GROUP = N_("{call}: stream is NULL. Task groups live on explicit streams: pass a stream "
            "from acl.rt.create_stream().")


def _explicit_stream(rt, stream: int, call: str, null_refusal: str):
    """The stream a capture or task-group call names; NULL (the default stream) is refused
    (ACL_REQUIRES_NOT_NULL)."""
    if stream == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(null_refusal).format(call=call))
    return rt.stream(stream, call)


def _index_by_name(rt, c: str, model_desc: int, name: str, outputs: bool) -> int:
    m = rt.models.desc(model_desc, c).model
    names = [t.name for t in (m.outputs if outputs else m.inputs)]
    if name not in names:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: the model has no {kind} named {name}; its names are "
                         "{names}.").format(call=c, kind=io_name(outputs), name=repr(name),
                                            names=names))
    return names.index(name)

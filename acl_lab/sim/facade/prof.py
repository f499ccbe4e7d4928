"""``acl.prof``: profiling collections into a folder (sim/profiling.py), msproftx and step
info (sim/profiling_tx.py), model subscriptions and the op records their pipe receives
(sim/profiling_ops.py). Arguments as pyACL's wrappers parse them (hicann/runtime
python/pyACL/prof/prof_wrap.cpp)."""
from acl_lab.sim import profiling, profiling_ops, profiling_tx
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.spec import args, prof_op_desc

_TYPE, _NAME = 0, 1


def _device_ids(call: str, values) -> tuple:
    """WrapAclProfCreateConfig's deviceIdList: a list of ints."""
    if not isinstance(values, list):
        raise TypeError(f"{call}: deviceIdList must be a list, not {type(values).__name__}")
    if not all(isinstance(v, int) for v in values):
        raise TypeError(f"{call}: the first argument is not list of int")
    return tuple(args.u32_arg(call, "deviceIdList", v) for v in values)


class Prof(Namespace):
    """acl.prof"""

    # ----- collections ------------------------------------------------------------------------
    @acl_call("prof.create_config")
    def create_config(self, rt, device_id_list, aicore_metrics: args.i32,
                      aicore_events: args.ptr, data_type_config: args.u64):
        ids = _device_ids("aclprofCreateConfig", device_id_list)
        return profiling.of(rt).create_config(ids, aicore_metrics, aicore_events,
                                              data_type_config)

    @acl_call("prof.destroy_config")
    def destroy_config(self, rt, profiler_config: args.ptr):
        profiling.of(rt).destroy_config(profiler_config)

    @acl_call("prof.init")
    def init(self, rt, profiler_result_path: args.path):
        profiling.of(rt).init(profiler_result_path)

    @acl_call("prof.finalize")
    def finalize(self, rt):
        profiling.of(rt).finalize()

    @acl_call("prof.start")
    def start(self, rt, profiler_config: args.ptr):
        profiling.of(rt).start(profiler_config)

    @acl_call("prof.stop")
    def stop(self, rt, profiler_config: args.ptr):
        profiling.of(rt).stop(profiler_config)

    @acl_call("prof.set_config")
    def set_config(self, rt, config_type: args.i32, config: args.text):
        profiling.of(rt).set_config(config_type, config)

    # ----- model subscriptions ----------------------------------------------------------------
    @acl_call("prof.create_subscribe_config")
    def create_subscribe_config(self, rt, time_info_switch: args.i32, aicore_metrics: args.i32,
                                fd: args.i32):
        return profiling_ops.of(rt).create_config(time_info_switch, aicore_metrics, fd)

    @acl_call("prof.destroy_subscribe_config")
    def destroy_subscribe_config(self, rt, prof_subscribe_config: args.ptr):
        profiling_ops.of(rt).destroy_config(prof_subscribe_config)

    @acl_call("prof.model_subscribe")
    def model_subscribe(self, rt, model_id: args.u32, prof_subscribe_config: args.ptr):
        profiling_ops.of(rt).subscribe(model_id, prof_subscribe_config)

    @acl_call("prof.model_un_subscribe")
    def model_un_subscribe(self, rt, model_id: args.u32):
        profiling_ops.of(rt).unsubscribe(model_id)

    @acl_call("prof.model_unsubscribe")
    def model_unsubscribe(self, rt, model_id: args.u32):
        profiling_ops.of(rt).unsubscribe(model_id)

    # ----- op records -------------------------------------------------------------------------
    @acl_call("prof.get_op_desc_size")
    def get_op_desc_size(self, rt):
        return prof_op_desc.SIZE

    @acl_call("prof.get_op_num")
    def get_op_num(self, rt, op_info: args.ptr, op_info_len: args.size):
        return profiling_ops.of(rt).op_count(op_info, op_info_len)

    @acl_call("prof.get_op_type_len")
    def get_op_type_len(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).text_len(op_info, op_info_len, index, _TYPE)

    @acl_call("prof.get_op_type")
    def get_op_type(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32,
                    op_type_len: args.size):
        return profiling_ops.of(rt).text(op_info, op_info_len, index, op_type_len, _TYPE)

    @acl_call("prof.get_op_type_v2")
    def get_op_type_v2(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).text_v2(op_info, op_info_len, index, _TYPE)

    @acl_call("prof.get_op_name_len")
    def get_op_name_len(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).text_len(op_info, op_info_len, index, _NAME)

    @acl_call("prof.get_op_name")
    def get_op_name(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32,
                    op_name_len: args.size):
        return profiling_ops.of(rt).text(op_info, op_info_len, index, op_name_len, _NAME)

    @acl_call("prof.get_op_name_v2")
    def get_op_name_v2(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).text_v2(op_info, op_info_len, index, _NAME)

    @acl_call("prof.get_op_start")
    def get_op_start(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).op_field(op_info, op_info_len, index, "start",
                                             "aclprofGetOpStart")

    @acl_call("prof.get_op_end")
    def get_op_end(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).op_field(op_info, op_info_len, index, "end",
                                             "aclprofGetOpEnd")

    @acl_call("prof.get_op_duration")
    def get_op_duration(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).op_field(op_info, op_info_len, index, "duration",
                                             "aclprofGetOpDuration")

    @acl_call("prof.get_model_id")
    def get_model_id(self, rt, op_info: args.ptr, op_info_len: args.size, index: args.u32):
        return profiling_ops.of(rt).op_field(op_info, op_info_len, index, "model_id",
                                             "aclprofGetModelId")

    # ----- step info --------------------------------------------------------------------------
    @acl_call("prof.create_step_info")
    def create_step_info(self, rt):
        return profiling_tx.of(rt).create_step()

    @acl_call("prof.destroy_step_info")
    def destroy_step_info(self, rt, stepinfo: args.ptr):
        profiling_tx.of(rt).destroy_step(stepinfo)

    @acl_call("prof.get_step_timestamp")
    def get_step_timestamp(self, rt, step_info: args.ptr, tag: args.i32, stream: args.ptr):
        profiling_tx.of(rt).step_timestamp(step_info, tag, stream)

    # ----- msproftx ---------------------------------------------------------------------------
    @acl_call("prof.create_stamp")
    def create_stamp(self, rt):
        return profiling_tx.of(rt).create_stamp()

    @acl_call("prof.destroy_stamp")
    def destroy_stamp(self, rt, stamp: args.ptr):
        profiling_tx.of(rt).destroy_stamp(stamp)

    @acl_call("prof.set_stamp_trace_message")
    def set_stamp_trace_message(self, rt, stamp: args.ptr, msg: args.text, msg_len: args.u32):
        profiling_tx.of(rt).set_message(stamp, msg, msg_len)

    @acl_call("prof.mark")
    def mark(self, rt, stamp: args.ptr):
        profiling_tx.of(rt).mark(stamp)

    @acl_call("prof.mark_ex")
    def mark_ex(self, rt, msg: args.text, stream: args.ptr):
        profiling_tx.of(rt).mark_ex(msg, stream)

    @acl_call("prof.push")
    def push(self, rt, stamp: args.ptr):
        profiling_tx.of(rt).push(stamp)

    @acl_call("prof.pop")
    def pop(self, rt):
        profiling_tx.of(rt).pop()

    @acl_call("prof.range_start")
    def range_start(self, rt, stamp: args.ptr):
        return profiling_tx.of(rt).range_start(stamp)

    @acl_call("prof.range_stop")
    def range_stop(self, rt, range_id: args.u32):
        profiling_tx.of(rt).range_stop(range_id)

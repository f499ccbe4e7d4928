"""``acl.op``'s further calls (pyACL python/pyACL/op/op.cpp): operator models from memory,
the older execute, Cast handles, list-of-list and data-type attributes, operator dumps,
custom operators from kernels (sim/single_op/custom.py), shape inference
(sim/single_op/more_ops.py)."""
import numpy as np

from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.single_op import more_ops
from acl_lab.spec import args


def _int_lists(call: str, values) -> tuple:
    """pyACL's list of int64 lists (a numpy array still passes, with pyACL's warning)."""
    if not isinstance(values, list):
        raise TypeError(f"{call}: argument 3 is not list")
    rows = []
    for row in values:
        if isinstance(row, np.ndarray):
            row = row.reshape(-1).tolist()
        if not isinstance(row, list):
            raise TypeError(f"{call}: arg is not list or numpy array")
        rows.append(tuple(args.int_arg(call, "values", v) for v in row))
    return tuple(rows)


class OpExtras:
    """acl.op: models from memory, Cast handles, more attributes, custom operators"""

    @acl_call("op.load")
    def load(self, rt, model: args.ptr, model_size: args.size):
        more_ops.load(rt, model, model_size)

    @acl_call("op.execute")
    def execute(self, rt, op_type: args.text, input_desc: args.handles, inputs: args.handles,
                output_desc: args.handles, outputs: args.handles, attr: args.ptr,
                stream: args.ptr):
        rt.single_ops.execute(op_type, input_desc, inputs, output_desc, outputs, attr, stream,
                              "aclopExecute")

    @acl_call("op.create_handle_for_cast")
    def create_handle_for_cast(self, rt, src_desc: args.ptr, dst_desc: args.ptr,
                               truncate: args.u32):
        return more_ops.cast_handle(rt, src_desc, dst_desc, bool(truncate & 0xFF))

    @acl_call("op.set_attr_list_list_int")
    def set_attr_list_list_int(self, rt, attr: args.ptr, attr_name: args.text, values):
        c = "aclopSetAttrListListInt"
        rt.single_ops.set_attr(attr, attr_name, "list_list_int", _int_lists(c, values), c)

    @acl_call("op.set_attr_data_type")
    def set_attr_data_type(self, rt, attr: args.ptr, attr_name: args.text,
                           attr_value: args.i32):
        rt.single_ops.set_attr(attr, attr_name, "data_type", attr_value, "aclopSetAttrDataType")
        return attr

    @acl_call("op.set_attr_list_data_type")
    def set_attr_list_data_type(self, rt, attr: args.ptr, attr_name: args.text, values):
        c = "aclopSetAttrListDataType"
        if not isinstance(values, list):
            raise TypeError(f"{c}: the third argument is not list")
        if not all(isinstance(v, int) for v in values):
            raise TypeError(f"{c}: the list argument is not list of int")
        rt.single_ops.set_attr(attr, attr_name, "list_data_type",
                               tuple(args.i32_arg(c, "values", v) for v in values), c)
        return attr

    @acl_call("op.start_dump_args")
    def start_dump_args(self, rt, dump_type: args.u32, path: args.path):
        rt.dump_args.start(dump_type, path)

    @acl_call("op.stop_dump_args")
    def stop_dump_args(self, rt, dump_type: args.u32):
        rt.dump_args.stop(dump_type)

    @acl_call("op.register_compile_func")
    def register_compile_func(self, rt, op_type: args.text, func: args.function):
        rt.custom_ops.register(op_type, func)

    @acl_call("op.unregister_compile_func")
    def unregister_compile_func(self, rt, op_type: args.text):
        rt.custom_ops.unregister(op_type)

    @acl_call("op.create_kernel")
    def create_kernel(self, rt, op_type: args.text, kernel_id: args.text,
                      kernel_name: args.text, bin_data: args.ptr, bin_size: args.i32,
                      engine_type: args.i32, deallocator: args.i32):
        rt.custom_ops.create_kernel(op_type, kernel_id, kernel_name, bin_data, bin_size,
                                    engine_type)

    @acl_call("op.set_kernel_args")
    def set_kernel_args(self, rt, kernel_desc: args.ptr, kernel_id: args.text,
                        block_dim: args.u32, args_: args.ptr,
                        arg_size: args.u32):
        rt.custom_ops.set_args(kernel_desc, kernel_id, block_dim, args_, arg_size)

    @acl_call("op.set_kernel_workspace_sizes")
    def set_kernel_workspace_sizes(self, rt, kernel_desc: args.ptr, num_workspaces: args.i32,
                                   workspace_sizes: args.ptr):
        rt.custom_ops.set_workspaces(kernel_desc, num_workspaces, workspace_sizes)

    @acl_call("op.update_params")
    def update_params(self, rt, op_type: args.text, input_desc: args.handles,
                      output_desc: args.handles, attr: args.ptr):
        rt.custom_ops.update_params(op_type, input_desc, output_desc, attr)

    @acl_call("op.infer_shape")
    def infer_shape(self, rt, op_type: args.text, input_desc: args.handles,
                    inputs: args.handles, num_outputs: args.i32, output_desc: args.handles,
                    attr: args.ptr):
        more_ops.infer_shape(rt, op_type, input_desc, inputs, num_outputs, output_desc, attr)

    @acl_call("op.set_max_op_queue_num")
    def set_max_op_queue_num(self, rt, max_op_num: args.u64):
        rt.custom_ops.set_max_op_num(max_op_num)

"""``acl.op``: single operators compiled by ``acl-lab atc --singleop`` (hicann/ge acl_op.h;
sim/single_op/ does the work): attributes, the model directory, execution by type or by
handle, casts."""
import numpy as np

from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.sim.facade.op_extras import OpExtras
from acl_lab.spec import args


def _attr_setter(kind: str, name: str):
    """acl.op.set_attr_<kind>(attr, name, value): one attribute of an aclopAttr."""
    def convert(c: str, value):
        if kind.startswith("list_"):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"{c}: values must be a list, not {type(value).__name__}")
            return tuple(convert_one(c, kind[5:], v) for v in value)
        return convert_one(c, kind, value)

    def convert_one(c: str, k: str, v):
        if k == "string":
            return args.text_arg(c, "attrValue", v)
        if k == "float":
            if not isinstance(v, (int, float, np.number)) or isinstance(v, bool):
                raise TypeError(f"{c}: the value must be a number, not {type(v).__name__}")
            return float(np.float32(v))
        number = args.int_arg(c, "attrValue", v)
        return bool(number) if k == "bool" else number

    @acl_call(f"op.{name}")
    def setter(self, rt, attr: args.ptr, attr_name: args.text, attr_value):
        c = setter.prototype.c_name
        rt.single_ops.set_attr(attr, attr_name, kind, convert(c, attr_value), c)
    setter.__name__ = name
    return setter


class Op(OpExtras, Namespace):
    """acl.op"""

    @acl_call("op.create_attr")
    def create_attr(self, rt):
        return rt.single_ops.create_attr()

    @acl_call("op.destroy_attr")
    def destroy_attr(self, rt, attr: args.ptr):
        rt.single_ops.destroy_attr(attr)

    set_attr_bool = _attr_setter("bool", "set_attr_bool")
    set_attr_int = _attr_setter("int", "set_attr_int")
    set_attr_float = _attr_setter("float", "set_attr_float")
    set_attr_string = _attr_setter("string", "set_attr_string")
    set_attr_list_bool = _attr_setter("list_bool", "set_attr_list_bool")
    set_attr_list_int = _attr_setter("list_int", "set_attr_list_int")
    set_attr_list_float = _attr_setter("list_float", "set_attr_list_float")
    set_attr_list_string = _attr_setter("list_string", "set_attr_list_string")

    @acl_call("op.set_model_dir")
    def set_model_dir(self, rt, model_dir: args.path):
        rt.single_ops.set_model_dir(model_dir)

    @acl_call("op.execute_v2")
    def execute_v2(self, rt, op_type: args.text, input_desc: args.handles,
                   inputs: args.handles, output_desc: args.handles, outputs: args.handles,
                   attr: args.ptr, stream: args.ptr):
        rt.single_ops.execute(op_type, input_desc, inputs, output_desc, outputs, attr, stream,
                              "aclopExecuteV2")

    @acl_call("op.cast")
    def cast(self, rt, src_desc: args.ptr, src_buffer: args.ptr, dst_desc: args.ptr,
             dst_buffer: args.ptr, truncate: args.i64, stream: args.ptr):
        rt.single_ops.cast(src_desc, src_buffer, dst_desc, dst_buffer, bool(truncate), stream,
                           "aclopCast")

    @acl_call("op.create_handle")
    def create_handle(self, rt, op_type: args.text, input_desc: args.handles,
                      output_desc: args.handles, op_attr: args.ptr):
        return rt.single_ops.create_handle(op_type, input_desc, output_desc, op_attr,
                                           "aclopCreateHandle")

    @acl_call("op.execute_with_handle")
    def execute_with_handle(self, rt, handle: args.ptr, inputs: args.handles,
                            outputs: args.handles, stream: args.ptr):
        c = "aclopExecWithHandle"
        h = rt.single_ops.handle(handle, c)
        rt.single_ops.launch(h.model, h.in_descs, inputs, h.out_descs, outputs, stream, c)

    @acl_call("op.destroy_handle")
    def destroy_handle(self, rt, handle: args.ptr):
        rt.single_ops.destroy_handle(handle)

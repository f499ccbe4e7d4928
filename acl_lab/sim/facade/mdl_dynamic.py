"""``acl.mdl``'s dynamic-dims and shape-range calls: picking a --dynamic_dims gear, asking
which there are, a shape-range input's ranges and the tensor descriptions a dataset carries.
The work is sim/model_gears.py's and sim/model_ranges.py's; the aclmdlIODims dict is read
and written by spec/io_dims.py."""
from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args
from acl_lab.spec.io_dims import io_dims, parse_io_dims

#: pyACL's WrapAclMdlGetInputDynamicDims refuses more gears than this before calling ACL
GEAR_COUNT_LIMIT = 4096


class MdlDynamic:
    """The dynamic-dims and shape-range part of ``acl.mdl``."""

    @acl_call("mdl.set_input_dynamic_dims")
    def set_input_dynamic_dims(self, rt, model_id: args.i64, dataset: args.ptr,
                               index: args.size, dims):
        _name, values = parse_io_dims("aclmdlSetInputDynamicDims", dims)
        rt.models.set_dims(model_id, dataset, index, values)

    @acl_call("mdl.get_input_dynamic_gear_count")
    def get_input_dynamic_gear_count(self, rt, model_desc: args.ptr, index: args.i64):
        """``index`` is -1: pyACL reads it as an unsigned long ("k"), so -1 arrives as
        SIZE_MAX, the value model_om2.cpp requires."""
        return rt.models.gear_count(model_desc, index)

    @acl_call("mdl.get_input_dynamic_dims")
    def get_input_dynamic_dims(self, rt, model_desc: args.ptr, index: args.i64,
                               gear_count: args.size):
        if gear_count > GEAR_COUNT_LIMIT:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: gear_count is {count}; pyACL takes at most {most} (ACL was not "
                "called). Ask acl.mdl.get_input_dynamic_gear_count(desc, -1) for the "
                "model's count.").format(call="aclmdlGetInputDynamicDims", count=gear_count,
                                         most=GEAR_COUNT_LIMIT))
        return [io_dims("", dims) for dims in rt.models.dynamic_dims(model_desc, index,
                                                                     gear_count)]

    @acl_call("mdl.get_input_dims_range")
    def get_input_dims_range(self, rt, model_desc: args.ptr, index: args.size):
        ranges = rt.models.dims_range(model_desc, index)
        return {"rangeCount": len(ranges), "range": [list(r) for r in ranges]}

    @acl_call("mdl.set_dataset_tensor_desc")
    def set_dataset_tensor_desc(self, rt, dataset: args.ptr, tensor_desc: args.ptr,
                                index: args.size):
        rt.models.set_tensor_desc(dataset, tensor_desc, index)
        return dataset

    @acl_call("mdl.get_dataset_tensor_desc")
    def get_dataset_tensor_desc(self, rt, dataset: args.ptr, index: args.size):
        return rt.models.get_tensor_desc(dataset, index)

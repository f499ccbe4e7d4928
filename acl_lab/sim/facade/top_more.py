"""``acl.*``: the rest of the tensor-description family (sim/single_op/desc_extras.py), what
the CANN installation says (sim/cann_info.py), the platform's device capability and
aclFinalizeReference. Argument formats follow pyACL's wrappers (python/pyACL/
py_init_acl.cpp)."""
from acl_lab.sim import cann_info, device_queries as devices
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.single_op import desc_extras as descs
from acl_lab.spec import args


class TopMore:
    """acl: tensor descriptions beyond create / get / set shape, the CANN installation."""

    # ----- tensor descriptions ----------------------------------------------------------
    @acl_call("get_tensor_desc_dim")
    def get_tensor_desc_dim(self, rt, desc: args.ptr, index: args.size):
        return rt.single_ops.dim(desc, index, "aclGetTensorDescDim")

    @acl_call("trans_tensor_desc_format")
    def trans_tensor_desc_format(self, rt, src_desc: args.ptr, dst_format: args.i32):
        return descs.trans_format(rt, src_desc, dst_format)

    @acl_call("set_tensor_storage_format")
    def set_tensor_storage_format(self, rt, desc: args.ptr, format: args.i32):
        descs.set_format(rt, desc, format, storage=True)

    @acl_call("set_tensor_storage_shape")
    def set_tensor_storage_shape(self, rt, desc: args.ptr, dims: args.ints):
        descs.set_shape(rt, desc, dims, storage=True)

    @acl_call("set_tensor_origin_format")
    def set_tensor_origin_format(self, rt, desc: args.ptr, format: args.i32):
        descs.set_format(rt, desc, format, storage=False)

    @acl_call("set_tensor_origin_shape")
    def set_tensor_origin_shape(self, rt, desc: args.ptr, dims: args.ints):
        descs.set_shape(rt, desc, dims, storage=False)

    @acl_call("set_tensor_dynamic_input")
    def set_tensor_dynamic_input(self, rt, desc: args.ptr, dynamic_input_name: args.text):
        descs.set_entry(rt, desc, "dynamic_input", dynamic_input_name,
                        "aclSetTensorDynamicInput")

    @acl_call("set_tensor_shape_range")
    def set_tensor_shape_range(self, rt, desc: args.ptr, dims_range: args.pairs):
        descs.set_entry(rt, desc, "shape_range", dims_range, "aclSetTensorShapeRange")

    @acl_call("set_tensor_value_range")
    def set_tensor_value_range(self, rt, desc: args.ptr, value_range: args.pairs):
        descs.set_entry(rt, desc, "value_range", value_range, "aclSetTensorValueRange")

    @acl_call("get_tensor_desc_dim_range")
    def get_tensor_desc_dim_range(self, rt, desc: args.ptr, index: args.size,
                                  dim_range_num: args.size):
        return descs.dim_range(rt, desc, index, dim_range_num)

    @acl_call("get_tensor_desc_address")
    def get_tensor_desc_address(self, rt, desc: args.ptr):
        return descs.address(rt, desc)

    @acl_call("get_tensor_desc_by_index")
    def get_tensor_desc_by_index(self, rt, desc: args.ptr, index: args.size):
        return descs.by_index(rt, desc, index)

    @acl_call("set_tensor_place_ment")
    def set_tensor_place_ment(self, rt, desc: args.ptr, mem_type: args.i32):
        descs.set_entry(rt, desc, "placement", mem_type, "aclSetTensorPlaceMent")

    # ----- the CANN installation and the platform ---------------------------------------
    @acl_call("get_cann_attribute_list")
    def get_cann_attribute_list(self, rt):
        return cann_info.attribute_list(rt)

    @acl_call("get_cann_attribute")
    def get_cann_attribute(self, rt, cann_attr: args.i32):
        return cann_info.attribute(rt, cann_attr)

    @acl_call("get_device_capability")
    def get_device_capability(self, rt, device_id: args.u32, device_info: args.i32):
        return devices.platform_info(rt, device_id, device_info)

    @acl_call("get_cann_version")
    def get_cann_version(self, rt, name: args.u32):
        return cann_info.version(name)

    @acl_call("get_version_str")
    def get_version_str(self, rt, pkg_name: args.text):
        return cann_info.version_str(pkg_name)

    @acl_call("finalize_reference")
    def finalize_reference(self, rt):
        return rt.finalize_reference()


"""``acl.mdl``'s config handles (loading with one), exec config handles and
aclmdlExecuteV2, descriptions read without loading, bundles, tensor and op names, and the
calls the simulator refuses on purpose (an op's description after an AI Core exception,
the dump callback). The work is sim/model_configs.py's and sim/model_bundles.py's; pyACL's
argument parsing is WrapAclMdlSetConfigOpt's and WrapAclMdlSetExecConfigOpt's
(hicann/runtime python/pyACL/mdl/mdl_wrap.cpp)."""
from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import model_bundles, model_configs
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args
from acl_lab.spec.pyacl_functions import REFUSED

#: pyACL's WrapAclMdlCreateAndGetOpDesc refuses a longer name buffer before calling ACL
OP_NAME_LEN_LIMIT = 4096
#: how WrapAclMdlSetConfigOpt parses the value of each attribute (PyArg_Parse format)
_POINTERS = (C.ACL_MDL_MEM_ADDR_PTR, C.ACL_MDL_WEIGHT_ADDR_PTR, C.ACL_MDL_WORKSPACE_ADDR_PTR,
             C.ACL_MDL_WEIGHT_PATH_PTR)


def _config_value(attr: int, value):
    """The attribute's value as pyACL hands it to ACL: "i" for the priority, "s" for the
    model path, "k" for the pointers (the weight path too), "K" for the rest."""
    c = "aclmdlSetConfigOpt"
    if attr == C.ACL_MDL_PRIORITY_INT32:
        return args.i32_arg(c, "attrValue", value)
    if attr == C.ACL_MDL_PATH_PTR:
        return args.path_arg(c, "attrValue", value)
    if attr in _POINTERS:
        return args.ptr_arg(c, "attrValue", value)
    return args.u64_arg(c, "attrValue", value)


def _refused(name: str) -> SimError:
    refusal = REFUSED[name]
    return SimError(refusal.code, refusal.message())


class MdlConfig:
    """The config-handle, exec-config, bundle and naming part of ``acl.mdl``."""

    # ----- aclmdlConfigHandle ------------------------------------------------------------
    @acl_call("mdl.create_config_handle")
    def create_config_handle(self, rt):
        return model_configs.of(rt).create()

    @acl_call("mdl.destroy_config_handle")
    def destroy_config_handle(self, rt, handle: args.ptr):
        model_configs.of(rt).destroy(handle)

    @acl_call("mdl.set_config_opt")
    def set_config_opt(self, rt, handle: args.ptr, attr: args.i32, value):
        model_configs.of(rt).set_opt(handle, attr, _config_value(attr, value))

    @acl_call("mdl.load_with_config")
    def load_with_config(self, rt, handle: args.ptr):
        return model_configs.of(rt).load(handle)

    # ----- aclmdlExecConfigHandle and aclmdlExecuteV2 -------------------------------------
    @acl_call("mdl.create_exec_config_handle")
    def create_exec_config_handle(self, rt):
        return model_configs.of(rt).create_exec()

    @acl_call("mdl.destroy_exec_config_handle")
    def destroy_exec_config_handle(self, rt, handle: args.ptr):
        model_configs.of(rt).destroy_exec(handle)

    @acl_call("mdl.set_exec_config_opt")
    def set_exec_config_opt(self, rt, handle: args.ptr, attr: args.i64, value: args.i64):
        """pyACL reads ``value`` with "I": any int, kept to its low 32 bits."""
        model_configs.of(rt).set_exec_opt(handle, attr, value & 0xFFFFFFFF)

    @acl_call("mdl.execute_v2")
    def execute_v2(self, rt, model_id: args.i64, input_: args.ptr, output: args.ptr,
                   stream: args.ptr, handle: args.ptr):
        model_configs.of(rt).execute_v2(model_id, input_, output, stream, handle)

    # ----- descriptions without loading ----------------------------------------------------
    @acl_call("mdl.get_desc_from_file")
    def get_desc_from_file(self, rt, model_desc: args.ptr, model_path: args.path):
        c = "aclmdlGetDescFromFile"
        d = rt.models.desc(model_desc, c, filled=False)
        d.model, d.model_id = rt.models.read_file(model_path, c, graph=False), 0

    @acl_call("mdl.get_desc_from_mem")
    def get_desc_from_mem(self, rt, model_desc: args.ptr, model: args.ptr,
                          model_size: args.size):
        c = "aclmdlGetDescFromMem"
        d = rt.models.desc(model_desc, c, filled=False)
        d.model, d.model_id = rt.models.read_mem(model, model_size, c, graph=False), 0

    # ----- bundles ---------------------------------------------------------------------------
    @acl_call("mdl.bundle_load_from_file")
    def bundle_load_from_file(self, rt, model_path: args.path):
        return model_bundles.of(rt).load_file(model_path)

    @acl_call("mdl.bundle_load_from_mem")
    def bundle_load_from_mem(self, rt, model: args.ptr, model_size: args.size):
        return model_bundles.of(rt).load_mem(model, model_size)

    @acl_call("mdl.bundle_unload")
    def bundle_unload(self, rt, bundle_id: args.i64):
        model_bundles.of(rt).unload(bundle_id)

    @acl_call("mdl.bundle_get_model_num")
    def bundle_get_model_num(self, rt, bundle_id: args.i64):
        return len(model_bundles.of(rt).models(bundle_id, "aclmdlBundleGetModelNum"))

    @acl_call("mdl.bundle_get_model_id")
    def bundle_get_model_id(self, rt, bundle_id: args.i64, index: args.size):
        return model_bundles.of(rt).model_id(bundle_id, index)

    # ----- names -------------------------------------------------------------------------------
    @acl_call("mdl.get_tensor_real_name")
    def get_tensor_real_name(self, rt, model_desc: args.ptr, name: args.text):
        return _real_name(rt, model_desc, name)

    @acl_call("mdl.get_op_attr")
    def get_op_attr(self, rt, model_desc: args.ptr, op_name: args.text, attr: args.text):
        c = "aclmdlGetOpAttr"
        rt.models.desc(model_desc, c)
        if attr != C.ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: attr {attr} is not supported; the only one is "
                "ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES ({name}). NULL (None) came "
                "back.").format(call=c, attr=repr(attr),
                                name=repr(C.ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES)))
        raise _refused("mdl.get_op_attr")

    # ----- refused on purpose ------------------------------------------------------------------
    @acl_call("mdl.create_and_get_op_desc")
    def create_and_get_op_desc(self, rt, device_id: args.u32, stream_id: args.u32,
                               task_id: args.u32, op_name_len: args.size):
        if op_name_len > OP_NAME_LEN_LIMIT:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: op_name_len is {length}; pyACL takes at most {most} (ACL was not "
                "called).").format(call="aclmdlCreateAndGetOpDesc", length=op_name_len,
                                   most=OP_NAME_LEN_LIMIT))
        rt.check_device_id(device_id, "aclmdlCreateAndGetOpDesc")
        raise _refused("mdl.create_and_get_op_desc")

    @acl_call("mdl.dump_reg_callback")
    def dump_reg_callback(self, rt, callback: args.function, flag: args.i32):
        if flag != 0:            # acldumpRegCallback (adx_datadump_callback.cpp)
            raise SimError(C.ACL_ERROR_FAILURE, _(
                "{call}: flag is {flag}; it is reserved and must be 0 (dump data goes to the "
                "callback only).").format(call="acldumpRegCallback", flag=flag))
        raise _refused("mdl.dump_reg_callback")

    @acl_call("mdl.dump_unreg_callback")
    def dump_unreg_callback(self, rt):
        """Nothing was registered (the simulator refuses the registration), so nothing to
        drop; like pyACL's it returns None."""


def _real_name(rt, handle: int, name: str) -> str:
    """aclmdlGetTensorRealName (model_om2.cpp): a tensor's own name, or the name behind
    "acl_modelId_<id>_input_<i>" / "..._output_<i>" (TransTensorNameToReal)."""
    c = "aclmdlGetTensorRealName"
    d = rt.models.desc(handle, c)
    m = d.model
    for t in m.inputs + m.outputs:
        if t.name == name:
            return t.name
    parts = name.split("_")
    if (len(parts) in (5, 6) and parts[:2] == ["acl", "modelId"] and parts[2].isdigit()
            and int(parts[2]) == d.model_id and parts[4].isdigit()
            and parts[3] in ("input", "output")):
        items, index = (m.inputs if parts[3] == "input" else m.outputs), int(parts[4])
        if index < len(items):
            return items[index].name
    raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
        "{call}: the model has no tensor {name}; give a tensor name of the model, or "
        "acl_modelId_{model_id}_input_<i> / _output_<i>. NULL (None) came back.").format(
            call=c, name=repr(name), model_id=d.model_id))

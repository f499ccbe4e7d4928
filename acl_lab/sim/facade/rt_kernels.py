"""``acl.rt``'s kernel calls: binaries, kernel functions, argument lists and launches
(pyACL python/pyACL/rt/rt_binary.cpp; sim/kernels.py and sim/kernel_args.py do the work).
The simulator has no AI Core: the launches check everything, then are refused."""
from acl_lab.sim.facade._call import acl_call
from acl_lab.spec import args, kernel_rules
from acl_lab.spec.pyacl_dicts import lists, struct_fields


def _load_options(call: str, options) -> list[tuple[int, int]]:
    """pyACL's options list: [{"type": aclrtBinaryLoadOptionType, "value": uint32}, ...]."""
    return [tuple(struct_fields(call, o, "bin_option", type="int", value="uint").values())
            for o in options]


def _launch_attrs(call: str, cfg) -> list[tuple[int, int]]:
    """pyACL's cfg list: [{"id": aclrtLaunchKernelAttrId, "value": uint32}, ...]."""
    return [tuple(struct_fields(call, a, "cfg", id="int", value="uint").values())
            for a in cfg]


class RtKernels:
    """acl.rt: kernel binaries, functions, argument lists, launches"""

    @acl_call("rt.binary_load_from_file")
    def binary_load_from_file(self, rt, bin_path: args.path, options: lists):
        return rt.kernels.load_file(bin_path, _load_options("aclrtBinaryLoadFromFile", options))

    @acl_call("rt.binary_load_from_data")
    def binary_load_from_data(self, rt, data: args.ptr, length: args.size, options: lists):
        return rt.kernels.load_data(data, length,
                                    _load_options("aclrtBinaryLoadFromData", options))

    @acl_call("rt.create_binary")
    def create_binary(self, rt, data: args.ptr, data_len: args.size):
        return rt.kernels.create_blob(data, data_len)

    @acl_call("rt.destroy_binary")
    def destroy_binary(self, rt, binary: args.ptr):
        rt.kernels.destroy_blob(binary)

    @acl_call("rt.binary_load")
    def binary_load(self, rt, binary: args.ptr):
        return rt.kernels.load_blob(binary)

    @acl_call("rt.binary_unload")
    def binary_unload(self, rt, bin_handle: args.ptr):
        rt.kernels.unload(bin_handle)

    @acl_call("rt.binary_get_function")
    def binary_get_function(self, rt, bin_handle: args.ptr, kernel_name: args.text):
        return rt.kernels.get_function(bin_handle, kernel_name)

    @acl_call("rt.register_cpu_func")
    def register_cpu_func(self, rt, handle: args.ptr, func_name: args.text,
                          kernel_name: args.text):
        if not func_name or not kernel_name:   # pyACL checks before the C call
            raise ValueError("argument 2 or 3 must not be empty")
        return rt.kernels.register_cpu(handle, func_name, kernel_name)

    @acl_call("rt.get_function_addr")
    def get_function_addr(self, rt, func_handle: args.ptr):
        return rt.kernels.function_addr(func_handle)

    @acl_call("rt.get_function_name")
    def get_function_name(self, rt, func_handle: args.ptr, max_len: args.u32):
        if max_len >= kernel_rules.MAX_NAME_LEN:   # pyACL's own limit, before the C call
            raise ValueError("maxLen should be less than 1024")
        return rt.kernels.function_name(func_handle, max_len)

    @acl_call("rt.kernel_args_init")
    def kernel_args_init(self, rt, func_handle: args.ptr):
        return rt.kernel_args.init(func_handle)

    @acl_call("rt.kernel_args_init_by_user_mem")
    def kernel_args_init_by_user_mem(self, rt, func_handle: args.ptr, args_handle: args.ptr,
                                     user_host_mem: args.ptr, actual_args_size: args.size):
        rt.kernel_args.init_by_user_mem(func_handle, args_handle, user_host_mem,
                                        actual_args_size)

    @acl_call("rt.kernel_args_get_mem_size")
    def kernel_args_get_mem_size(self, rt, func_handle: args.ptr, user_args_size: args.size):
        f = rt.kernels.function(func_handle, "aclrtKernelArgsGetMemSize")
        return kernel_rules.args_mem_size(f.cpu, f.user_params, user_args_size)

    @acl_call("rt.kernel_args_get_handle_mem_size")
    def kernel_args_get_handle_mem_size(self, rt, func_handle: args.ptr):
        f = rt.kernels.function(func_handle, "aclrtKernelArgsGetHandleMemSize")
        return kernel_rules.handle_mem_size(f.user_params)

    @acl_call("rt.kernel_args_append")
    def kernel_args_append(self, rt, args_handle: args.ptr, param: args.ptr,
                           param_size: args.size):
        return rt.kernel_args.append(args_handle, param, param_size)

    @acl_call("rt.kernel_args_append_place_holder")
    def kernel_args_append_place_holder(self, rt, args_handle: args.ptr):
        return rt.kernel_args.append_place_holder(args_handle)

    @acl_call("rt.kernel_args_get_place_holder_buffer")
    def kernel_args_get_place_holder_buffer(self, rt, args_handle: args.ptr,
                                            param_handle: args.ptr, data_size: args.size):
        return rt.kernel_args.place_holder_buffer(args_handle, param_handle, data_size)

    @acl_call("rt.kernel_args_para_update")
    def kernel_args_para_update(self, rt, args_handle: args.ptr, param_handle: args.ptr,
                                param: args.ptr, param_size: args.size):
        rt.kernel_args.para_update(args_handle, param_handle, param, param_size)

    @acl_call("rt.kernel_args_finalize")
    def kernel_args_finalize(self, rt, args_handle: args.ptr):
        rt.kernel_args.finalize(args_handle)

    @acl_call("rt.launch_kernel")
    def launch_kernel(self, rt, func_handle: args.ptr, block_dim: args.u32,
                      args_data: args.ptr, args_size: args.size, stream: args.ptr):
        """Checked as aclrtLaunchKernel checks, then refused: the simulator has no AI Core."""
        rt.kernel_args.launch(func_handle, block_dim, args_data, args_size, stream)

    @acl_call("rt.launch_kernel_with_config")
    def launch_kernel_with_config(self, rt, func_handle: args.ptr, block_dim: args.u32,
                                  stream: args.ptr, cfg: lists, args_handle: args.ptr,
                                  reserve: args.ptr):
        """Checked as aclrtLaunchKernelWithConfig checks, then refused: the simulator has no
        AI Core."""
        rt.kernel_args.launch_with_config(
            func_handle, block_dim, stream, _launch_attrs("aclrtLaunchKernelWithConfig", cfg),
            args_handle, reserve)

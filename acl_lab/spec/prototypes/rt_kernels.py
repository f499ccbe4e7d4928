"""``acl.rt``'s kernel calls: binaries, kernel functions, argument lists and launches
(hicann/runtime include/external/acl/acl_rt.h; pyACL's wrappers in python/pyACL/rt/
rt_binary.cpp).
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "rt.binary_load_from_file": P("aclError aclrtBinaryLoadFromFile(const char *binPath, "
                                  "aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle)",
                                  "bin_handle, ret"),
    "rt.binary_load_from_data": P("aclError aclrtBinaryLoadFromData(const void *data, "
                                  "size_t length, const aclrtBinaryLoadOptions *options, "
                                  "aclrtBinHandle *binHandle)", "bin_handle, ret"),
    "rt.create_binary": P("aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen)",
                          "binary"),
    "rt.destroy_binary": P("aclError aclrtDestroyBinary(aclrtBinary binary)", "ret"),
    "rt.binary_load": P("aclError aclrtBinaryLoad(const aclrtBinary binary, "
                        "aclrtBinHandle *binHandle)", "bin_handle, ret"),
    "rt.binary_unload": P("aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)", "ret"),
    "rt.binary_get_function": P("aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, "
                                "const char *kernelName, aclrtFuncHandle *funcHandle)",
                                "func_handle, ret"),
    "rt.register_cpu_func": P("aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, "
                              "const char *funcName, const char *kernelName, "
                              "aclrtFuncHandle *funcHandle)", "func_handle, ret"),
    "rt.get_function_addr": P("aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, "
                              "void **aicAddr, void **aivAddr)", "aic_addr, aiv_addr, ret"),
    # pyACL returns the name buffer it zero-filled, so a failure gives ""
    "rt.get_function_name": P("aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, "
                              "uint32_t maxLen, char *name)", "name, ret", ("",)),
    "rt.kernel_args_init": P("aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, "
                             "aclrtArgsHandle *argsHandle)", "args_handle, ret"),
    "rt.kernel_args_init_by_user_mem": P("aclError aclrtKernelArgsInitByUserMem("
                                         "aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, "
                                         "void *userHostMem, size_t actualArgsSize)", "ret"),
    "rt.kernel_args_get_mem_size": P("aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle "
                                     "funcHandle, size_t userArgsSize, size_t *actualArgsSize)",
                                     "actual_args_size, ret"),
    "rt.kernel_args_get_handle_mem_size": P("aclError aclrtKernelArgsGetHandleMemSize("
                                            "aclrtFuncHandle funcHandle, size_t *memSize)",
                                            "mem_size, ret"),
    "rt.kernel_args_append": P("aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, "
                               "void *param, size_t paramSize, aclrtParamHandle *paramHandle)",
                               "param_handle, ret"),
    "rt.kernel_args_append_place_holder": P("aclError aclrtKernelArgsAppendPlaceHolder("
                                            "aclrtArgsHandle argsHandle, "
                                            "aclrtParamHandle *paramHandle)", "param_handle, ret"),
    "rt.kernel_args_get_place_holder_buffer": P("aclError aclrtKernelArgsGetPlaceHolderBuffer("
                                                "aclrtArgsHandle argsHandle, aclrtParamHandle "
                                                "paramHandle, size_t dataSize, "
                                                "void **bufferAddr)", "buffer_addr, ret"),
    "rt.kernel_args_para_update": P("aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle "
                                    "argsHandle, aclrtParamHandle paramHandle, void *param, "
                                    "size_t paramSize)", "ret"),
    "rt.kernel_args_finalize": P("aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)",
                                 "ret"),
    "rt.launch_kernel": P("aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, "
                          "uint32_t numBlocks, const void *argsData, size_t argsSize, "
                          "aclrtStream stream)", "ret"),
    "rt.launch_kernel_with_config": P("aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle "
                                      "funcHandle, uint32_t numBlocks, aclrtStream stream, "
                                      "aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, "
                                      "void *reserve)", "ret"),
}

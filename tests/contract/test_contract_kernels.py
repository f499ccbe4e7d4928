"""Kernel binaries, kernel functions, argument lists and launches (issue 31, acl.rt kernels).

Compared: return codes, names, the sizes the runtime's rules give, the bytes an argument
list holds. The binaries are small ELF objects made by tests/kernelhelpers.py: a device
loads only binaries the Ascend C compiler built for it, so on ``--backend ascend`` these
tests are skipped. On the simulator the launches are refused (no AI Core) with
ACL_ERROR_RT_FEATURE_NOT_SUPPORT, after every argument was checked.
"""
import numpy as np
import pytest

from acl_lab import constants as C
from kernelhelpers import elf_object

H2H = C.ACL_MEMCPY_HOST_TO_HOST


@pytest.fixture
def binary(acl, target, tmp_path):
    if target[0] == "ascend":
        pytest.skip("a device loads only kernel binaries built for it")
    path = tmp_path / "kernels.o"
    path.write_bytes(elf_object(["add_custom", "mul_custom"], hidden=["helper"],
                                local=["static_fn"]))
    handle, ret = acl.rt.binary_load_from_file(str(path), [])
    assert ret == 0 and handle
    yield path, handle
    acl.rt.binary_unload(handle)


def test_a_binary_holds_its_global_visible_functions(acl, binary, refused):
    _path, handle = binary
    f, ret = acl.rt.binary_get_function(handle, "add_custom")
    assert ret == 0 and f
    assert acl.rt.binary_get_function(handle, "add_custom") == (f, 0)   # the same function
    assert acl.rt.get_function_name(f, 64) == ("add_custom", 0)
    aic, aiv, ret = acl.rt.get_function_addr(f)
    assert ret == 0 and aic and not aiv           # an AI Core kernel's code address
    for hidden in ("helper", "static_fn", "nope"):
        ret = acl.rt.binary_get_function(handle, hidden)
        assert ret[0] == 0
        refused(ret[1], C.ACL_ERROR_RT_PARAM_INVALID)
    ret = acl.rt.get_function_name(f, len("add_custom"))     # no room for the NUL
    assert ret[0] == ""
    refused(ret[1], C.ACL_ERROR_RT_PARAM_INVALID)
    with pytest.raises(ValueError):
        acl.rt.get_function_name(f, 1024)                       # pyACL's own limit


def test_loading_from_data_and_from_a_binary_description(acl, binary, refused):
    data = elf_object(["k1"])
    blob = acl.rt.create_binary(acl.util.bytes_to_ptr(data), len(data))
    assert blob
    handle, ret = acl.rt.binary_load(blob)
    assert ret == 0
    assert acl.rt.binary_get_function(handle, "k1")[1] == 0
    assert acl.rt.destroy_binary(blob) == 0
    refused(acl.rt.destroy_binary(blob), C.ACL_ERROR_INVALID_PARAM)
    h2, ret = acl.rt.binary_load_from_data(acl.util.bytes_to_ptr(data), len(data),
                                           [{"type": C.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD,
                                             "value": 1}])
    assert ret == 0
    for h in (handle, h2):
        assert acl.rt.binary_unload(h) == 0
    refused(acl.rt.binary_unload(handle), C.ACL_ERROR_RT_INVALID_HANDLE)
    assert acl.rt.create_binary(0, 10) == 0


@pytest.mark.parametrize("data, why", [
    (b"not an elf at all", "magic"),
    (elf_object(bits=32), "32-bit"),
    (elf_object([], data=["table"]), "no kernel"),
    (elf_object()[:100], "section header"),
])
def test_what_is_not_a_kernel_binary_is_refused(acl, binary, refused, data, why):
    ret = acl.rt.binary_load_from_data(acl.util.bytes_to_ptr(data), len(data), [])
    assert ret[0] == 0
    refused(ret[1], C.ACL_ERROR_RT_PARAM_INVALID)


def test_a_big_endian_binary_is_read_too(acl, binary):
    data = elf_object(["be_kernel"], big_endian=True)
    handle, ret = acl.rt.binary_load_from_data(acl.util.bytes_to_ptr(data), len(data), [])
    assert ret == 0 and acl.rt.binary_get_function(handle, "be_kernel")[1] == 0


def test_load_options_are_checked_as_the_loader_checks_them(acl, binary, refused):
    path, _handle = binary
    data = elf_object()
    ptr = acl.util.bytes_to_ptr(data)
    for options in ([{"type": C.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, "value": 2}],
                    [{"type": 9, "value": 0}],
                    [{"type": C.ACL_RT_BINARY_LOAD_OPT_MAGIC, "value": 5}]):
        refused(acl.rt.binary_load_from_data(ptr, len(data), options)[1],
                C.ACL_ERROR_RT_PARAM_INVALID)
    magic = [{"type": C.ACL_RT_BINARY_LOAD_OPT_MAGIC,
              "value": C.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE}]
    refused(acl.rt.binary_load_from_file(str(path), magic)[1], C.ACL_ERROR_RT_PARAM_INVALID)
    vector, ret = acl.rt.binary_load_from_data(ptr, len(data), magic)
    assert ret == 0
    f, _ = acl.rt.binary_get_function(vector, "add_custom")
    aic, aiv, ret = acl.rt.get_function_addr(f)
    assert ret == 0 and not aic and aiv           # a vector kernel's one address
    with pytest.raises(ValueError):
        acl.rt.binary_load_from_data(ptr, len(data), {"type": 1})        # not a list
    with pytest.raises(TypeError):
        acl.rt.binary_load_from_data(ptr, len(data), [1])                # not a dict


def test_an_argument_list_lays_out_parameters_and_placeholders(acl, binary):
    _path, handle = binary
    f, _ = acl.rt.binary_get_function(handle, "add_custom")
    assert acl.rt.kernel_args_get_mem_size(f, 24) == (24 + 8 * 8 + 128 * 8, 0)
    assert acl.rt.kernel_args_get_handle_mem_size(f) == (96 + 128 * 48, 0)
    args, ret = acl.rt.kernel_args_init(f)
    assert ret == 0
    x, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    pointer = np.array([x], np.uint64)
    p1, ret = acl.rt.kernel_args_append(args, acl.util.numpy_to_ptr(pointer), 8)
    assert ret == 0
    one = np.array([7], np.int32)
    p2, ret = acl.rt.kernel_args_append(args, acl.util.numpy_to_ptr(one), 4)
    assert ret == 0 and p2 == p1 + 48
    holder, ret = acl.rt.kernel_args_append_place_holder(args)
    assert ret == 0
    buf, ret = acl.rt.kernel_args_get_place_holder_buffer(args, holder, 4)
    assert ret == 0 and buf
    length = np.array([2048], np.int32)     # the program writes its data there
    assert acl.rt.memcpy(buf, 4, acl.util.numpy_to_ptr(length), 4, H2H) == 0
    assert acl.rt.kernel_args_finalize(args) == 0
    assert acl.rt.kernel_args_para_update(args, p2, acl.util.numpy_to_ptr(one), 4) == 0
    assert acl.rt.kernel_args_finalize(args) == 0
    assert acl.rt.free(x) == 0


def test_building_out_of_order_is_refused(acl, binary, refused):
    _path, handle = binary
    f, _ = acl.rt.binary_get_function(handle, "add_custom")
    args, _ = acl.rt.kernel_args_init(f)
    value = np.zeros(2, np.uint64)
    ptr = acl.util.numpy_to_ptr(value)
    common, _ = acl.rt.kernel_args_append(args, ptr, 8)
    refused(acl.rt.kernel_args_get_place_holder_buffer(args, common, 4)[1],
            C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.kernel_args_para_update(args, common, ptr, 16), C.ACL_ERROR_RT_PARAM_INVALID)
    holder, _ = acl.rt.kernel_args_append_place_holder(args)
    assert acl.rt.kernel_args_get_place_holder_buffer(args, holder, 8)[1] == 0
    refused(acl.rt.kernel_args_append(args, ptr, 8)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.kernel_args_finalize(args) == 0
    refused(acl.rt.kernel_args_append_place_holder(args)[1], C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    refused(acl.rt.kernel_args_append(args, 0, 8)[1], C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.kernel_args_append(args, ptr, 0)[1], C.ACL_ERROR_INVALID_PARAM)
    # a second init in the same thread hands back the same list, emptied
    again, _ = acl.rt.kernel_args_init(f)
    assert again == args
    refused(acl.rt.kernel_args_para_update(args, common, ptr, 8), C.ACL_ERROR_RT_INVALID_HANDLE)


def test_an_argument_list_in_the_programs_own_memory(acl, binary, refused):
    _path, handle = binary
    f, _ = acl.rt.binary_get_function(handle, "add_custom")
    handle_size, _ = acl.rt.kernel_args_get_handle_mem_size(f)
    args_size, _ = acl.rt.kernel_args_get_mem_size(f, 16)
    holder, _ = acl.rt.malloc_host(handle_size)
    buffer, _ = acl.rt.malloc_host(args_size)
    assert acl.rt.kernel_args_init_by_user_mem(f, holder, buffer, args_size) == 0
    value = np.array([0x1122334455667788], np.uint64)
    _p, ret = acl.rt.kernel_args_append(holder, acl.util.numpy_to_ptr(value), 8)
    assert ret == 0
    assert acl.util.ptr_to_bytes(buffer, 8) == value.tobytes()   # written where asked
    small, _ = acl.rt.malloc_host(16)
    refused(acl.rt.kernel_args_init_by_user_mem(f, small, buffer, args_size),
            C.ACL_ERROR_RT_PARAM_INVALID)                 # no room for the handle
    refused(acl.rt.kernel_args_init_by_user_mem(f, holder, buffer, 0), C.ACL_ERROR_INVALID_PARAM)
    for p in (holder, buffer, small):
        assert acl.rt.free_host(p) == 0


def test_launches_check_their_arguments_then_are_refused_without_an_ai_core(acl, binary,
                                                                           refused):
    _path, handle = binary
    f, _ = acl.rt.binary_get_function(handle, "add_custom")
    g, _ = acl.rt.binary_get_function(handle, "mul_custom")
    stream, _ = acl.rt.create_stream()
    args, _ = acl.rt.kernel_args_init(f)
    refused(acl.rt.launch_kernel_with_config(f, 8, stream, [], args, 0),
            C.ACL_ERROR_RT_PARAM_INVALID)                 # not finalized
    assert acl.rt.kernel_args_finalize(args) == 0
    refused(acl.rt.launch_kernel_with_config(f, 0, stream, [], args, 0),
            C.ACL_ERROR_INVALID_PARAM)                    # no block
    refused(acl.rt.launch_kernel_with_config(f, 8, stream, [], args, 1),
            C.ACL_ERROR_INVALID_PARAM)                    # reserve
    refused(acl.rt.launch_kernel_with_config(g, 8, stream, [], args, 0),
            C.ACL_ERROR_RT_PARAM_INVALID)                 # a list for another kernel
    refused(acl.rt.launch_kernel_with_config(f, 8, stream, [{"id": 42, "value": 0}], args, 0),
            C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.launch_kernel_with_config(f, 8, stream, [], args, 0),
            C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    dev_args, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    refused(acl.rt.launch_kernel(f, 8, 0, 64, stream), C.ACL_ERROR_INVALID_PARAM)
    refused(acl.rt.launch_kernel(f, 0, dev_args, 64, stream), C.ACL_ERROR_RT_PARAM_INVALID)
    refused(acl.rt.launch_kernel(f, 8, dev_args, 64, stream), C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.free(dev_args) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_unloading_a_binary_ends_its_functions_and_their_argument_lists(acl, binary, refused):
    data = elf_object(["k"])
    handle, _ = acl.rt.binary_load_from_data(acl.util.bytes_to_ptr(data), len(data), [])
    f, _ = acl.rt.binary_get_function(handle, "k")
    args, _ = acl.rt.kernel_args_init(f)
    assert acl.rt.binary_unload(handle) == 0
    refused(acl.rt.get_function_name(f, 16)[1], C.ACL_ERROR_RT_INVALID_HANDLE)
    refused(acl.rt.kernel_args_finalize(args), C.ACL_ERROR_RT_INVALID_HANDLE)

"""The leak report names kernel binaries, binary descriptions and allocator descriptions a
program never released, each with the call that releases it."""
from acl_lab.run.leaks import live_resources
from acl_lab.session import SESSION
from kernelhelpers import elf_object


def test_kernel_and_allocator_objects_left_behind_are_reported(acl):
    elf = elf_object()
    ptr = acl.util.bytes_to_ptr(elf)
    acl.rt.binary_load_from_data(ptr, len(elf), [])
    acl.rt.create_binary(ptr, len(elf))
    acl.rt.allocator_create_desc()
    lines = live_resources(SESSION.simulator.rt)
    assert any(line.startswith("1 aclrtBinHandle never released (release with "
                               "acl.rt.binary_unload)") for line in lines)
    assert any("1 aclrtBinary never released (release with acl.rt.destroy_binary)" in line
               for line in lines)
    assert any("1 aclrtAllocatorDesc never released (release with "
               "acl.rt.allocator_destroy_desc)" in line for line in lines)


def test_released_ones_are_not(acl):
    elf = elf_object()
    handle, _ = acl.rt.binary_load_from_data(acl.util.bytes_to_ptr(elf), len(elf), [])
    desc = acl.rt.allocator_create_desc()
    assert acl.rt.binary_unload(handle) == 0 and acl.rt.allocator_destroy_desc(desc) == 0
    assert not any("aclrtBin" in line or "aclrtAllocator" in line
                   for line in live_resources(SESSION.simulator.rt))

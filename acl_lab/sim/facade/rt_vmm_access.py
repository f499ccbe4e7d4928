"""``acl.rt``'s access rights on mapped virtual memory (sim/vmm_access.py): not in pyACL,
named by the kit's convention for unbound calls (acl_rt.h aclrtMemMapNoAccess,
aclrtMemSetAccess, aclrtMemGetAccess)."""
from acl_lab.sim import vmm_access
from acl_lab.sim.facade._call import acl_call
from acl_lab.spec import args


class RtVmmAccess:
    """acl.rt: map without access, grant access, ask what access a location has"""

    @acl_call("rt.mem_map_no_access")
    def mem_map_no_access(self, rt, vir_ptr: args.ptr, size: args.size, offset: args.size,
                          handle: args.ptr, flags: args.u64):
        rt.vmm.map(vir_ptr, size, offset, handle, flags, call="aclrtMemMapNoAccess")

    @acl_call("rt.mem_set_access")
    def mem_set_access(self, rt, vir_ptr: args.ptr, size: args.size, desc):
        vmm_access.set_access(rt.vmm, vir_ptr, size, desc)

    @acl_call("rt.mem_get_access")
    def mem_get_access(self, rt, vir_ptr: args.ptr, location):
        return vmm_access.get_access(rt.vmm, vir_ptr, location)

"""``acl.rt``'s access rights on mapped virtual memory (hicann/runtime
include/external/acl/acl_rt.h: aclrtMemSetAccess, aclrtMemGetAccess, aclrtMemMapNoAccess).
pyACL binds none of them: the kit's convention for unbound calls (snake_case of the C name
under ``acl.rt``, a list of dicts for a struct array whose count is its length, an
out-parameter returned before ret; native bindings on hardware).
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "rt.mem_map_no_access": P("aclError aclrtMemMapNoAccess(void *virPtr, size_t size, "
                              "size_t offset, aclrtDrvMemHandle handle, uint64_t flags)", "ret"),
    "rt.mem_set_access": P("aclError aclrtMemSetAccess(void *virPtr, size_t size, "
                           "aclrtMemAccessDesc *desc, size_t count)", "ret"),
    "rt.mem_get_access": P("aclError aclrtMemGetAccess(void *virPtr, "
                           "aclrtMemLocation *location, uint64_t *flag)", "flag, ret"),
}

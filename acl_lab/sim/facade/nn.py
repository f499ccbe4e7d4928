"""``acl.nn``: aclnn operators, two-phase (get the workspace size and an executor, then launch
on a stream) over tensors and scalars on device memory (sim/aclnn.py does the work)."""
import numpy as np

from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.spec import args


class Nn(Namespace):
    """acl.nn"""

    @acl_call("nn.create_tensor")
    def create_tensor(self, rt, shape: args.ints.named("viewDims"), data_type: args.i64,
                      strides: args.ints.named("stride"), offset: args.i64, fmt: args.i64.named("format"),
                      storage_shape: args.ints.named("storageDims"),
                      dev_ptr: args.ptr.named("tensorData")):
        return rt.aclnn.create_tensor(shape, data_type, strides, offset, fmt, storage_shape,
                                      dev_ptr)

    @acl_call("nn.create_scalar")
    def create_scalar(self, rt, value, data_type: args.i64):
        if not isinstance(value, (int, float, np.number, bool)):
            raise TypeError(f"aclCreateScalar: value must be a number, not {type(value).__name__}")
        return rt.aclnn.create_scalar(value, data_type)

    @acl_call("nn.destroy_tensor")
    def destroy_tensor(self, rt, tensor: args.ptr):
        rt.aclnn.destroy(rt.aclnn.tensors, tensor, "aclDestroyTensor")

    @acl_call("nn.destroy_scalar")
    def destroy_scalar(self, rt, scalar: args.ptr):
        rt.aclnn.destroy(rt.aclnn.scalars, scalar, "aclDestroyScalar")

    @acl_call("nn.add_get_workspace_size")
    def add_get_workspace_size(self, rt, self_: args.ptr, other: args.ptr, alpha: args.ptr,
                               out: args.ptr):
        return rt.aclnn.prepare("Add", "aclnnAddGetWorkspaceSize",
                                {"self": self_, "other": other, "out": out},
                                {"alpha": alpha}, "out")

    @acl_call("nn.mul_get_workspace_size")
    def mul_get_workspace_size(self, rt, self_: args.ptr, other: args.ptr, out: args.ptr):
        return rt.aclnn.prepare("Mul", "aclnnMulGetWorkspaceSize",
                                {"self": self_, "other": other, "out": out}, {}, "out")

    @acl_call("nn.inplace_copy_get_workspace_size")
    def inplace_copy_get_workspace_size(self, rt, self_ref: args.ptr, src: args.ptr):
        return rt.aclnn.prepare("InplaceCopy", "aclnnInplaceCopyGetWorkspaceSize",
                                {"src": src, "selfRef": self_ref}, {}, "selfRef")

    @acl_call("nn.add")
    def add(self, rt, workspace: args.ptr, workspace_size: args.size, executor: args.ptr,
            stream: args.ptr):
        rt.aclnn.launch("Add", workspace, workspace_size, executor,
                        rt.stream(stream, "aclnnAdd"))

    @acl_call("nn.mul")
    def mul(self, rt, workspace: args.ptr, workspace_size: args.size, executor: args.ptr,
            stream: args.ptr):
        rt.aclnn.launch("Mul", workspace, workspace_size, executor,
                        rt.stream(stream, "aclnnMul"))

    @acl_call("nn.inplace_copy")
    def inplace_copy(self, rt, workspace: args.ptr, workspace_size: args.size,
                     executor: args.ptr, stream: args.ptr):
        rt.aclnn.launch("InplaceCopy", workspace, workspace_size, executor,
                        rt.stream(stream, "aclnnInplaceCopy"))

"""Peer access between devices: which device may reach which, and the copies it allows.

Rules follow hicann/runtime src/acl/aclrt_impl/memory.cpp (aclrtDeviceCanAccessPeerImpl,
aclrtDeviceEnablePeerAccessImpl, aclrtDeviceDisablePeerAccessImpl) and
src/runtime/api/impl/api_impl.cc (ApiImpl::DeviceCanAccessPeer): a device and itself is an
invalid parameter, flags other than 0 are unsupported, the feature needs the host run mode
(ACL_HOST), and enabling acts for the current thread's device. A copy between two devices'
memory runs once the current device has enabled access to the other one.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError


class PeerAccess:
    def __init__(self, rt):
        self.rt = rt
        self.enabled: set[tuple[int, int]] = set()    # (device, peer it may access)

    def _pair(self, device: int, peer: int, call: str) -> None:
        self.rt.check_device_id(device, call)
        self.rt.check_device_id(peer, call)
        if device == peer:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: deviceId {device} cannot be equal to peerDeviceId {peer}; "
                             "peer access is between two different devices.").format(
                               call=call, device=device, peer=peer))
        if self.rt.profile.run_mode != C.ACL_HOST:
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           _("{call}: this {soc} board runs in ACL_DEVICE mode, where peer "
                             "access between devices is not supported.").format(
                               call=call, soc=self.rt.profile.soc_name))

    def can_access(self, device: int, peer: int) -> int:
        call = "aclrtDeviceCanAccessPeer"
        self._pair(device, peer, call)
        self.rt.require_ctx(call)
        return 1

    def enable(self, peer: int, flags: int) -> None:
        call = "aclrtDeviceEnablePeerAccess"
        if flags != 0:
            raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED,
                           _("{call}: flags={flags} is reserved and must be 0.").format(
                               call=call, flags=flags))
        device = self.rt.require_ctx(call).device
        self._pair(device, peer, call)
        self.enabled.add((device, peer))

    def disable(self, peer: int) -> None:
        call = "aclrtDeviceDisablePeerAccess"
        device = self.rt.require_ctx(call).device
        self._pair(device, peer, call)
        self.enabled.discard((device, peer))

    def forget(self, device: int) -> None:
        """A device was reset: what it enabled, and what others enabled towards it, is gone."""
        self.enabled = {p for p in self.enabled if device not in p}

    def check_copy(self, call: str, dst, src) -> None:
        """A copy between two devices' memory needs the current device to have enabled
        access to the other device (the official 2_device_P2P example)."""
        if src.device == dst.device:
            return
        ctx = self.rt.current_ctx
        me = ctx.device if ctx is not None else None
        other = dst.device if me == src.device else src.device if me == dst.device else None
        if other is not None and (me, other) in self.enabled:
            return
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: source is on device {src}, destination on device {dst}, and "
                         "peer access is not enabled for this thread's device ({me}). Check "
                         "acl.rt.device_can_access_peer({src}, {dst}), then on the current "
                         "device call acl.rt.device_enable_peer_access(<the other device>, 0); "
                         "or stage the data through host memory.").format(
                           call=call, src=src.device, dst=dst.device, me=me))

"""What the CANN installation says about itself: package versions and the attributes of
the software stack on this chip. The simulator stands for one CANN release
(sim/device_facts.py: CANN_VERSION, PACKAGES); the rules are hicann/runtime's
src/acl/aclrt_impl/acl.cpp (aclsysGetCANNVersionImpl, aclsysGetVersionStrImpl, FillinPackage-
Version, GetPkgVersionContent) and src/acl/utils/cann_info_utils.cpp (the attribute table).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import device_facts as facts
from acl_lab.sim.simerror import SimError

#: aclCannAttr values the runtime knows (cann_info_utils.cpp attrToCannInfo_)
KNOWN_ATTRS = (C.ACL_CANN_ATTR_INF_NAN, C.ACL_CANN_ATTR_BF16, C.ACL_CANN_ATTR_JIT_COMPILE)


def attribute_list(rt) -> tuple[list, int]:
    attrs = list(facts.chip(rt.profile.soc_name).cann_attrs)
    return attrs, len(attrs)


def attribute(rt, attr: int) -> int:
    """1 when the stack supports ``attr`` on this chip, else 0; an attribute the runtime does
    not know is ACL_ERROR_INVALID_PARAM (CannInfoUtils::GetAttribute)."""
    if attr not in KNOWN_ATTRS:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: cannAttr {attr} is not ACL_CANN_ATTR_INF_NAN (0), "
                         "ACL_CANN_ATTR_BF16 (1) or ACL_CANN_ATTR_JIT_COMPILE (2).").format(
                           call="aclGetCannAttribute", attr=attr))
    return int(attr in facts.chip(rt.profile.soc_name).cann_attrs)


def version(name: int) -> dict:
    """aclsysGetCANNVersion: the package's version.info split in four parts (missing ones
    read "0"); a name outside aclCANNPackageName is ACL_ERROR_INVALID_PARAM."""
    folder = facts.PACKAGE_OF.get(name)
    if folder is None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: name {name} is not an aclCANNPackageName (ACL_PKG_NAME_CANN = 0 "
                         "... ACL_PKG_NAME_DRIVER = 7).").format(call="aclsysGetCANNVersion",
                                                                  name=name))
    text = facts.PACKAGES[folder]
    parts = (text.split(".") + ["0"] * 4)[:4]
    return {"version": text, "major_version": parts[0], "minor_version": parts[1],
            "release_version": parts[2], "patch_version": parts[3], "reserved": ""}


def version_str(pkg_name: str) -> str:
    """aclsysGetVersionStr: the "Version=" line of the package's version.info; '-' and '_'
    are tried both ways; a package that is not installed is ACL_ERROR_INVALID_FILE."""
    for name in (pkg_name, pkg_name.replace("-", "_"), pkg_name.replace("_", "-")):
        if name in facts.PACKAGES:
            return facts.PACKAGES[name]
    raise SimError(C.ACL_ERROR_INVALID_FILE,
                   _("{call}: no package {name} is installed (no share/info/{name}/version.info). "
                     "The simulated CANN has {names}.").format(
                       call="aclsysGetVersionStr", name=repr(pkg_name),
                       names=", ".join(sorted(facts.PACKAGES))))

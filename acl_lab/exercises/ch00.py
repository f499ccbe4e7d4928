"""Chapter 00 checks: reading what a pyACL call returns."""
from __future__ import annotations

import numbers

from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import _

from . import NotYet, exercise


@exercise("00.1", "Count the devices",
          "acl.rt.get_device_count() returns a tuple (count, ret): write "
          "count, ret = acl.rt.get_device_count() and pass count.")
def device_count(acl, count):
    expected, ret = acl.rt.get_device_count()
    assert ret == C.ACL_SUCCESS
    if isinstance(count, tuple):
        raise NotYet(_("that is the whole (count, ret) tuple; unpack it: "
                       "count, ret = acl.rt.get_device_count()."))
    assert type(count) is int and count == expected
    return _("this machine has {count} device(s), numbered 0 to {last}.").format(
        count=count, last=count - 1)


@exercise("00.2", "Name the failure",
          "Ids run from 0 to count - 1, so `count` itself does not exist: write "
          "count, _ = acl.rt.get_device_count(), then ret = acl.rt.set_device(count), and "
          "pass ret.")
def invalid_device(acl, ret):
    if isinstance(ret, tuple):
        raise NotYet(_("set_device only acts, so it returns a bare ret, not a tuple."))
    if not isinstance(ret, numbers.Integral):
        raise NotYet(_("ret should be the int set_device returned, not {type}.").format(
            type=type(ret).__name__))
    if ret == C.ACL_SUCCESS:
        raise NotYet(_("that call succeeded: device ids run from 0 to count - 1, so ask for "
                       "device `count`."))
    assert ret == C.ACL_ERROR_RT_INVALID_DEVICEID
    return _("{error}: device ids run from 0 to count - 1.").format(
        error=explain(ret).split(":")[0])

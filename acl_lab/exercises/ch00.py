"""Chapter 00 checks: reading what a pyACL call returns."""
from __future__ import annotations

import numbers

from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import _

from acl_lab.exercises import NotYet, exercise, learner_name


@exercise("00.1", "Count the devices",
          "Ask ACL how many devices it sees (aclrtGetDeviceCount). A pyACL call that "
          "produces a value returns a tuple: the value first, ret last.",
          level="easy",
          more=("Unpack the tuple that acl.rt.get_device_count() returns into two names, the "
                "count and the ret, and pass the count to the check.",),
          solution="""
          count, ret = acl.rt.get_device_count()    # (value, ret): keep the value
          """)
def device_count(acl, count):
    expected, ret = acl.rt.get_device_count()
    assert ret == C.ACL_SUCCESS
    name = learner_name(count, "count")
    if isinstance(count, tuple):
        raise NotYet(_("{name} is the whole (count, ret) tuple: keep only its first "
                       "element.").format(name=name),
                     _("{name} is the whole (count, ret) tuple: unpack it into two names "
                       "and pass the first.").format(name=name))
    if type(count) is not int or count != expected:
        raise NotYet(_("{name} is {value!r}: it should be the number of devices ACL "
                       "reports.").format(name=name, value=count))
    return _("this machine has {count} device(s), numbered 0 to {last}.").format(
        count=count, last=count - 1)


@exercise("00.2", "Name the failure",
          "Device ids run from 0 to count - 1. Ask for the device count first, then try to "
          "set the device whose id is the count itself, and pass what that call returns.",
          level="easy",
          more=("set_device only acts, so it returns a bare ret. Read it with "
                "acl_lab.explain(ret).",),
          solution="""
          count, _ = acl.rt.get_device_count()
          ret = acl.rt.set_device(count)            # ids run from 0 to count - 1
          print(acl_lab.explain(ret))
          """)
def invalid_device(acl, ret):
    name = learner_name(ret, "ret")
    if isinstance(ret, tuple):
        raise NotYet(_("set_device only acts, so it returns a bare ret, not a tuple."))
    if not isinstance(ret, numbers.Integral):
        raise NotYet(_("ret should be the int set_device returned, not {type}.").format(
            type=type(ret).__name__))
    if ret == C.ACL_SUCCESS:
        raise NotYet(_("that call succeeded: device ids run from 0 to count - 1, so ask for "
                       "device `count`."))
    if ret != C.ACL_ERROR_RT_INVALID_DEVICEID:
        raise NotYet(_("{name} is {error}, the failure of another call: pass the ret of "
                       "acl.rt.set_device with an id one past the last device.").format(
                           name=name, error=explain(ret).split(":")[0]))
    return _("{error}: device ids run from 0 to count - 1.").format(
        error=explain(ret).split(":")[0])

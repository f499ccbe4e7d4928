"""The exceptions acl_lab raises for ACL codes (public names; acl_lab/spec/refusal.py defines
them), and ``explain``: what any code means and what to do (acl_lab/spec/codes.py)."""

from acl_lab.constants import ERROR_NAMES
from acl_lab.spec.codes import explain
from acl_lab.spec.refusal import (AclLabError, Refusal, SimulatorLimit, as_int, check_unsigned,
                                  negative_size)

__all__ = ["AclLabError", "SimulatorLimit", "Refusal", "explain", "as_int", "check_unsigned",
           "negative_size", "ERROR_NAMES"]

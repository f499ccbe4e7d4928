"""Which functions pyACL binds, which of them a pyACL-shaped ``acl`` offers, and which the
kit refuses on purpose: one table for `acl-lab doctor`, docs/pyacl-coverage.md
(tools/pyacl_functions.py) and the facade methods of the refused calls.

pyACL's functions are the entries of the ``PyMethodDef`` tables of hicann/runtime's
``python/pyACL`` (``py_init_acl.cpp`` for the top level, ``<namespace>/py<namespace>_
methods.cpp`` for the rest), copied into ``pyacl_functions.txt`` beside this module with
the commit they come from. Entries inside ``#ifdef USE_MDL`` are built only for the MDC
products and are not counted.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

from acl_lab import constants as C
from acl_lab.i18n import N_, _

#: pyACL's namespaces ("" is the top level, ``acl.init``), in the order the tables list them
NAMESPACES = ("", "rt", "mdl", "media", "op", "util", "prof", "blas")
DATA = "pyacl_functions.txt"
MAX_DATA = 1 << 16          # the table is ~30 KB: a larger file is not the one shipped


class Refusal(NamedTuple):
    """A call the simulator offers but refuses on purpose: its C name, code and why."""
    c_name: str
    code: int
    reason: str      # N_-marked; show with _(reason).format(call=c_name)

    def message(self) -> str:
        """The reason in the learner's language, for acl.get_recent_err_msg()."""
        return _(self.reason).format(call=self.c_name)


#: pyACL calls the simulator cannot give an effect, "namespace.name" -> Refusal. Each still
#: exists on load() (never a missing attribute), checks its arguments as the runtime does,
#: then returns the code with the reason.
_NO_AI_CORE = N_(
    "{call}: the simulator cannot run a custom AI Core kernel (there is no AI Core to execute "
    "its binary), so the launch is refused after every argument was checked; on an NPU it "
    "would run. Compute on the simulator with an aclnn operator (acl.nn) or a single operator "
    "(acl.op) instead.")
_NO_EXCEPTION_RECORD = N_(
    "{call}: no task failed on the simulator's AI Core, so there is no operator to describe: "
    "the runtime keeps an op's description only for a task that raised an exception (read "
    "with aclrtGetTaskIdFromExceptionInfo), and the simulator's models never raise one.")
_NO_DUMP_DATA = N_(
    "{call}: the simulator writes no dump data (the per-operator tensors GE's data dump "
    "produces), so a registered callback would never be called; the registration is refused "
    "rather than left waiting. Read a model's outputs from its output dataset instead.")
_NO_ORIGINAL_OPS = N_(
    "{call}: the simulator's .om keeps the ONNX graph, not GE's fused operators and their "
    "_datadump_original_op_names attribute, so it cannot answer which framework operators an "
    "operator came from. NULL (None) came back, as for an operator ACL does not find.")
REFUSED: dict[str, Refusal] = {
    "rt.launch_kernel": Refusal("aclrtLaunchKernel", C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                _NO_AI_CORE),
    "rt.launch_kernel_with_config": Refusal("aclrtLaunchKernelWithConfig",
                                            C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _NO_AI_CORE),
    "mdl.create_and_get_op_desc": Refusal("aclmdlCreateAndGetOpDesc", C.ACL_ERROR_GE_FAILURE,
                                          _NO_EXCEPTION_RECORD),
    "mdl.dump_reg_callback": Refusal("acldumpRegCallback", C.ACL_ERROR_FEATURE_UNSUPPORTED,
                                     _NO_DUMP_DATA),
    "mdl.get_op_attr": Refusal("aclmdlGetOpAttr", C.ACL_ERROR_FEATURE_UNSUPPORTED,
                               _NO_ORIGINAL_OPS),
}


@dataclass(frozen=True)
class Bound:
    """pyACL's functions: per namespace the names in table order, and where they come from."""
    commit: str
    names: dict          # namespace -> tuple of pyACL names (MDC-only entries left out)
    mdc_only: dict       # namespace -> tuple of the names inside #ifdef USE_MDL
    wrappers: dict       # "namespace.name" -> the C wrapper function (WrapAclrtMalloc)


@dataclass(frozen=True)
class Coverage:
    """One namespace: pyACL's names, the ones ``acl`` offers, those refused on purpose."""
    namespace: str
    names: tuple
    offered: tuple
    refused: tuple

    @property
    def missing(self) -> tuple:
        return tuple(n for n in self.names if n not in self.offered)


def parse(text: str) -> Bound:
    """The table file's text as a Bound; ValueError names a line that is not an entry."""
    commit, namespace = "", None
    names: dict = {ns: [] for ns in NAMESPACES}
    mdc: dict = {ns: [] for ns in NAMESPACES}
    wrappers = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if line.startswith("# commit "):
            commit = words[2]
        if not words or line.startswith("#"):
            continue
        if words[0].startswith("["):
            namespace = "" if words[0] == "[top]" else words[0].strip("[]")
            if namespace not in names:
                raise ValueError(f"{DATA}:{number}: unknown namespace {words[0]}")
            continue
        if namespace is None or len(words) not in (2, 3) or words[2:] not in ([], ["USE_MDL"]):
            raise ValueError(f"{DATA}:{number}: not an entry: {line!r}")
        (mdc if words[2:] else names)[namespace].append(words[0])
        wrappers[qualified(namespace, words[0])] = words[1]
    if not commit:
        raise ValueError(f"{DATA}: no '# commit <sha>' line")
    return Bound(commit, {k: tuple(v) for k, v in names.items()},
                 {k: tuple(v) for k, v in mdc.items()}, wrappers)


def bound() -> Bound:
    """The table shipped with the kit."""
    with resources.files(__package__).joinpath(DATA).open("rb") as f:
        data = f.read(MAX_DATA + 1)
    if len(data) > MAX_DATA:
        raise ValueError(f"{DATA} is larger than {MAX_DATA} bytes")
    return parse(data.decode("utf-8"))


def qualified(namespace: str, name: str) -> str:
    """"rt.malloc"; a top-level name as it is ("init")."""
    return f"{namespace}.{name}" if namespace else name


def coverage(acl, table: Bound | None = None) -> list[Coverage]:
    """Per namespace: what a pyACL-shaped ``acl`` offers of pyACL's functions (a callable
    attribute of that name) and which of those it refuses on purpose (REFUSED)."""
    table = table or bound()
    rows = []
    for ns in NAMESPACES:
        holder = getattr(acl, ns, None) if ns else acl
        offered = tuple(n for n in table.names[ns]
                        if holder is not None and callable(getattr(holder, n, None)))
        rows.append(Coverage(ns, table.names[ns], offered,
                             tuple(n for n in offered if qualified(ns, n) in REFUSED)))
    return rows

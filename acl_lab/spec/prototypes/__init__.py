"""The C function behind each pyACL call, and what the Python call returns: one table.

``help(acl.rt.malloc)`` and Jupyter's Shift-Tab show ``(size, policy)`` and
``aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) →
dev_ptr, ret = acl.rt.malloc(size, policy)``: ``document`` writes that onto every facade
function once, from this table, and ``tools/call_map.py`` builds docs/call-map.md from it.

Prototypes are the CANN headers' own declarations (whitespace normalised, ``type *name``):
hicann/runtime ``include/external/acl/acl_rt.h`` and ``acl_base_rt.h``; hicann/ge
``inc/external/acl/acl_mdl.h``; hicann/opbase ``include/nnopbase/aclnn/acl_meta.h``; the
aclnn headers ``aclnn_add.h``, ``aclnn_mul.h``, ``aclnn_copy.h`` (hicann/ops-math documents
them under ``math/add``, ``math/mul``, ``conversion/view_copy``); ``acl/ops/acl_dvpp.h``;
hicann/ge ``inc/external/acl/acl_op.h`` and ``acl_base_mdl.h`` (single operators, tensor
descriptions).
The Python side follows the "python函数" lines of the pyACL reference: a C out-parameter
becomes a returned value, before ``ret``.

One module per pyACL namespace holds its rows (``top``, ``rt``, ``mdl``, ``nn``, ``op``,
``media``, ``util``); ``row.Prototype`` says what a row means, including how the call fails.
The simulator's one call wrapper (sim/facade/_call.py), ``acl_lab.inject`` and the
real-hardware guard all read the failure shape from here.
"""
from __future__ import annotations

import inspect

from acl_lab.spec.prototypes import mdl, media, nn, op, rt, top, util
from acl_lab.spec.prototypes import blas, op_extras, rt_kernels, rt_memory_extras
from acl_lab.spec.prototypes import rt_devices, rt_tasks, top_more
from acl_lab.spec.prototypes import (mdl_aipp, mdl_config, mdl_dynamic, media_channels,
                                     media_vpc, prof)
from acl_lab.spec.prototypes import rt_memory, rt_vmm_access
from acl_lab.spec.prototypes.row import NEVER, Prototype

#: facade name ("rt.malloc"; "" namespace for top-level acl.*) -> its C prototype and returns
PROTOTYPES: dict[str, Prototype] = {**top.ROWS, **rt.ROWS, **mdl.ROWS, **nn.ROWS, **op.ROWS,
                                    **media.ROWS, **util.ROWS}
PROTOTYPES |= {**rt_kernels.ROWS, **rt_memory_extras.ROWS, **op_extras.ROWS, **blas.ROWS}
PROTOTYPES |= {**rt_devices.ROWS, **rt_tasks.ROWS, **top_more.ROWS}
PROTOTYPES |= {**mdl_dynamic.ROWS, **mdl_config.ROWS, **mdl_aipp.ROWS, **media_vpc.ROWS,
               **media_channels.ROWS, **prof.ROWS}
PROTOTYPES |= {**rt_memory.ROWS, **rt_vmm_access.ROWS}


def failure(name: str):
    """How the pyACL call ``name`` ("rt.malloc") fails: ``failed(code, message)`` giving its
    result, or None for a call that cannot report a failure (a void C function) or that the
    table does not know."""
    proto = PROTOTYPES.get(name)
    if proto is None or not proto.names or proto.fails == NEVER:
        return None
    return proto.failed


def public_functions(facade: dict[str, type]):
    """(facade name, the raw function) of every public function of the facade classes
    (``facade``: namespace -> class, "" for the top level), in name order."""
    for namespace, cls in facade.items():
        for attr in sorted(dir(cls)):
            raw = inspect.getattr_static(cls, attr)
            fn = getattr(raw, "__func__", raw)        # a staticmethod's function
            if not attr.startswith("_") and inspect.isfunction(fn):
                yield f"{namespace}.{attr}".lstrip("."), fn


def python_call(name: str, parameters) -> str:
    """``dev_ptr, ret = acl.rt.malloc(size, policy)``"""
    returns = PROTOTYPES[name].returns      # "" for a void C function
    return f"{returns + ' = ' if returns else ''}acl.{name}({', '.join(parameters)})"


def summary(name: str, parameters) -> str:
    """The one-line help of facade function ``name``: C prototype → Python call."""
    proto = PROTOTYPES[name]
    c = proto.c or "pyACL only, no C function"
    return f"{c} → {python_call(name, parameters)}"


def document(facade: dict[str, type]) -> None:
    """Give every facade function pyACL's signature and its one-line C/Python help.

    The facade's methods are written ``(self, rt, size, policy)`` (``rt``: the runtime the
    decorator passes in); help() and Shift-Tab should show ``(size, policy)``. Each function
    gets ``__signature__`` without ``rt`` (``self`` stays: a bound method drops it, and so
    does the traced facade, which follows ``__wrapped__`` to the bound method) and a
    docstring whose first line is ``summary``, any note of its own after it."""
    for name, fn in public_functions(facade):
        if name not in PROTOTYPES:
            continue        # tests/spec/test_facade_help.py names what is missing
        sig = inspect.signature(fn)
        params = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
        if len(params) > 1 and params[0].name == "self" and params[1].name == "rt":
            del params[1]
        shown = [p.name for p in params if p.name != "self"]
        fn.__signature__ = sig.replace(parameters=params, return_annotation=sig.empty)
        own = inspect.cleandoc(fn.__doc__ or "")
        fn.__doc__ = summary(name, shown) + (f"\n\n{own}" if own else "")

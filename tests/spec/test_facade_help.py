"""help() and Jupyter's Shift-Tab on the facade: pyACL's parameters and a one-line docstring
with the C prototype and the Python call, on the simulator's functions and on the traced
``acl`` a learner holds (acl_lab/spec/prototypes.py)."""
import inspect
import re

import pytest

import acl_lab
from acl_lab.constants import ACL_ERROR_RT_PARAM_INVALID
from acl_lab.sim.facade import FACADE
from acl_lab.spec.prototypes import failure
from acl_lab.spec.prototypes import PROTOTYPES, public_functions
from acl_lab.trace import untraced

FUNCTIONS = dict(public_functions(FACADE))


def traced(acl, name: str):
    obj = acl
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_facade_function_has_one_prototype_entry_and_no_entry_is_stale():
    assert sorted(set(FUNCTIONS) - set(PROTOTYPES)) == []
    assert sorted(set(PROTOTYPES) - set(FUNCTIONS)) == []


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_help_shows_pyacl_parameters_and_the_c_prototype(bare_acl, name):
    proto = PROTOTYPES[name]
    fn = traced(bare_acl, name)
    sig = inspect.signature(fn)
    params = list(sig.parameters)
    assert "rt" not in params and "self" not in params, params
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in sig.parameters.values()), sig
    first = inspect.getdoc(fn).splitlines()[0]
    if proto.c is None:
        assert first.startswith("pyACL only, no C function → "), first
    else:
        assert first.startswith(proto.c + " → "), first
        assert re.search(rf"\b{proto.c_name}\(", first)
    call = f"acl.{name}({', '.join(params)})"     # a void C function returns nothing
    assert first.endswith(f"= {call}" if proto.returns else f"→ {call}"), first
    # the traced acl shows exactly what the simulator's own function shows
    plain = untraced(fn)
    assert inspect.signature(plain) == inspect.signature(fn)
    assert inspect.getdoc(plain) == inspect.getdoc(fn)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_the_prototype_names_the_c_function_the_facade_explains_itself_with(name):
    """Where the facade's code names C functions (in its messages), the table's is one."""
    proto = PROTOTYPES[name]
    named = set(re.findall(r'"(acl\w+)"', inspect.getsource(inspect.unwrap(FUNCTIONS[name]))))
    if proto.c_name and named:
        assert proto.c_name in named, (proto.c_name, named)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_the_documented_return_values_are_the_ones_the_call_returns(name):
    """``dev_ptr, ret = ...`` for a call failing as ``(0, code)``; ``ret = ...`` for a bare
    code; one value without ``ret`` for a call returning a bare value."""
    names = [n.strip() for n in PROTOTYPES[name].returns.split(",")]
    failed = failure(name)
    if failed is None:
        return
    code = ACL_ERROR_RT_PARAM_INVALID    # a code no call gives as its failure value
    try:
        result = failed(code, "")
    except acl_lab.AclLabError:          # util reads raise where pyACL would crash
        assert names == [names[0]] and names[0] != "ret"
        return
    if isinstance(result, tuple):
        assert len(names) == len(result) and names[-1] == "ret", (names, result)
    elif result == code:
        assert names == ["ret"]
    else:
        assert len(names) == 1 and names != ["ret"], (names, result)


@pytest.mark.parametrize("name, shown", [
    ("rt.malloc", "(size, policy)"), ("rt.set_device", "(device_id)"),
    ("rt.memcpy", "(dst, dest_max, src, count, kind)"), ("init", "(config_path='')"),
    ("float16_to_float", "(value)"), ("util.ptr_to_numpy", "(ptr, shape, npy_type)"),
    ("mdl.get_input_dims", "(model_desc, index)")])
def test_signatures_are_pyacls(bare_acl, name, shown):
    assert str(inspect.signature(traced(bare_acl, name))) == shown


def test_jupyter_shift_tab_shows_the_signature_and_the_prototype(shell):
    shell.run_cell("import acl_lab\nacl = acl_lab.load()")
    info = shell.object_inspect("acl.rt.malloc")
    assert info["definition"] == "acl.rt.malloc(size, policy)"
    assert info["docstring"].startswith(
        "aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) → "
        "dev_ptr, ret = acl.rt.malloc(size, policy)")

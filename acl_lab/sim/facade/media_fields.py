"""How ``acl.media``'s descriptions are made, read and written from the facade: a new
handle, a destroy that accepts NULL, a live description or the call's refusal, and the
setter and getter families written from a description's fields (a setter reads its value as
the field's C type, a getter of a description that is not live gives 0 and says why)."""
import inspect

from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.media import state
from acl_lab.spec import args


def new(rt, obj) -> int:
    return state.of(rt).descs.add(obj)


def destroy(rt, handle: int, kind, call: str, what: str) -> None:
    """acldvppDestroy*: NULL is accepted and does nothing (ACL returns success)."""
    if handle:
        state.of(rt).descs.destroy(handle, kind, call, what)


def live(rt, handle: int, kind, call: str, what: str):
    return state.of(rt).descs.get(handle, kind, call, what)


def generated(fn, name: str, *params):
    """A generated call named ``name`` whose parameters are ``params`` (name, reader)."""
    P = inspect.Parameter
    fn.__signature__ = inspect.Signature(
        [P("self", P.POSITIONAL_OR_KEYWORD), P("rt", P.POSITIONAL_OR_KEYWORD)]
        + [P(n, P.POSITIONAL_OR_KEYWORD, annotation=r) for n, r in params])
    fn.__name__ = name        # (its qualified name stays the generator's: setter / getter)
    return acl_call(f"media.{name}")(fn)


def setter(name: str, kind, field: str, what: str, read=args.u32):
    """``media.<name>(desc, value)``: the description's ``field`` = the value, read as its C
    type (pyACL parses every argument before the call)."""
    def set_(self, rt, desc, value):
        setattr(live(rt, desc, kind, set_.prototype.c_name, what), field, value)
    call = generated(set_, name, (what, args.ptr.named(what)), (field, read.named(field)))
    set_.prototype = call.prototype
    return call


def getter(name: str, kind, field: str, what: str):
    """``media.<name>(desc)``: the description's ``field``."""
    def get(self, rt, desc):
        return getattr(live(rt, desc, kind, get.prototype.c_name, what), field)
    call = generated(get, name, (what, args.ptr.named(what)))
    get.prototype = call.prototype
    return call


def family(kind, what: str, prefix: str, fields, getters=True, readers=None) -> dict:
    """The setters (and getters) of ``fields`` of one description: ``prefix`` like
    ``dvpp_{}_pic_desc_``; ``readers``: field -> reader where not uint32_t."""
    readers = readers or {}
    out = {}
    for field in fields:
        out[prefix.format("set") + field] = setter(prefix.format("set") + field, kind, field,
                                                   what, readers.get(field, args.u32))
        if getters:
            out[prefix.format("get") + field] = getter(prefix.format("get") + field, kind,
                                                       field, what)
    return out

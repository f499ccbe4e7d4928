"""``acl.media``'s border configs (acldvppCreateBorderConfig and its setters and getters),
which make-border takes. As CANN's dvpp types code: a component index of 4 or more, or a
side over UINT16_MAX, is ACL_ERROR_INVALID_PARAM; a getter of a config that is not live
gives -1 for a value, BORDER_CONSTANT for the type, and 0 for a side here (and says why).
The Atlas 200/300/500's DVPP has no make-border: creating a config there gives NULL."""
from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.facade.media_fields import generated
from acl_lab.sim.media import state
from acl_lab.sim.media.descriptors import BorderConfig
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args

COMPONENTS = 4            # DVPP_MAKE_BORDER_MAX_COMPONENT
SIDE_MAX = 0xFFFF         # UINT16_MAX: the sides are uint16_t in the device's config


def _config(rt, handle: int, call: str) -> BorderConfig:
    return state.of(rt).descs.get(handle, BorderConfig, call, "borderConfig")


def _index(call: str, index: int) -> None:
    if index >= COMPONENTS:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: index {index} must be smaller than {count} (0: R or Y, 1: G or U, 2: B or "
            "V, 3: reserved).").format(call=call, index=index, count=COMPONENTS))


def _side(name: str):
    """The setter and getter of one side (top, bottom, left, right)."""
    cname = name.capitalize()

    def set_side(self, rt, border_config, value):
        c = f"acldvppSetBorderConfig{cname}"
        cfg = _config(rt, border_config, c)
        if value > SIDE_MAX:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {side}={value} is larger than UINT16_MAX ({most}).").format(
                    call=c, side=name, value=value, most=SIDE_MAX))
        setattr(cfg, name, value)

    def get_side(self, rt, border_config):
        return getattr(_config(rt, border_config, f"acldvppGetBorderConfig{cname}"), name)
    ptr = ("border_config", args.ptr.named("borderConfig"))
    return (generated(set_side, f"dvpp_set_border_config_{name}", ptr,
                      (name, args.u32.named(name))),
            generated(get_side, f"dvpp_get_border_config_{name}", ptr))


class MediaBorder:
    """The border-config part of ``acl.media``."""

    @acl_call("media.dvpp_create_border_config")
    def dvpp_create_border_config(self, rt):
        m = state.of(rt)
        if m.gen == "v100":
            raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
                "{call}: {soc} (Atlas 200/300/500 inference products) has no make-border; NULL "
                "(0) came back.").format(call="acldvppCreateBorderConfig",
                                         soc=rt.profile.soc_name))
        return m.descs.add(BorderConfig())

    @acl_call("media.dvpp_destroy_border_config")
    def dvpp_destroy_border_config(self, rt, border_config: args.ptr):
        state.of(rt).descs.destroy(border_config, BorderConfig, "acldvppDestroyBorderConfig",
                                   "borderConfig")

    @acl_call("media.dvpp_set_border_config_value")
    def dvpp_set_border_config_value(self, rt, border_config: args.ptr, index: args.u32,
                                     value: args.number):
        c = "acldvppSetBorderConfigValue"
        cfg = _config(rt, border_config, c)
        _index(c, index)
        cfg.value[index] = float(value)

    @acl_call("media.dvpp_get_border_config_value")
    def dvpp_get_border_config_value(self, rt, border_config: args.ptr, index: args.u32):
        c = "acldvppGetBorderConfigValue"
        cfg = _config(rt, border_config, c)
        _index(c, index)
        return cfg.value[index]

    @acl_call("media.dvpp_set_border_config_border_type")
    def dvpp_set_border_config_border_type(self, rt, border_config: args.ptr,
                                           border_type: args.i32):
        _config(rt, border_config, "acldvppSetBorderConfigBorderType").border_type = border_type

    @acl_call("media.dvpp_get_border_config_border_type")
    def dvpp_get_border_config_border_type(self, rt, border_config: args.ptr):
        return _config(rt, border_config, "acldvppGetBorderConfigBorderType").border_type

    dvpp_set_border_config_top, dvpp_get_border_config_top = _side("top")
    dvpp_set_border_config_bottom, dvpp_get_border_config_bottom = _side("bottom")
    dvpp_set_border_config_left, dvpp_get_border_config_left = _side("left")
    dvpp_set_border_config_right, dvpp_get_border_config_right = _side("right")

"""The media state of one simulated process: its descriptors and its DVPP generation.

It hangs off the simulated process (sim/process.py), made by the first media call, so acl_lab.reset()
(a fresh process) starts with none, as a fresh process would.
"""
from __future__ import annotations

from acl_lab.sim.media.descriptors import Descriptors


class Media:
    def __init__(self, rt):
        self.rt = rt
        self.descs = Descriptors()
        self.gen = rt.profile.soc.dvpp_generation   # "v100" / "v200" (spec/socs.py)
        self.channels = 0           # channels created so far (their ids count from 0)

    def channel_id(self) -> int:
        """The id the driver gives the next channel created."""
        self.channels += 1
        return self.channels - 1


def of(rt) -> Media:
    media = getattr(rt, "media", None)
    if media is None:
        media = rt.media = Media(rt)
    return media

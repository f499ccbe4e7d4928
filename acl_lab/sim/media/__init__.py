"""Media processing on the simulator: DVPP (JPEGD, JPEGE, VPC), VDEC and VENC, shaped as
pyACL's ``acl.media``.

The room works on simulated DVPP memory and streams, so it imports ``acl_lab.sim`` (and
follows its rules: never pool, widgets or backends); ``acl_lab/sim/facade/media.py`` is
``acl.media``, the pyACL-shaped calls over this room. One file per concern:

    formats.py      pixel formats: sizes, which engine takes which, stride formulas
    descriptors.py  picture / stream / channel descriptions and configs, by handle
    state.py        a process's media state (descriptors, DVPP generation)
    rules.py        what the engines check on the device: memory, strides, sizes, areas
    pixels.py       the pixel work on numpy arrays: YUV420SP / RGB, crop, resize
    jpeg.py         JPEG header, decode and encode (Pillow)
    dvpp.py         JPEGD / JPEGE / VPC: host checks, queued tasks, predicted sizes
    video.py        VDEC / VENC through the channel's callback thread (PyAV, optional)
    timing.py       modeled time of each engine, from published frame rates
"""

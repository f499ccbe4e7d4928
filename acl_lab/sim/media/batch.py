"""Batch picture descriptions and the batch VPC calls: acldvppCreateBatchPicDesc /
acldvppGetPicDesc / acldvppDestroyBatchPicDesc, and acldvppVpcBatchCrop(AndPaste)Async,
acldvppVpcBatchCropResize(Paste)Async and acldvppVpcBatchCropResizeMakeBorderAsync.

roiNums[i] crop areas are cut from source picture i, in order; each becomes the next
destination picture (resized to it, pasted into it, or resized to it less a border). As the
ACL code checks (image_processor.cpp DvppVpcBatchCropResizeAsync: every handle not NULL, at
least one roiNums entry; ValidateAndConvertVpcBatchParams; image_processor_v200.cpp: every
crop area and border config of the batch not NULL), a batch of 1..256 pictures
(acldvppCreateBatchPicDesc's BATCH_MAX_SIZE), the roiNums no longer than the source batch,
each 1..256, their sum no larger than the destination batch, and an area (a border) for
every destination: else ACL_ERROR_INVALID_PARAM before anything is queued. One task does the
whole batch: the engine checks each picture as VPC does (dvpp.vpc_picture_work), and a
picture it cannot use fails the batch (every destination's ret code is set, no byte
written).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.media import border, dvpp, rules, state
from acl_lab.sim.media import formats as F
from acl_lab.sim.media.descriptors import (BatchMember, BatchPicDesc, BorderConfig, PicDesc,
                                           RoiConfig)
from acl_lab.sim.simerror import SimError

BATCH_MAX_SIZE = 256      # acldvppCreateBatchPicDesc: pictures of one batch description
ROI_MAX = 256             # BATCH_ROI_MAX_SIZE: crop areas of one source picture


# ----- acldvppBatchPicDesc ---------------------------------------------------------------------
def create(rt, batch_size: int) -> int:
    call = "acldvppCreateBatchPicDesc"
    if not 1 <= batch_size <= BATCH_MAX_SIZE:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: batchSize is {size}; a batch holds 1 to {most} pictures. NULL (0) came "
            "back.").format(call=call, size=batch_size, most=BATCH_MAX_SIZE))
    descs = state.of(rt).descs
    pics = tuple(descs.add(BatchMember()) for _ in range(batch_size))
    return descs.add(BatchPicDesc(pics))


def destroy(rt, handle: int) -> None:
    """NULL is accepted (ACL returns success); the batch's pictures go with it."""
    if not handle:
        return
    descs = state.of(rt).descs
    batch = descs.destroy(handle, BatchPicDesc, "acldvppDestroyBatchPicDesc", "batchPicDesc")
    for pic in batch.pics:
        descs.live.pop(pic, None)


def pic_desc(rt, handle: int, index: int) -> int:
    call = "acldvppGetPicDesc"
    batch = state.of(rt).descs.get(handle, BatchPicDesc, call, "batchPicDesc")
    if index >= len(batch.pics):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: index {index} is out of bounds; the batch holds {count} picture(s). NULL "
            "(0) came back.").format(call=call, index=index, count=len(batch.pics)))
    return batch.pics[index]


def refuse_member(rt, handle: int, call: str) -> None:
    """A batch's own picture description is not destroyed alone (ACL would free a pointer
    into the batch's array)."""
    if isinstance(state.of(rt).descs.live.get(handle), BatchMember):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: picDesc {handle} belongs to a batch picture description; it goes with "
            "acl.media.dvpp_destroy_batch_pic_desc(batch).").format(
                call=call, handle=f"0x{handle:x}"))


# ----- the batch VPC calls -----------------------------------------------------------------
def vpc_batch(rt, call: str, channel: int, src: int, roi_nums, dst: int, crops, pastes,
              borders, resize_config: int | None, stream: int) -> None:
    """One batch VPC call; ``pastes`` / ``borders``: None where the call has none."""
    m = state.of(rt)
    ch = dvpp._channel(m, call, channel)
    src_batch = m.descs.get(src, BatchPicDesc, call, "srcBatchPicDescs")
    dst_batch = m.descs.get(dst, BatchPicDesc, call, "dstBatchPicDescs")
    if resize_config is not None:
        dvpp._resize_config(m, call, resize_config)
    total = _counts(call, roi_nums, src_batch, dst_batch)
    crop_rois = _configs(m, call, crops, total, RoiConfig, "cropAreas")
    paste_rois = _configs(m, call, pastes, total, RoiConfig, "pasteAreas") if pastes is not \
        None else [None] * total
    border_cfgs = _configs(m, call, borders, total, BorderConfig, "borderCfgs") if borders is \
        not None else [None] * total
    if borders is not None and m.gen == "v100":
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: make-border is not supported on {soc} (Atlas 200/300/500 inference "
            "products).").format(call=call, soc=rt.profile.soc_name))
    jobs, k = [], 0
    for i, n in enumerate(roi_nums):
        inp = m.descs.live[src_batch.pics[i]]
        for _j in range(n):
            jobs.append((inp, m.descs.live[dst_batch.pics[k]], crop_rois[k], paste_rois[k],
                         border_cfgs[k]))
            k += 1

    def host_checks() -> None:
        for inp, out, *_rest in jobs:
            dvpp.vpc_formats(call, m.gen, inp, out)

    host_checks()

    def run() -> None:
        dvpp._on_device(call, host_checks)
        dvpp._created(call, ch, "vpc")
        for inp, out, crop, paste, cfg in jobs:
            finish = _make_border(call, inp, out, cfg) if cfg is not None else None
            dvpp.vpc_picture_work(rt, call, inp, out, crop, paste, finish)

    pixels = sum(max(i.width * i.height, o.width * o.height) for i, o, *_r in jobs)
    pointers = [p for i, o, *_r in jobs for p in (i.data, o.data)]
    dvpp._queue(rt, call, stream, "vpc", pixels, run, tuple(o for _i, o, *_r in jobs),
                pointers, {"pictures": len(jobs)})


def _counts(call: str, roi_nums, src_batch: BatchPicDesc, dst_batch: BatchPicDesc) -> int:
    """The number of destination pictures the roiNums ask for (checked as ACL does)."""
    total, srcs, dsts = sum(roi_nums), len(src_batch.pics), len(dst_batch.pics)
    if not roi_nums:
        why = _("roiNums is empty; give the number of crop areas of each source picture")
    elif len(roi_nums) > srcs:
        why = _("roiNums has {count} entries but the source batch holds {pics} "
                "picture(s)").format(count=len(roi_nums), pics=srcs)
    elif any(not 1 <= n <= ROI_MAX for n in roi_nums):
        why = _("each roiNums entry counts the crop areas of one picture: 1 to {most}").format(
            most=ROI_MAX)
    elif total > dsts:
        why = _("the roiNums add up to {total} areas, but the destination batch holds {pics} "
                "picture(s)").format(total=total, pics=dsts)
    else:
        return total
    raise SimError(C.ACL_ERROR_INVALID_PARAM, "{call}: {why}.".format(call=call, why=why))


def _configs(m, call: str, handles, total: int, kind, what: str) -> list:
    """The live configs of the first ``total`` handles (ACL reads that many: pyACL's array
    ends with NULL, which ACL refuses; past it, the simulator refuses what ACL would read
    beyond the array)."""
    if len(handles) < total:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: {what} holds {count} entries, but the roiNums ask for {total} areas; "
            "give one for every destination picture.").format(
                call=call, what=what, count=len(handles), total=total))
    return [m.descs.get(h, kind, call, f"{what}[{k}]") for k, h in enumerate(handles[:total])]


def _make_border(call: str, inp: PicDesc, out: PicDesc, cfg: BorderConfig):
    """The finish step of one make-border picture: the crop is resized to the output less
    the border, then the border is added around it (dvpp.vpc_picture_work)."""
    top, bottom, left, right = border.sides(cfg)

    def finish(part, dst):
        if part is None:           # before resizing: where the picture goes
            if cfg.border_type not in (C.BORDER_CONSTANT, *border.MODES):
                raise rules.failed(call, _("border type {kind} is not one of "
                                                "BORDER_CONSTANT (0) to BORDER_REFLECT_101 "
                                                "(3).").format(kind=cfg.border_type))
            w, h = dst[2] - left - right, dst[3] - top - bottom
            if w < 10 or h < 6 or (out.format in F.YUV420SP and any(
                    v % 2 for v in (top, bottom, left, right))):
                raise rules.failed(call, _(
                    "the border (top {t}, bottom {b}, left {l}, right {r}) does not fit the "
                    "{w}x{h} output (at least 10x6 must remain; YUV420SP borders are even)."
                ).format(t=top, b=bottom, l=left, r=right, w=dst[2], h=dst[3]))
            return dst[0] + left, dst[1] + top, w, h
        yuv = inp.format in F.YUV420SP + (F.YUV400,) and \
            out.format in F.YUV420SP + (F.YUV400,)
        return border.pad(part, cfg, yuv), (dst[0] - left, dst[1] - top, dst[2] + left + right,
                                             dst[3] + top + bottom)
    return finish

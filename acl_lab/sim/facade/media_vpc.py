"""``acl.media``'s batch picture descriptions, batch and crop-resize VPC calls, colour
conversion, pyramid down and PNG decoding (the work is sim/media/batch.py's, dvpp.py's,
vpc_more.py's and png.py's). pyACL's list arguments are read as its wrappers read them
(hicann/runtime python/pyACL/media/media_vpc.cpp): a non-list is a TypeError; for the batch
crop and the batch crop-and-paste, 1 to 256 entries (ValueError otherwise) and as many paste
areas as crop areas."""
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.media import batch, dvpp, png, vpc_more
from acl_lab.spec import args

MAX_CROP_SIZE = 256       # media_vpc.cpp: the list lengths and counts pyACL accepts


def _list(call: str, name: str, value, limit: bool = False) -> tuple:
    """A Python list of ints, as pyACL hands it to ACL (ConvertPyListToPtrArray)."""
    if not isinstance(value, list):
        raise TypeError(f"{call}: {name} is not list")
    if limit and not 1 <= len(value) <= MAX_CROP_SIZE:
        raise ValueError("number of crop areas must be between 1 and 256")
    out = args.handles_arg(call, name, value)
    if limit and name == "roi_nums" and any(n > MAX_CROP_SIZE for n in out):
        raise ValueError("number of crop areas must be between 1 and 256")
    return out


class MediaVpc:
    """The batch, crop-resize, colour, pyramid and PNG part of ``acl.media``."""

    # ----- acldvppBatchPicDesc --------------------------------------------------------------
    @acl_call("media.dvpp_create_batch_pic_desc")
    def dvpp_create_batch_pic_desc(self, rt, batch_size: args.u32):
        return batch.create(rt, batch_size)

    @acl_call("media.dvpp_destroy_batch_pic_desc")
    def dvpp_destroy_batch_pic_desc(self, rt, batch_pic_desc: args.ptr):
        batch.destroy(rt, batch_pic_desc)

    @acl_call("media.dvpp_get_pic_desc")
    def dvpp_get_pic_desc(self, rt, batch_pic_desc: args.ptr, index: args.u32):
        return batch.pic_desc(rt, batch_pic_desc, index)

    # ----- batch VPC ------------------------------------------------------------------------
    @acl_call("media.dvpp_vpc_batch_crop_async")
    def dvpp_vpc_batch_crop_async(self, rt, channel_desc: args.ptr, src_batch_pic_descs:
                                  args.ptr, roi_nums, dst_batch_pic_descs: args.ptr,
                                  crop_areas, stream: args.ptr):
        c = "acldvppVpcBatchCropAsync"
        batch.vpc_batch(rt, c, channel_desc, src_batch_pic_descs,
                        _list(c, "roi_nums", roi_nums, True), dst_batch_pic_descs,
                        _list(c, "crop_areas", crop_areas, True), None, None, None, stream)
        return dst_batch_pic_descs

    @acl_call("media.dvpp_vpc_batch_crop_and_paste_async")
    def dvpp_vpc_batch_crop_and_paste_async(self, rt, channel_desc: args.ptr,
                                            src_batch_pic_descs: args.ptr, roi_nums,
                                            dst_batch_pic_descs: args.ptr, crop_areas,
                                            paste_areas, stream: args.ptr):
        c = "acldvppVpcBatchCropAndPasteAsync"
        crops = _list(c, "crop_areas", crop_areas, True)
        pastes = _list(c, "paste_areas", paste_areas)
        if len(pastes) != len(crops):
            raise ValueError("number of crop areas must be between 1 and 256")
        batch.vpc_batch(rt, c, channel_desc, src_batch_pic_descs,
                        _list(c, "roi_nums", roi_nums, True), dst_batch_pic_descs, crops,
                        pastes, None, None, stream)
        return dst_batch_pic_descs

    @acl_call("media.dvpp_vpc_batch_crop_resize_async")
    def dvpp_vpc_batch_crop_resize_async(self, rt, channel_desc: args.ptr,
                                         src_batch_pic_descs: args.ptr, roi_nums,
                                         dst_batch_pic_descs: args.ptr, crop_areas,
                                         resize_config: args.ptr, stream: args.ptr):
        c = "acldvppVpcBatchCropResizeAsync"
        batch.vpc_batch(rt, c, channel_desc, src_batch_pic_descs, _list(c, "roi_nums", roi_nums),
                        dst_batch_pic_descs, _list(c, "crop_areas", crop_areas), None, None,
                        resize_config, stream)

    @acl_call("media.dvpp_vpc_batch_crop_resize_paste_async")
    def dvpp_vpc_batch_crop_resize_paste_async(self, rt, channel_desc: args.ptr,
                                               src_batch_pic_descs: args.ptr, roi_nums,
                                               dst_batch_pic_descs: args.ptr, crop_areas,
                                               paste_areas, resize_config: args.ptr,
                                               stream: args.ptr):
        c = "acldvppVpcBatchCropResizePasteAsync"
        batch.vpc_batch(rt, c, channel_desc, src_batch_pic_descs, _list(c, "roi_nums", roi_nums),
                        dst_batch_pic_descs, _list(c, "crop_areas", crop_areas),
                        _list(c, "paste_areas", paste_areas), None, resize_config, stream)

    @acl_call("media.dvpp_vpc_batch_crop_resize_make_border_async")
    def dvpp_vpc_batch_crop_resize_make_border_async(self, rt, channel_desc: args.ptr,
                                                     src_batch_pic_descs: args.ptr, roi_nums,
                                                     dst_batch_pic_descs: args.ptr,
                                                     crop_areas, border_cfgs,
                                                     resize_config: args.ptr,
                                                     stream: args.ptr):
        c = "acldvppVpcBatchCropResizeMakeBorderAsync"
        batch.vpc_batch(rt, c, channel_desc, src_batch_pic_descs, _list(c, "roi_nums", roi_nums),
                        dst_batch_pic_descs, _list(c, "crop_areas", crop_areas), None,
                        _list(c, "border_cfgs", border_cfgs), resize_config, stream)

    # ----- one picture with a resize config ---------------------------------------------------
    @acl_call("media.dvpp_vpc_crop_resize_async")
    def dvpp_vpc_crop_resize_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                                   output_desc: args.ptr, crop_area: args.ptr,
                                   resize_config: args.ptr, stream: args.ptr):
        dvpp.vpc(rt, "acldvppVpcCropResizeAsync", channel_desc, input_desc, output_desc,
                 crop_area, None, resize_config, stream)

    @acl_call("media.dvpp_vpc_crop_resize_paste_async")
    def dvpp_vpc_crop_resize_paste_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                                         output_desc: args.ptr, crop_area: args.ptr,
                                         paste_area: args.ptr, resize_config: args.ptr,
                                         stream: args.ptr):
        dvpp.vpc(rt, "acldvppVpcCropResizePasteAsync", channel_desc, input_desc, output_desc,
                 crop_area, paste_area, resize_config, stream)

    # ----- colour conversion, pyramid down ----------------------------------------------------
    @acl_call("media.dvpp_vpc_convert_color_async")
    def dvpp_vpc_convert_color_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                                     output_desc: args.ptr, stream: args.ptr):
        vpc_more.convert_color(rt, channel_desc, input_desc, output_desc, stream)

    @acl_call("media.dvpp_vpc_pyr_down_async")
    def dvpp_vpc_pyr_down_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                                output_desc: args.ptr, reserve: args.ptr, stream: args.ptr):
        vpc_more.pyr_down(rt, channel_desc, input_desc, output_desc, reserve, stream)

    # ----- PNGD ----------------------------------------------------------------------------------
    @acl_call("media.dvpp_png_decode_async")
    def dvpp_png_decode_async(self, rt, channel_desc: args.ptr, data: args.ptr, size: args.u32,
                              output_desc: args.ptr, stream: args.ptr):
        png.decode(rt, channel_desc, data, size, output_desc, stream)

    @acl_call("media.dvpp_png_get_image_info")
    def dvpp_png_get_image_info(self, rt, data: args.ptr, size: args.u32.named("dataSize")):
        return png.image_info(rt, data, size)

    @acl_call("media.dvpp_png_predict_dec_size")
    def dvpp_png_predict_dec_size(self, rt, data: args.ptr, size: args.u32.named("dataSize"),
                                  output_pixel_format: args.i32):
        return png.predict_dec_size(rt, data, size, output_pixel_format)

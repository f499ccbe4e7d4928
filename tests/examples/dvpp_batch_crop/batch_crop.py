"""Crop several areas out of one YUV420SP picture with one DVPP call, written the way the
Ascend/samples pyACL DVPP programs are (the batch-crop sample: one batch picture
description in, one out per box, dvpp_vpc_batch_crop_async, then each crop copied back).
Run unchanged by `acl-lab run` (tests/examples):

    python3 batch_crop.py picture_nv12.yuv WIDTH HEIGHT out_dir
"""
import os
import sys

import acl
import numpy as np

import acl_utils as utils


def create_buffer(width, height, align_w=16, align_h=2):
    """An aligned DVPP buffer for a YUV420SP picture: (ptr, size, width_stride, height_stride)."""
    width_stride = utils.align_up(width, align_w)
    height_stride = utils.align_up(height, align_h)
    buf_size = (width_stride * height_stride * 3) // 2
    ptr_on_device, ret = acl.media.dvpp_malloc(buf_size)
    utils.check_ret("acl.media.dvpp_malloc", ret)
    return ptr_on_device, buf_size, width_stride, height_stride


def setup_desc(desc, buf, buf_size, width, height, width_stride, height_stride):
    acl.media.dvpp_set_pic_desc_data(desc, buf)
    acl.media.dvpp_set_pic_desc_size(desc, buf_size)
    acl.media.dvpp_set_pic_desc_format(desc, utils.PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    acl.media.dvpp_set_pic_desc_width(desc, width)
    acl.media.dvpp_set_pic_desc_height(desc, height)
    acl.media.dvpp_set_pic_desc_width_stride(desc, width_stride)
    acl.media.dvpp_set_pic_desc_height_stride(desc, height_stride)


def copy_as_nparray(outputs_desc, img_count):
    """Each cropped picture back on the host, as its Y plane and UV plane (padding dropped)."""
    outputs = []
    for i in range(img_count):
        output_desc = acl.media.dvpp_get_pic_desc(outputs_desc, i)
        assert output_desc is not None
        ret_code = acl.media.dvpp_get_pic_desc_ret_code(output_desc)
        utils.check_ret("acl.media.dvpp_get_pic_desc_ret_code", ret_code)
        data = acl.media.dvpp_get_pic_desc_data(output_desc)
        data_size = acl.media.dvpp_get_pic_desc_size(output_desc)
        np_pic = np.zeros(data_size, dtype=np.byte)
        np_pic_ptr = acl.util.numpy_to_ptr(np_pic)
        ret = acl.rt.memcpy(np_pic_ptr, data_size, data, data_size,
                            utils.ACL_MEMCPY_DEVICE_TO_HOST)
        utils.check_ret("acl.rt.memcpy", ret)
        width_stride = acl.media.dvpp_get_pic_desc_width_stride(output_desc)
        height_stride = acl.media.dvpp_get_pic_desc_height_stride(output_desc)
        org_w = acl.media.dvpp_get_pic_desc_width(output_desc)
        org_h = acl.media.dvpp_get_pic_desc_height(output_desc)
        yuv = np_pic.view(np.uint8).reshape(height_stride * 3 // 2, width_stride)
        y = yuv[:org_h, :org_w]
        uv = yuv[height_stride:height_stride + org_h // 2, :org_w]
        outputs.append(np.concatenate([y, uv]))
    return outputs


def batch_crop(buf_yuv, buf_size, width, height, stride_width, stride_height, boxes, stream,
               dvpp_channel_desc):
    """Crop every box [x1, x2, y1, y2] of the picture; a list of NV12 arrays."""
    box_count = len(boxes)
    image_count = 1
    inputs_desc = acl.media.dvpp_create_batch_pic_desc(image_count)
    outputs_desc = acl.media.dvpp_create_batch_pic_desc(box_count)
    for i in range(image_count):
        input_desc = acl.media.dvpp_get_pic_desc(inputs_desc, i)
        assert input_desc is not None
        setup_desc(input_desc, buf_yuv, buf_size, width, height, stride_width, stride_height)

    crop_area_list = []
    buffers_out = []
    for i in range(box_count):
        output_desc = acl.media.dvpp_get_pic_desc(outputs_desc, i)
        assert output_desc is not None
        x1, x2, y1, y2 = map(utils.align_up, boxes[i])
        w = x2 - x1
        h = y2 - y1
        ptr_out, out_size, stride_w, stride_h = create_buffer(w, h, 16, 2)
        setup_desc(output_desc, ptr_out, out_size, w, h, stride_w, stride_h)
        buffers_out.append(ptr_out)
        crop_area = acl.media.dvpp_create_roi_config(x1, x2 - 1, y1, y2 - 1)
        crop_area_list.append(crop_area)

    roi_num_list = [box_count]
    outputs_desc, ret = acl.media.dvpp_vpc_batch_crop_async(
        dvpp_channel_desc, inputs_desc, roi_num_list, outputs_desc, crop_area_list, stream)
    utils.check_ret("acl.media.dvpp_vpc_batch_crop_async", ret)
    ret = acl.rt.synchronize_stream(stream)
    utils.check_ret("acl.rt.synchronize_stream", ret)

    outputs = copy_as_nparray(outputs_desc, box_count)

    acl.media.dvpp_destroy_batch_pic_desc(inputs_desc)
    acl.media.dvpp_destroy_batch_pic_desc(outputs_desc)
    for crop_area in crop_area_list:
        ret = acl.media.dvpp_destroy_roi_config(crop_area)
        assert ret == 0
    for p in buffers_out:
        ret = acl.media.dvpp_free(p)
        assert ret == 0
    return outputs


def main():
    img_file, width, height, out_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4]
    ret = acl.init()
    assert ret == 0
    device_id = 0
    ret = acl.rt.set_device(device_id)
    assert ret == 0
    context, ret = acl.rt.create_context(device_id)
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dvpp_channel_desc = acl.media.dvpp_create_channel_desc()
    ret = acl.media.dvpp_create_channel(dvpp_channel_desc)
    utils.check_ret("acl.media.dvpp_create_channel", ret)

    yuv = np.fromfile(img_file, dtype=np.byte)
    ptr_in, buf_size, stride_w, stride_h = create_buffer(width, height, 16, 2)
    buf_size_yuv = yuv.itemsize * yuv.size
    ptr_yuv = acl.util.numpy_to_ptr(yuv)
    ret = acl.rt.memcpy(ptr_in, buf_size_yuv, ptr_yuv, buf_size_yuv,
                        utils.ACL_MEMCPY_HOST_TO_DEVICE)
    assert ret == 0

    boxes = [[20, 20 + 100, 40, 40 + 60],
             [96, 96 + 64, 16, 16 + 96],
             [150, 150 + 90, 120, 120 + 64]]
    outputs = batch_crop(ptr_in, buf_size, width, height, stride_w, stride_h, boxes, stream,
                         dvpp_channel_desc)
    os.makedirs(out_dir, exist_ok=True)
    for i, img in enumerate(outputs):
        img.tofile(os.path.join(out_dir, "crop_{}_{}x{}.yuv".format(i, img.shape[1],
                                                                     img.shape[0] * 2 // 3)))
        print("crop {}: {}x{}".format(i, img.shape[1], img.shape[0] * 2 // 3))

    ret = acl.media.dvpp_free(ptr_in)
    assert ret == 0
    ret = acl.media.dvpp_destroy_channel(dvpp_channel_desc)
    assert ret == 0
    ret = acl.media.dvpp_destroy_channel_desc(dvpp_channel_desc)
    assert ret == 0
    ret = acl.rt.destroy_stream(stream)
    ret = acl.rt.destroy_context(context)
    ret = acl.rt.reset_device(device_id)
    ret = acl.finalize()
    print("done")


if __name__ == "__main__":
    main()

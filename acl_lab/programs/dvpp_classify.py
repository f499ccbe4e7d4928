"""Classify digit pictures: JPEG decode (JPEGD) -> resize to 28x28 (VPC) -> digits model.

A pyACL program written the way the official samples are (Ascend/samples, python
level2_simple_inference): one class that takes its resources in init_resource, a process
step per picture, and release_resource at the end. It runs unchanged on an Ascend device
and under `acl-lab run` (chapter 09 of acl_lab runs it there).

It has two bugs of the kind the official samples have had (a leak and a double free);
chapter 09 finds them with `acl-lab run`, and its text says where they are.

    python dvpp_classify.py models/digits.om images/*.jpg
"""
import sys

import numpy as np

import acl

# constants, as the samples keep them in constants.py
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1
NPY_UINT8 = 2
MODEL_WIDTH, MODEL_HEIGHT = 28, 28


def check_ret(message, ret):
    if ret != 0:
        raise Exception("{} failed ret={}".format(message, ret))


def align_up(value, align):
    return (value + align - 1) // align * align


class Classify(object):
    def __init__(self, device_id, model_path):
        self.device_id = device_id
        self.model_path = model_path
        self.context = None
        self.stream = None
        self.channel_desc = None
        self.resize_config = None
        self.model_id = None
        self.model_desc = None
        self.decode_out = None

    def init_resource(self):
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(self.device_id))
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.channel_desc = acl.media.dvpp_create_channel_desc()
        check_ret("acl.media.dvpp_create_channel", acl.media.dvpp_create_channel(self.channel_desc))
        self.resize_config = acl.media.dvpp_create_resize_config()
        self.model_id, ret = acl.mdl.load_from_file(self.model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        check_ret("acl.mdl.get_desc", acl.mdl.get_desc(self.model_desc, self.model_id))

    def _pic_desc(self, buffer, size, width, height, width_stride, height_stride):
        desc = acl.media.dvpp_create_pic_desc()
        acl.media.dvpp_set_pic_desc_data(desc, buffer)
        acl.media.dvpp_set_pic_desc_size(desc, size)
        acl.media.dvpp_set_pic_desc_format(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        acl.media.dvpp_set_pic_desc_width(desc, width)
        acl.media.dvpp_set_pic_desc_height(desc, height)
        acl.media.dvpp_set_pic_desc_width_stride(desc, width_stride)
        acl.media.dvpp_set_pic_desc_height_stride(desc, height_stride)
        return desc

    def _jpegd(self, jpeg):
        """JPEG bytes -> a decoded YUV420SP picture in DVPP memory (its description)."""
        host = acl.util.bytes_to_ptr(jpeg)
        size, ret = acl.media.dvpp_jpeg_predict_dec_size(host, len(jpeg),
                                                         PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        check_ret("acl.media.dvpp_jpeg_predict_dec_size", ret)
        jpeg_dev, ret = acl.media.dvpp_malloc(len(jpeg))
        check_ret("acl.media.dvpp_malloc", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(jpeg_dev, len(jpeg), host, len(jpeg),
                                                 ACL_MEMCPY_HOST_TO_DEVICE))
        self.decode_out, ret = acl.media.dvpp_malloc(size)
        check_ret("acl.media.dvpp_malloc", ret)
        desc = self._pic_desc(self.decode_out, size, 0, 0, 0, 0)
        check_ret("acl.media.dvpp_jpeg_decode_async", acl.media.dvpp_jpeg_decode_async(
            self.channel_desc, jpeg_dev, len(jpeg), desc, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        return desc

    def _resize(self, decoded):
        """The decoded picture -> 28x28 YUV420SP (width stride 32, height stride 28)."""
        stride_w, stride_h = align_up(MODEL_WIDTH, 16), align_up(MODEL_HEIGHT, 2)
        size = stride_w * stride_h * 3 // 2
        buffer, ret = acl.media.dvpp_malloc(size)
        check_ret("acl.media.dvpp_malloc", ret)
        desc = self._pic_desc(buffer, size, MODEL_WIDTH, MODEL_HEIGHT, stride_w, stride_h)
        check_ret("acl.media.dvpp_vpc_resize_async", acl.media.dvpp_vpc_resize_async(
            self.channel_desc, decoded, desc, self.resize_config, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        return desc, buffer, size, stride_w

    def _infer(self, luma):
        """28x28 brightness values (0..255) -> the digit the model sees."""
        data = np.ascontiguousarray(luma, dtype=np.float32).reshape(1, 1, 28, 28) / 255
        in_size = acl.mdl.get_input_size_by_index(self.model_desc, 0)
        out_size = acl.mdl.get_output_size_by_index(self.model_desc, 0)
        in_dev, ret = acl.rt.malloc(in_size, ACL_MEM_MALLOC_HUGE_FIRST)
        out_dev, ret = acl.rt.malloc(out_size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(in_dev, in_size, acl.util.numpy_to_ptr(data),
                                                 in_size, ACL_MEMCPY_HOST_TO_DEVICE))
        inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        in_buf = acl.create_data_buffer(in_dev, in_size)
        out_buf = acl.create_data_buffer(out_dev, out_size)
        acl.mdl.add_dataset_buffer(inputs, in_buf)
        acl.mdl.add_dataset_buffer(outputs, out_buf)
        check_ret("acl.mdl.execute", acl.mdl.execute(self.model_id, inputs, outputs))
        scores = np.zeros(out_size // 4, dtype=np.float32)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(acl.util.numpy_to_ptr(scores), out_size,
                                                 out_dev, out_size, ACL_MEMCPY_DEVICE_TO_HOST))
        for buf in (in_buf, out_buf):
            acl.destroy_data_buffer(buf)
        for ds in (inputs, outputs):
            acl.mdl.destroy_dataset(ds)
        for ptr in (in_dev, out_dev):
            acl.rt.free(ptr)
        return int(scores.argmax()), float(scores.max())

    def process(self, image_path):
        with open(image_path, "rb") as f:
            jpeg = f.read()
        decoded = self._jpegd(jpeg)
        resized, buffer, size, stride_w = self._resize(decoded)
        host, ret = acl.rt.malloc_host(size)
        check_ret("acl.rt.malloc_host", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, buffer, size,
                                                 ACL_MEMCPY_DEVICE_TO_HOST))
        picture = acl.util.ptr_to_numpy(host, (size,), NPY_UINT8)
        luma = picture[:stride_w * MODEL_HEIGHT].reshape(MODEL_HEIGHT, stride_w)[:, :MODEL_WIDTH]
        digit, score = self._infer(luma)
        acl.rt.free_host(host)
        acl.media.dvpp_free(buffer)
        acl.media.dvpp_free(self.decode_out)
        for desc in (decoded, resized):
            acl.media.dvpp_destroy_pic_desc(desc)
        print("{}: digit {} (score {:.3f})".format(image_path, digit, score))

    def release_resource(self):
        if self.decode_out:
            acl.media.dvpp_free(self.decode_out)
        acl.mdl.destroy_desc(self.model_desc)
        acl.mdl.unload(self.model_id)
        acl.media.dvpp_destroy_resize_config(self.resize_config)
        acl.media.dvpp_destroy_channel(self.channel_desc)
        acl.media.dvpp_destroy_channel_desc(self.channel_desc)
        acl.rt.destroy_stream(self.stream)
        acl.rt.destroy_context(self.context)
        acl.rt.reset_device(self.device_id)
        acl.finalize()


def main():
    import os
    if len(sys.argv) < 3:
        print("usage: python dvpp_classify.py MODEL.om PICTURE.jpg ...")
        return 2
    sample = Classify(0, sys.argv[1])
    sample.init_resource()
    for path in sys.argv[2:]:
        # a regular file of a JPEG's size, not a pipe, a device or a huge file
        if os.path.isfile(path) and os.path.getsize(path) <= MAX_PICTURE_BYTES:
            sample.process(path)
        else:
            print("{}: not a picture file of at most {} bytes, skipped".format(
                path, MAX_PICTURE_BYTES))
    sample.release_resource()
    return 0


MAX_PICTURE_BYTES = 32 << 20       # a JPEG JPEGD decodes (at most 8192 x 8192) is smaller


if __name__ == "__main__":
    sys.exit(main())

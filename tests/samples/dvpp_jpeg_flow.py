"""The DVPP flow of the official pyACL samples (Ascend/samples python/common/acllite
acllite_imageproc.py, as the level2 inference samples drive it), re-expressed in acl_lab's
own words: read a JPEG, JPEGD it into DVPP memory (128 x 16 aligned output), VPC-resize the
YUV420SP picture (16 x 2 aligned), JPEGE the result, save both, release in reverse. The one
change a real program needs to run on the simulator is the line binding ``acl``.

usage: python dvpp_jpeg_flow.py --images_path DIR --output_path DIR [--width 224 --height 224]
"""
import argparse
import os

import numpy as np

import acl_lab

acl = acl_lab.load()          # on hardware: import acl

SUCCESS, H2D, D2H = 0, 1, 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1


def check_ret(what, ret):
    if ret != SUCCESS:
        raise RuntimeError(f"{what} failed ret={ret}: {acl.get_recent_err_msg()}")


def align_up(value, align):
    return (value + align - 1) // align * align


def yuv420sp_size(width, height):
    return width * height * 3 // 2


class DvppProcess:
    def __init__(self, stream):
        self.stream = stream
        self.channel_desc = acl.media.dvpp_create_channel_desc()
        check_ret("acl.media.dvpp_create_channel", acl.media.dvpp_create_channel(self.channel_desc))
        self.resize_config = acl.media.dvpp_create_resize_config()
        self.jpege_config = acl.media.dvpp_create_jpege_config()
        check_ret("acl.media.dvpp_set_jpege_config_level",
                  acl.media.dvpp_set_jpege_config_level(self.jpege_config, 100))

    @staticmethod
    def pic_desc(buffer, size, width, height, width_stride, height_stride):
        desc = acl.media.dvpp_create_pic_desc()
        acl.media.dvpp_set_pic_desc_data(desc, buffer)
        acl.media.dvpp_set_pic_desc_format(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        acl.media.dvpp_set_pic_desc_width(desc, width)
        acl.media.dvpp_set_pic_desc_height(desc, height)
        acl.media.dvpp_set_pic_desc_width_stride(desc, width_stride)
        acl.media.dvpp_set_pic_desc_height_stride(desc, height_stride)
        acl.media.dvpp_set_pic_desc_size(desc, size)
        return desc

    def jpegd(self, jpeg_data):
        """JPEG bytes -> (YUV420SP buffer in DVPP memory, its desc, width, height)."""
        host = np.frombuffer(jpeg_data, dtype=np.uint8).copy()
        host_ptr = acl.util.numpy_to_ptr(host)
        width, height, _, ret = acl.media.dvpp_jpeg_get_image_info(host_ptr, host.nbytes)
        check_ret("acl.media.dvpp_jpeg_get_image_info", ret)
        in_buffer, ret = acl.media.dvpp_malloc(host.nbytes)
        check_ret("acl.media.dvpp_malloc", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(in_buffer, host.nbytes, host_ptr, host.nbytes,
                                                 H2D))
        out_size, ret = acl.media.dvpp_jpeg_predict_dec_size(
            host_ptr, host.nbytes, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        check_ret("acl.media.dvpp_jpeg_predict_dec_size", ret)
        out_buffer, ret = acl.media.dvpp_malloc(out_size)
        check_ret("acl.media.dvpp_malloc", ret)
        out_desc = self.pic_desc(out_buffer, out_size, width, height, align_up(width, 128),
                                 align_up(height, 16))
        check_ret("acl.media.dvpp_jpeg_decode_async",
                  acl.media.dvpp_jpeg_decode_async(self.channel_desc, in_buffer, host.nbytes,
                                                   out_desc, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        check_ret("acl.media.dvpp_free", acl.media.dvpp_free(in_buffer))
        return out_buffer, out_desc, width, height

    def resize(self, in_desc, width, height):
        stride_width, stride_height = align_up(width, 16), align_up(height, 2)
        out_size = yuv420sp_size(stride_width, stride_height)
        out_buffer, ret = acl.media.dvpp_malloc(out_size)
        check_ret("acl.media.dvpp_malloc", ret)
        out_desc = self.pic_desc(out_buffer, out_size, width, height, stride_width,
                                 stride_height)
        check_ret("acl.media.dvpp_vpc_resize_async",
                  acl.media.dvpp_vpc_resize_async(self.channel_desc, in_desc, out_desc,
                                                  self.resize_config, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        return out_buffer, out_desc, out_size

    def jpege(self, in_desc):
        out_size, ret = acl.media.dvpp_jpeg_predict_enc_size(in_desc, self.jpege_config)
        check_ret("acl.media.dvpp_jpeg_predict_enc_size", ret)
        out_buffer, ret = acl.media.dvpp_malloc(out_size)
        check_ret("acl.media.dvpp_malloc", ret)
        size_array = np.array([out_size], dtype=np.int32)
        check_ret("acl.media.dvpp_jpeg_encode_async",
                  acl.media.dvpp_jpeg_encode_async(self.channel_desc, in_desc, out_buffer,
                                                   acl.util.numpy_to_ptr(size_array),
                                                   self.jpege_config, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        return out_buffer, int(size_array[0])

    def destroy(self):
        acl.media.dvpp_destroy_jpege_config(self.jpege_config)
        acl.media.dvpp_destroy_resize_config(self.resize_config)
        check_ret("acl.media.dvpp_destroy_channel",
                  acl.media.dvpp_destroy_channel(self.channel_desc))
        acl.media.dvpp_destroy_channel_desc(self.channel_desc)


def to_host(buffer, size):
    host = np.zeros(size, dtype=np.uint8)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(acl.util.numpy_to_ptr(host), size, buffer, size,
                                             D2H))
    return host


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--images_path", required=True)
    parser.add_argument("--output_path", required=True)
    parser.add_argument("--width", type=int, default=224)
    parser.add_argument("--height", type=int, default=224)
    parser.add_argument("--device", type=int, default=0)
    args = parser.parse_args()

    print("init resource stage:")
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(args.device))
    context, ret = acl.rt.create_context(args.device)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    dvpp = DvppProcess(stream)
    print("init resource success")

    os.makedirs(args.output_path, exist_ok=True)
    for name in sorted(os.listdir(args.images_path)):
        if not name.lower().endswith((".jpg", ".jpeg")):
            continue
        with open(os.path.join(args.images_path, name), "rb") as f:
            data = f.read()
        yuv, yuv_desc, width, height = dvpp.jpegd(data)
        small, small_desc, small_size = dvpp.resize(yuv_desc, args.width, args.height)
        stem = os.path.splitext(name)[0]
        to_host(small, small_size).tofile(os.path.join(args.output_path, stem + ".yuv"))
        jpeg, jpeg_size = dvpp.jpege(small_desc)
        to_host(jpeg, jpeg_size).tofile(os.path.join(args.output_path, stem + "_small.jpg"))
        print(f"{name}: {width}x{height} -> {args.width}x{args.height}, jpeg {jpeg_size} bytes")
        for desc in (yuv_desc, small_desc):
            acl.media.dvpp_destroy_pic_desc(desc)
        for buffer in (yuv, small, jpeg):
            check_ret("acl.media.dvpp_free", acl.media.dvpp_free(buffer))

    print("Releasing resources stage:")
    dvpp.destroy()
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(args.device))
    check_ret("acl.finalize", acl.finalize())
    print("Resources released successfully.")


if __name__ == "__main__":
    main()

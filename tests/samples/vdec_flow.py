"""The VDEC flow of the official pyACL samples (Ascend/samples python/common/acllite
videocapture.py and dvpp_vdec.py), re-expressed in acl_lab's own words: PyAV demuxes an
annex-b H.264 file, each packet is copied into one reused DVPP input buffer and sent to a
VDEC channel from a decode thread; a callback thread (acl.util.start_thread looping on
acl.rt.process_report) receives each YUV420SP picture and queues it; the main thread reads
the pictures, copies them to the host and prints their mean luma. The one change a real
program needs to run on the simulator is the line binding ``acl``.

usage: python vdec_flow.py --video FILE.h264
"""
import argparse
import queue
import threading

import av
import numpy as np

import acl_lab

acl = acl_lab.load()          # on hardware: import acl

SUCCESS, H2D, D2H = 0, 1, 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420, H264_MAIN_LEVEL = 1, 2


def check_ret(what, ret):
    if ret != SUCCESS:
        raise RuntimeError(f"{what} failed ret={ret}: {acl.get_recent_err_msg()}")


class Vdec:
    def __init__(self, context, width, height):
        self.context, self.width, self.height = context, width, height
        self.frames = queue.Queue()
        self.sent = self.done = 0
        self.running = True
        self.pic_size = width * height * 3 // 2
        self.thread_id, ret = acl.util.start_thread(self._callback_thread, [])
        check_ret("acl.util.start_thread", ret)
        self.channel_desc = acl.media.vdec_create_channel_desc()
        acl.media.vdec_set_channel_desc_channel_id(self.channel_desc, 0)
        acl.media.vdec_set_channel_desc_thread_id(self.channel_desc, self.thread_id)
        acl.media.vdec_set_channel_desc_callback(self.channel_desc, self._callback)
        acl.media.vdec_set_channel_desc_entype(self.channel_desc, H264_MAIN_LEVEL)
        acl.media.vdec_set_channel_desc_out_pic_format(self.channel_desc,
                                                       PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        check_ret("acl.media.vdec_create_channel",
                  acl.media.vdec_create_channel(self.channel_desc))
        self.frame_config = acl.media.vdec_create_frame_config()

    def _callback_thread(self, args_list):
        acl.rt.set_context(self.context)
        while self.running:
            acl.rt.process_report(300)

    def _callback(self, input_stream_desc, output_pic_desc, user_data):
        self.done += 1
        acl.media.dvpp_destroy_stream_desc(input_stream_desc)
        data = acl.media.dvpp_get_pic_desc_data(output_pic_desc)
        if acl.media.dvpp_get_pic_desc_ret_code(output_pic_desc):
            acl.media.dvpp_free(data)
        else:
            self.frames.put((user_data, data))
        acl.media.dvpp_destroy_pic_desc(output_pic_desc)

    def send(self, data, size, frame_id):
        stream_desc = acl.media.dvpp_create_stream_desc()
        acl.media.dvpp_set_stream_desc_data(stream_desc, data)
        acl.media.dvpp_set_stream_desc_size(stream_desc, size)
        output, ret = acl.media.dvpp_malloc(self.pic_size)
        check_ret("acl.media.dvpp_malloc", ret)
        pic_desc = acl.media.dvpp_create_pic_desc()
        acl.media.dvpp_set_pic_desc_data(pic_desc, output)
        acl.media.dvpp_set_pic_desc_size(pic_desc, self.pic_size)
        acl.media.dvpp_set_pic_desc_format(pic_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        check_ret("acl.media.vdec_send_frame",
                  acl.media.vdec_send_frame(self.channel_desc, stream_desc, pic_desc,
                                            self.frame_config, frame_id))
        self.sent += 1

    def destroy(self):
        check_ret("acl.media.vdec_destroy_channel",
                  acl.media.vdec_destroy_channel(self.channel_desc))
        self.running = False
        check_ret("acl.util.stop_thread", acl.util.stop_thread(self.thread_id))
        acl.media.vdec_destroy_frame_config(self.frame_config)
        acl.media.vdec_destroy_channel_desc(self.channel_desc)


def decode_thread(path, context, vdec, finished):
    """Demux with PyAV, copy each packet into one DVPP buffer, send it (videocapture.py)."""
    check_ret("acl.rt.set_context", acl.rt.set_context(context))
    container = av.open(path)
    stream = container.streams.video[0]
    in_size = vdec.width * vdec.height * 3
    in_buffer, ret = acl.media.dvpp_malloc(in_size)
    check_ret("acl.media.dvpp_malloc", ret)
    for frame_id, packet in enumerate(container.demux(stream)):
        data = np.frombuffer(bytes(packet), np.uint8)
        if data.size == 0:
            break
        check_ret("acl.rt.memcpy", acl.rt.memcpy(in_buffer, in_size, acl.util.numpy_to_ptr(data),
                                                 data.size, H2D))
        vdec.send(in_buffer, data.size, frame_id)
    container.close()
    vdec.destroy()                     # waits until every callback has run
    check_ret("acl.media.dvpp_free", acl.media.dvpp_free(in_buffer))
    finished.set()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--video", required=True)
    args = parser.parse_args()
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    context, ret = acl.rt.create_context(0)
    check_ret("acl.rt.create_context", ret)
    with av.open(args.video) as probe:
        codec = probe.streams.video[0].codec_context
        width, height = codec.width, codec.height
    print(f"video {width}x{height}")
    vdec = Vdec(context, width, height)
    finished = threading.Event()
    worker = threading.Thread(target=decode_thread, args=(args.video, context, vdec, finished))
    worker.start()
    host = np.zeros(width * height, np.uint8)
    while not (finished.is_set() and vdec.frames.empty()):
        try:
            frame_id, data = vdec.frames.get(timeout=0.1)
        except queue.Empty:
            continue
        check_ret("acl.rt.memcpy", acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.size, data,
                                                 host.size, D2H))
        print(f"frame {frame_id}: mean Y {host.mean():.0f}")
        check_ret("acl.media.dvpp_free", acl.media.dvpp_free(data))
    worker.join()
    print(f"sent {vdec.sent}, decoded {vdec.done}")
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
    check_ret("acl.finalize", acl.finalize())
    print("Resources released successfully.")


if __name__ == "__main__":
    main()

"""The flow of Ascend/samples' python/level2_simple_inference/1_classification/
resnet50_async_imagenet_classification/src/acl_net.py, re-expressed in acl_lab's own words:
a stream, a pool of input/output datasets, acl.util.start_thread running a
process_report(50) loop with the context set, subscribe_report, execute_async per image with
a blocking launch_callback after every ``callback_interval`` executions (the callback copies
each output to malloc_host memory and prints the top 5), synchronize, unsubscribe,
stop_thread, release. The one change a real program needs is the line binding ``acl``.

usage: python resnet50_async_flow.py --model_path M.om --images_path DIR
       [--execute_times 4] [--callback_interval 1] [--mem_pools 4]
"""
import argparse
import os

import numpy as np

import acl_lab
from resnet50_flow import IMAGE_SUFFIXES, ensure, preprocess

acl = acl_lab.load()          # on hardware: import acl

NORMAL_ONLY, H2D, D2H = 2, 1, 2


class AsyncClassifier:
    def __init__(self, device_id, execute_times, callback_interval, pools, model_path):
        self.device_id, self.execute_times = device_id, execute_times
        self.callback_interval, self.pools = callback_interval, pools
        self.pairs, self.exit_flag = [], False
        print("init resource stage:")
        ensure("acl.init", acl.init())
        ensure("acl.rt.set_device", acl.rt.set_device(device_id))
        self.context, ret = acl.rt.create_context(device_id)
        ensure("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        ensure("acl.rt.create_stream", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        ensure("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        ensure("acl.mdl.get_desc", acl.mdl.get_desc(self.model_desc, self.model_id))
        self.outputs = acl.mdl.get_num_outputs(self.model_desc)
        print("init resource stage success")

    def _dataset(self, sizes_and_hosts):
        dataset = acl.mdl.create_dataset()
        for size, host in sizes_and_hosts:
            device, ret = acl.rt.malloc(size, NORMAL_ONLY)
            ensure("acl.rt.malloc", ret)
            if host is not None:
                ensure("acl.rt.memcpy", acl.rt.memcpy(device, size, host, size, H2D))
            buffer = acl.create_data_buffer(device, size)
            if buffer is None:
                raise RuntimeError("can't create data buffer")
            _, ret = acl.mdl.add_dataset_buffer(dataset, buffer)
            if ret != 0:
                ensure("acl.destroy_data_buffer", acl.destroy_data_buffer(buffer))
        return dataset

    def _prepare(self, images):
        for i in range(self.pools):
            image = images[i % len(images)]
            host = (acl.util.bytes_to_ptr(image.tobytes()) if "bytes_to_ptr" in dir(acl.util)
                    else acl.util.numpy_to_ptr(image))
            inputs = self._dataset([(image.size * image.itemsize, host)])
            outputs = self._dataset([(acl.mdl.get_output_size_by_index(self.model_desc, j),
                                      None) for j in range(self.outputs)])
            self.pairs.append([inputs, outputs])

    def _serve(self, args):
        context, timeout = args
        acl.rt.set_context(context)
        while self.callback_interval:
            acl.rt.process_report(timeout)
            if self.exit_flag:
                print("exit acl.rt.process_report")
                break

    def run(self, images):
        self._prepare(images)
        tid, ret = acl.util.start_thread(self._serve, [self.context, 50])
        ensure("acl.util.start_thread", ret)
        ensure("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, self.stream))
        self._forward()
        ensure("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        ensure("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, self.stream))
        self.exit_flag = True
        ensure("acl.util.stop_thread", acl.util.stop_thread(tid))

    def _forward(self):
        print("execute stage:")
        batch = []
        for i in range(self.execute_times):
            inputs, outputs = self.pairs.pop(0)
            ensure("acl.mdl.execute_async",
                   acl.mdl.execute_async(self.model_id, inputs, outputs, self.stream))
            batch.append([inputs, outputs])
            if (i + 1) % self.callback_interval == 0:
                acl.rt.launch_callback(self._on_results, batch, 1, self.stream)
                self.pairs.extend(batch)
                batch = []
        print("execute stage success")

    def _on_results(self, batch):
        print("callback func stage:")
        for _, outputs in batch:
            for i in range(acl.mdl.get_dataset_num_buffers(outputs)):
                buffer = acl.mdl.get_dataset_buffer(outputs, i)
                ptr = acl.get_data_buffer_addr(buffer)
                size = acl.get_data_buffer_size_v2(buffer)
                host, ret = acl.rt.malloc_host(size)
                ensure("acl.rt.malloc_host", ret)
                ensure("acl.rt.memcpy", acl.rt.memcpy(host, size, ptr, size, D2H))
                dims, ret = acl.mdl.get_cur_output_dims(self.model_desc, 0)
                ensure("acl.mdl.get_cur_output_dims", ret)
                raw = acl.util.ptr_to_bytes(host, size)
                scores = np.frombuffer(raw, np.float32).reshape(tuple(dims["dims"])).flatten()
                print("\n======== top5 inference results: =============")
                for j in scores.argsort()[-1:-6:-1]:
                    print("[%d]: %f" % (j, scores[j]))
        print("callback func stage success")

    def release(self):
        print("release source stage:")
        ensure("acl.mdl.unload", acl.mdl.unload(self.model_id))
        ensure("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.model_desc))
        while self.pairs:
            for dataset in self.pairs.pop():
                for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                    buffer = acl.mdl.get_dataset_buffer(dataset, i)
                    if buffer:
                        ensure("acl.rt.free", acl.rt.free(acl.get_data_buffer_addr(buffer)))
                        ensure("acl.destroy_data_buffer", acl.destroy_data_buffer(buffer))
                ensure("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
        ensure("acl.rt.destroy_stream", acl.rt.destroy_stream(self.stream))
        ensure("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        ensure("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        ensure("acl.finalize", acl.finalize())
        print("release source stage success")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--execute_times", type=int, default=4)
    parser.add_argument("--callback_interval", type=int, default=1)
    parser.add_argument("--mem_pools", type=int, default=4)
    parser.add_argument("--model_path", required=True)
    parser.add_argument("--images_path", required=True)
    args = parser.parse_args()
    net = AsyncClassifier(args.device, args.execute_times, args.callback_interval,
                          args.mem_pools, args.model_path)
    images = [preprocess(os.path.join(args.images_path, name))
              for name in sorted(os.listdir(args.images_path))
              if os.path.splitext(name)[1].lower() in IMAGE_SUFFIXES]
    net.run(images)
    print("run finish!!!")
    net.release()

"""The flow of Ascend/samples' python/level2_simple_inference/1_classification/
resnet50_imagenet_classification/src/acl_net.py, re-expressed in acl_lab's own words: the
same pyACL calls in the same order with the same argument and return conventions (module-level
use of acl.mdl.get_*_size_by_index, ``_, ret = add_dataset_buffer``, ``dims["dims"]``,
``"bytes_to_ptr" in dir(acl.util)``, malloc_host for results, release in reverse). The one
change a real program needs to run on the simulator is the line binding ``acl``.

usage: python resnet50_flow.py --model_path M.om --images_path DIR [--device 0]
"""
import argparse
import os

import numpy as np
from PIL import Image

import acl_lab

acl = acl_lab.load()          # on hardware: import acl

SUCCESS, HUGE_FIRST, H2D, D2H, NPY_FLOAT32 = 0, 0, 1, 2, 11
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
SIZE_OF = {"in": acl.mdl.get_input_size_by_index, "out": acl.mdl.get_output_size_by_index}


def ensure(what, ret):
    if ret != SUCCESS:
        raise RuntimeError(f"{what} failed ret={ret}")


class Classifier:
    def __init__(self, device_id, model_path):
        self.device_id, self.model_path = device_id, model_path
        self.buffers = {"in": [], "out": []}
        self.datasets = {"in": None, "out": None}
        print("init resource stage:")
        ensure("acl.init", acl.init())
        ensure("acl.rt.set_device", acl.rt.set_device(device_id))
        self.context, ret = acl.rt.create_context(device_id)
        ensure("acl.rt.create_context", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        ensure("acl.mdl.load_from_file", ret)
        print(f"model_id:{self.model_id}")
        self.model_desc = acl.mdl.create_desc()
        ensure("acl.mdl.get_desc", acl.mdl.get_desc(self.model_desc, self.model_id))
        for side, count in (("in", acl.mdl.get_num_inputs(self.model_desc)),
                            ("out", acl.mdl.get_num_outputs(self.model_desc))):
            for i in range(count):
                size = SIZE_OF[side](self.model_desc, i)
                ptr, ret = acl.rt.malloc(size, HUGE_FIRST)
                ensure("acl.rt.malloc", ret)
                self.buffers[side].append({"buffer": ptr, "size": size})
        print("init resource success")

    def _to_device(self, images):
        for item, image in zip(self.buffers["in"], images):
            if "bytes_to_ptr" in dir(acl.util):
                raw = image.tobytes()
                ptr = acl.util.bytes_to_ptr(raw)
            else:
                ptr = acl.util.numpy_to_ptr(image)
            ensure("acl.rt.memcpy", acl.rt.memcpy(item["buffer"], item["size"], ptr,
                                                  item["size"], H2D))
        for side in ("in", "out"):
            dataset = acl.mdl.create_dataset()
            self.datasets[side] = dataset
            for item in self.buffers[side]:
                data = acl.create_data_buffer(item["buffer"], item["size"])
                _, ret = acl.mdl.add_dataset_buffer(dataset, data)
                if ret != SUCCESS:
                    ensure("acl.destroy_data_buffer", acl.destroy_data_buffer(data))

    def _forward(self):
        print("execute stage:")
        ensure("acl.mdl.execute", acl.mdl.execute(self.model_id, self.datasets["in"],
                                                  self.datasets["out"]))
        for side in ("in", "out"):
            dataset = self.datasets[side]
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                data = acl.mdl.get_dataset_buffer(dataset, i)
                if data:
                    ensure("acl.destroy_data_buffer", acl.destroy_data_buffer(data))
            ensure("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
        print("execute stage success")

    def _to_host(self):
        results = []
        for item in self.buffers["out"]:
            host, ret = acl.rt.malloc_host(item["size"])
            ensure("acl.rt.malloc_host", ret)
            ensure("acl.rt.memcpy", acl.rt.memcpy(host, item["size"], item["buffer"],
                                                  item["size"], D2H))
            results.append({"buffer": host, "size": item["size"]})
        dims, ret = acl.mdl.get_cur_output_dims(self.model_desc, 0)
        ensure("acl.mdl.get_cur_output_dims", ret)
        arrays = []
        for item in results:
            if "ptr_to_bytes" in dir(acl.util):
                raw = acl.util.ptr_to_bytes(item["buffer"], item["size"])
                arrays.append(np.frombuffer(raw, dtype=np.float32).reshape(tuple(dims["dims"])))
            else:
                arrays.append(acl.util.ptr_to_numpy(item["buffer"], tuple(dims["dims"]),
                                                    NPY_FLOAT32))
        scores = np.array(arrays).flatten()
        print("======== top5 inference results: =============")
        for index in scores.argsort()[-1:-6:-1]:
            print("[%d]: %f" % (index, scores[index]))
        for item in results:
            ensure("acl.rt.free_host", acl.rt.free_host(item["buffer"]))

    def run(self, images):
        self._to_device(images)
        self._forward()
        self._to_host()

    def release(self):
        print("Releasing resources stage:")
        ensure("acl.mdl.unload", acl.mdl.unload(self.model_id))
        acl.mdl.destroy_desc(self.model_desc)
        for side in ("in", "out"):
            for item in self.buffers[side]:
                ensure("acl.rt.free", acl.rt.free(item["buffer"]))
        ensure("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        ensure("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        ensure("acl.finalize", acl.finalize())
        print("Resources released successfully.")


def preprocess(path):
    """Resize to 256, centre-crop 224, RGB -> BGR, subtract the channel means, NCHW float16."""
    with Image.open(os.path.abspath(path)) as image:
        pixels = np.array(image.resize((256, 256)))
    off = (256 - 224) // 2
    bgr = pixels[off:off + 224, off:off + 224, ::-1].astype("float16")
    bgr -= np.array([104, 117, 123], dtype="float16")
    return np.frombuffer(bgr[np.newaxis].transpose(0, 3, 1, 2).tobytes(), np.float16)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--model_path", required=True)
    parser.add_argument("--images_path", required=True)
    args = parser.parse_args()
    net = Classifier(args.device, args.model_path)
    for name in sorted(os.listdir(args.images_path)):
        if os.path.splitext(name)[1].lower() in IMAGE_SUFFIXES:
            print(f"images:{name}")
            net.run([preprocess(os.path.join(args.images_path, name))])
    print("*****run finish******")
    net.release()

"""What each official pyACL sample needs from outside, for tools/run_samples.py: its
models (the names, shapes and types its own model has, read from the sample's code and
README), its inputs, its arguments. Paths are relative to the program's folder.

A model entry is ``path: ([(input name, shape, dtype)], [(output name, shape, dtype)])``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass
class Spec:
    models: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)      # path -> "image[:WxH]" | "bin:dtype:count"
    dirs: tuple = ()           # folders the README has the user make (outputs)
    singleop: tuple = ()       # ((op.json, output folder), ...) relative to the sample folder
    args: tuple = ()
    env: dict = field(default_factory=dict)


L1 = "python/level1_single_api/1_acl"
L2 = "python/level2_simple_inference"
IMAGES = {"../data/dog1_1024_683.jpg": "image:1024x683", "../data/dog2_1024_683.jpg":
          "image:1024x683"}

MEMORY = f"{L1}/2_memory_management"
#: the READMEs' flags, with 2 cycles of 2 instead of 10 of 10 (the same calls, fewer times;
#: check_ret sleeps 5 s after every failed call). The async sample's README shows the
#: command of memcpy_host_device.py, whose flags it does not accept: it gets the four it has.
CYCLES = ("--release_cycle", "2", "--number_of_cycles", "2", "--device_id", "0",
          "--memory_size", "10485760")


def picture(model: str, inputs, outputs, args=("../data/",), image="../data/test.jpg",
            dirs=("../out",), **extra) -> Spec:
    """A picture sample: one model, one stand-in picture, the image folder as argument."""
    return Spec(models={model: (inputs, outputs)}, files={image: "image:640x480"},
                args=args, dirs=dirs, **extra)


def yuv_picture(model: str, width: int, height: int, outputs, **extra) -> Spec:
    """A sample whose model takes DVPP's YUV420SP picture (AIPP converts it on the device):
    the stand-in takes the same bytes — width (aligned to 16) x height (aligned to 2) x 3/2 —
    as uint8. (With the models room's --insert_op_conf, the sample's own AIPP config can
    replace this.) These samples need acl.media (DVPP) first."""
    width, height = -(-width // 16) * 16, -(-height // 2) * 2
    return picture(model, [("actual_input_1", [1, height * 3 // 2, width, 1], "uint8")],
                   outputs, **extra)


MI = "inference/modelInference"
RESNET_OUT = [("output", [1, 1000], "float32")]
JPEGS = {"../data/dog1_1024_683.jpg": "image:1024x683", "../data/dog2_1024_683.jpg":
         "image:1024x683"}

#: hifill's single-op description (its README downloads matmul_27648.json; the tensors are
#: those its program describes: float, NCHW, x1 [1,1,1024,1024] x x2 [1,1,1024,27648])
MATMUL_27648 = json.dumps([{
    "op": "BatchMatMul",
    "input_desc": [{"format": "NCHW", "shape": [1, 1, 1024, 1024], "type": "float"},
                   {"format": "NCHW", "shape": [1, 1, 1024, 27648], "type": "float"}],
    "output_desc": [{"format": "NCHW", "shape": [1, 1, 1024, 27648], "type": "float"}],
    "attr": [{"name": "adj_x1", "type": "bool", "value": False},
             {"name": "adj_x2", "type": "bool", "value": False}]}])

SPECS = {
    f"{MEMORY}/memcpy_host_device_python/src/memcpy_host_device.py": Spec(
        args=CYCLES + ("--write_back_host", "--memory_reuse")),
    f"{MEMORY}/memcpy_host_device_async_python/src/memcpy_host_device_async_python.py": Spec(
        args=CYCLES),
    f"{MEMORY}/memcpy_host_DVPP_python/src/memcpy_host_dvpp.py": Spec(
        args=CYCLES + ("--memory_reuse",)),
    f"{L1}/4_blas/acl_operator_add/src/acl_execute_add.py": Spec(
        singleop=(("test_data/config/add_op.json", "test_data/op_models"),)),
    f"{L2}/1_classification/resnet50_imagenet_classification/src/acl_net.py": Spec(
        models={"../model/resnet50.om": ([("data", [1, 3, 224, 224], "float16")],
                                         [("prob", [1, 1000], "float32")])},
        files=IMAGES),
    f"{L2}/1_classification/resnet50_async_imagenet_classification/src/acl_net.py": Spec(
        models={"../model/resnet50.om": ([("data", [1, 3, 224, 224], "float16")],
                                         [("prob", [1, 1000], "float32")])},
        files=IMAGES),
    f"{L2}/1_classification/googlenet_mindspore_picture/src/classify.py": picture(
        "../model/googlenet.om", [("x", [1, 3, 224, 224], "float32")],
        [("output", [1, 10], "float32")]),
    f"{L2}/1_classification/resnet50_mindspore_picture/src/classify.py": picture(
        "../model/resnet50.om", [("x", [1, 3, 224, 224], "float32")],
        [("output", [1, 10], "float32")]),
    f"{L2}/1_classification/lenet_mindspore_picture/src/classify.py": picture(
        "../model/mnist.om", [("x", [1, 1, 32, 32], "float32")],
        [("output", [1, 10], "float32")], args=(), dirs=("../outputs",)),
    "python/contrib/inceptionv2_picture/src/classify.py": picture(
        "../model/frozen_graph-inception-resnet-test1.om", [("input", [1, 299, 299, 3], "uint8")],
        [("output", [1, 1001], "float32")]),
    f"{L2}/6_other/colorization_picture/src/colorize.py": picture(
        "../model/colorization_yuv.om", [("data_l", [1, 1, 224, 224], "float32")],
        [("class8_ab", [1, 2, 56, 56], "float32")], args=()),
    "python/contrib/dehaze_picture/src/main.py": picture(
        "../model/deploy_vel.om", [("t_image_input_to_DHGAN_generator", [1, 512, 512, 3],
                                    "float16")],
        [("output", [1, 512, 512, 3], "float32")]),
    "python/contrib/edge_detection_picture/src/main.py": picture(
        "../model/rcf.om", [("data", [1, 3, 512, 512], "float16")],
        [(f"side{i}", [1, 1, n, n], "float32") for i, n in
         enumerate((512, 256, 128, 64, 63))], args=()),
    "python/contrib/vessel_segmentation/src/main.py": picture(
        "../model/vessel.om", [("data", [1, 3, 512, 512], "float16")],
        [("prob", [1, 1, 512, 512], "float32")], args=()),
    "python/contrib/image_HDR_enhance/src/main.py": picture(
        "../model/image_HDR_enhance.om", [("input", [1, 512, 512, 3], "float32")],
        [("output", [1, 512, 512, 3], "float32")], args=()),
    # inference/modelInference: the current samples (resnet50 with 224x224 pictures)
    f"{MI}/sampleResnetQuickStart/python/src/sampleResnetQuickStart.py": Spec(
        models={"../model/resnet50.om": ([("actual_input_1", [1, 3, 224, 224], "float32")],
                                         RESNET_OUT)}, files=JPEGS),
    # its AIPP takes the RGB picture as bytes (uint8 224x224x3)
    f"{MI}/sampleResnetAIPP/python/src/sampleResnetAIPP.py": Spec(
        models={"../model/resnet50.om": ([("actual_input_1", [1, 224, 224, 3], "uint8")],
                                         RESNET_OUT)}, files=JPEGS),
    f"{MI}/sampleResnetDVPP/python/src/sampleResnetDVPP.py": yuv_picture(
        "../model/resnet50.om", 224, 224, RESNET_OUT, args=(), image="../data/dog1_1024_683.jpg"),
    f"{MI}/sampleResnetDVPP/pyAcllite/src/sampleResnetDVPP.py": yuv_picture(
        "../model/resnet50.om", 224, 224, RESNET_OUT, args=(), image="../data/dog1_1024_683.jpg"),
    f"{L2}/1_classification/googlenet_imagenet_picture/src/classify.py": yuv_picture(
        "../model/googlenet_yuv.om", 224, 224, [("prob", [1, 1000], "float32")]),
    f"{L2}/1_classification/googlenet_onnx_picture/src/classify.py": yuv_picture(
        "../model/googlenet_yuv.om", 224, 224, [("output", [1, 1000], "float32")]),
    f"{L2}/1_classification/inceptionv3_picture/src/classify.py": yuv_picture(
        "../model/InceptionV3.om", 336, 336, [("output", [1, 1000], "float32")]),
    "python/contrib/crowd_count_picture/src/main.py": yuv_picture(
        "../model/count_person.caffe.om", 1408, 800, [("output", [1, 1, 800, 1408], "float32")]),
    "python/contrib/cartoonGAN_picture/src/cartoonization.py": yuv_picture(
        "../model/cartoonization.om", 256, 256, [("output", [1, 256, 256, 3], "float32")]),
    f"{L2}/6_other/style_transfer_picture/src/main.py": picture(
        "../model/xingkong1_fp32_nchw_no_aipp.om", [("input", [1, 3, 720, 1080], "float32")],
        [("output", [1, 3, 360, 540], "float32")], args=("../data", "xingkong"), dirs=()),
    f"{L2}/6_other/imageinpainting_hifill/src/main.py": Spec(
        models={"../model/hifill.om": (
            [("img", [1, 512, 512, 3], "float32"), ("mask", [1, 512, 512, 1], "float32")],
            [("inpainted", [1, 512, 512, 3], "float32"), ("attention", [1, 1024, 1024],
                                                          "float32"),
             ("mask_out", [1, 512, 512, 1], "float32")])},
        files={"../data/test.jpg": "image:1024x768", "../mask/test.png": "image:1024x768",
               "../model/matmul_27648.json": "text:" + MATMUL_27648},
        singleop=(("model/matmul_27648.json", "model"),), env={"ACL_LAB_HOST_RAM": "3GiB"}),
    "python/contrib/3Dgesture_recognition/src/3Dgesture_recognition.py": Spec(
        models={"../model/3d_gesture_recognition.om": (
            [("X", [1, 16, 112, 112, 3], "float32")], [("output", [1, 10], "float32")])},
        files={"../data/test.bin": f"bin:float32:{16 * 112 * 112 * 3}"}, args=("../data/",)),
}

#: the image classifiers: run_samples checks the top-5 each prints against onnxruntime
CLASSIFIERS = {
    f"{MI}/sampleResnetQuickStart/python/src/sampleResnetQuickStart.py",
    f"{MI}/sampleResnetAIPP/python/src/sampleResnetAIPP.py",
    f"{MI}/sampleResnetDVPP/python/src/sampleResnetDVPP.py",
    f"{MI}/sampleResnetDVPP/pyAcllite/src/sampleResnetDVPP.py",
    "python/contrib/inceptionv2_picture/src/classify.py",
    *(f"{L2}/1_classification/{name}" for name in (
        "resnet50_imagenet_classification/src/acl_net.py",
        "resnet50_async_imagenet_classification/src/acl_net.py",
        "resnet50_imagenet_dynamic_hw/src/acl_net.py",
        "googlenet_mindspore_picture/src/classify.py",
        "resnet50_mindspore_picture/src/classify.py",
        "lenet_mindspore_picture/src/classify.py",
        "googlenet_imagenet_picture/src/classify.py",
        "googlenet_onnx_picture/src/classify.py",
        "googlenet_imagenet_dynamic_batch/src/classify.py",
        "googlenet_imagenet_multi_batch/src/classify.py",
        "inceptionv3_picture/src/classify.py")),
}

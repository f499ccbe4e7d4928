"""What each official pyACL sample needs from outside, for tools/run_samples.py: its
models (the names, shapes and types its own model has, read from the sample's code and
README), its inputs, its arguments. Paths are relative to the program's folder.

A model entry is ``path: ([(input name, shape, dtype)], [(output name, shape, dtype)])``.
"""
from __future__ import annotations

import json
from pathlib import Path
from dataclasses import dataclass, field


@dataclass
class Spec:
    models: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)   # path -> "image[:WxH]" | "pieces:WxH" | "video:WxH:frames"
    #                          | "bin:dtype:count" | "text:..." | "copy:/local/file"
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
            dirs=("../out",), files=None, flags=(), **extra) -> Spec:
    """A picture sample: one model (converted with ATC ``flags``), one stand-in picture (or
    ``files``), the image folder as argument."""
    return Spec(models={model: (inputs, outputs, tuple(flags))},
                files=dict(files or {image: "image:640x480"}), args=args, dirs=dirs, **extra)


def aipp_config(width: int, height: int, input_format: str = "YUV420SP_U8",
                crop: tuple = ()) -> str:
    """A stand-in for the AIPP config a sample's README downloads: DVPP's picture (YUV420SP,
    width x height) to RGB with the ImageNet means, as those configs do; ``crop`` (w, h)
    takes the network's size out of DVPP's aligned picture."""
    size = (f"    src_image_size_w : {width}\n    src_image_size_h : {height}\n"
             if width else "")
    if crop:
        size += ("    crop : true\n    load_start_pos_w : 0\n    load_start_pos_h : 0\n"
                 f"    crop_size_w : {crop[0]}\n    crop_size_h : {crop[1]}\n")
    return ("aipp_op {\n    aipp_mode : static\n    related_input_rank : 0\n"
            f"    input_format : {input_format}\n"
            f"    csc_switch : {'true' if input_format.startswith('YUV') else 'false'}\n"
            f"{size}"
            "    min_chn_0 : 123\n    min_chn_1 : 117\n    min_chn_2 : 104\n"
            "    var_reci_chn_0 : 1\n    var_reci_chn_1 : 1\n    var_reci_chn_2 : 1\n}\n")


def yuv_picture(model: str, width: int, height: int, outputs, input_name="data", batch=1,
                flags=(), **extra) -> Spec:
    """A sample whose model takes DVPP's YUV420SP picture: the stand-in network takes NCHW
    float pictures, and ATC inserts AIPP (--insert_op_conf, a config like the one its README
    downloads) to convert DVPP's output — width (aligned to 16) x height (aligned to 2) —
    on the device, as the sample's own conversion does."""
    config = str(Path(model).parent / "insert_op.cfg")
    spec = picture(model, [(input_name, [batch, 3, height, width], "float32")], outputs,
                   flags=(f"--insert_op_conf={config}", *flags), **extra)
    aligned = -(-width // 16) * 16, -(-height // 2) * 2      # what DVPP's resize gives
    spec.files[config] = "text:" + aipp_config(
        *aligned, crop=(width, height) if aligned != (width, height) else ())
    return spec


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

TWO_PICTURES = {"../data/test.jpg": "image:640x480", "../data/test2.jpg": "image:800x600"}
#: yolov7x (its README's --out_nodes: three heads, 255 = 3 x (80 classes + 5)) and the
#: post-processing model its postProcessOperator.py builds (box_out, box_out_num)
YOLOV7 = picture(
    "../model/yolov7x.om", [("images", [1, 3, 640, 640], "float32")],
    [(f"head{n}", [1, 255, n, n], "float32") for n in (20, 40, 80)], args=())
YOLOV7.files["../model/aipp.cfg"] = "text:" + aipp_config(640, 640)
YOLOV7.models["../model/yolov7x.om"] = YOLOV7.models["../model/yolov7x.om"][:2] + (
    ("--insert_op_conf=../model/aipp.cfg",),)
YOLOV7.models["../model/postprocess.om"] = (
    [(f"input_{i}", [1, 255, n, n], "float32") for i, n in enumerate((80, 40, 20))]
    + [("img_info", [1, 4], "float32")],
    [("box_out", [1, 6144], "float32"), ("box_out_num", [1, 8], "int32")])

#: YOLOv3 (caffe) with its detection output: the picture through AIPP and the image info in;
#: box_info (6 x 1024 values) and box_num out, as the samples read them
YOLO_BOXES = [("box_info", [1, 6144], "float32"), ("box_num", [1, 8], "int32")]


def yolov3(model: str, **extra) -> Spec:
    spec = yuv_picture(model, 416, 416, YOLO_BOXES, **extra)
    inputs, *rest = spec.models[model]
    spec.models[model] = (inputs + [("img_info", [1, 4], "float32")], *rest)
    return spec


YOLOV3 = yolov3("../model/yolov3_yuv.om")
#: the TensorFlow YOLOv3 (three heads) and the detection-output model its README builds
YOLOV3_WITH_OP = yuv_picture(
    "../model/yolov3_tf_aipp.om", 416, 416,
    [(f"head{n}", [1, n, n, 255], "float32") for n in (13, 26, 52)], input_name="input")
YOLOV3_WITH_OP.models["../model/yolov3_output_op.om"] = (
    [(f"head{n}", [1, n, n, 255], "float32") for n in (13, 26, 52)]
    + [("img_info", [1, 4], "float32")], YOLO_BOXES)

#: deeplabv3 (quantised, AIPP from DVPP's 513x513 picture): 21 class maps
DEEPLAB_QUANT = yuv_picture("../model/deeplab_quant.om", 513, 513,
                            [("mask", [1, 21, 513, 513], "float32")], args=())

#: an audio feature file as postprocess.py reads it: 1589 lines it skips, then one line of
#: comma-separated features per segment (it takes 20 of the first 1515 from 3 lines)
AUDIO_FEATURES = "\n".join(["name,frameTime"] * 1589 + [
    ",".join(f"{(column * 7 + line * 13) % 100 / 10:.1f}" for column in range(1515))
    for line in range(3)]) + "\n"

#: YOLOv4 (608 x 608, NCHW float): three heads of 3 x (5 + 80 classes), stride 32 first
YOLOV4 = picture("../model/yolov4_bs1.om", [("input", [1, 3, 608, 608], "float32")],
                 [(f"head{s}", [1, 255, 608 // s, 608 // s], "float32") for s in (32, 16, 8)],
                 args=())

#: fsod-code's custom VOC dataset: one picture, its id in the test split and its annotation
#: (a "hole", one of the sample's two labels), as the evaluator (metric.py) reads them
VOC = "datasets/VOC-custom"
VOC_ANNOTATION = (
    "<annotation><filename>road1.jpg</filename><size><width>1024</width><height>768</height>"
    "<depth>3</depth></size><object><name>hole</name><pose>Unspecified</pose>"
    "<truncated>0</truncated><difficult>0</difficult><bndbox><xmin>256</xmin>"
    "<ymin>192</ymin><xmax>512</xmax><ymax>384</ymax></bndbox></object></annotation>\n")

#: the samples draw their labels with DejaVu (installed with the system's fonts)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

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
    # the models their READMEs convert with AIPP (and dynamic shapes)
    f"{MI}/sampleCrowdCounting/src/sampleCrowdCounting.py": yuv_picture(
        "../model/CrowdCounting.om", 1280, 850, [("output", [1, 1, 106, 160], "float32"),
                                                 ("count", [1, 1], "float32")],
        input_name="input", args=(), dirs=("../out",)),
    f"{MI}/sampleYOLOV7NMSONNX/src/sampleYOLOV7NMSONNX.py": YOLOV7,
    "python/contrib/garbage_picture/src/classify_test.py": yuv_picture(
        "../model/garbage_yuv.om", 224, 224, [("output", [1, 26], "float32")]),
    "python/contrib/gesture_recognition_picture/src/main.py": yuv_picture(
        "../model/gesture_yuv.om", 256, 224, [("prob", [1, 19], "float32")]),
    f"{L2}/1_classification/googlenet_imagenet_multi_batch/src/classify.py": yuv_picture(
        "../model/googlenet_yuv.om", 224, 224, [("prob", [10, 1000], "float32")], batch=10,
        files=TWO_PICTURES),
    # acl_lab's atc does not combine AIPP with dynamic gears yet: these stand-ins take the
    # bytes the sample sends (DVPP's YUV420SP, the picture's RGB) as uint8, with the gears
    # of their READMEs' --dynamic_batch_size / --dynamic_image_size
    f"{L2}/1_classification/googlenet_imagenet_dynamic_batch/src/classify.py": picture(
        "../model/googlenet_dynamic_batch.om", [("data", [-1, 336, 224, 1], "uint8")],
        [("prob", [-1, 1000], "float32")], files=TWO_PICTURES,
        flags=("--input_shape=data:-1,336,224,1", "--dynamic_batch_size=1,2,4,8")),
    f"{L2}/1_classification/resnet50_imagenet_dynamic_hw/src/acl_net.py": Spec(
        models={"../model/tf_resnet50.om": (
            [("Placeholder", [1, -1, -1, 3], "uint8")], [("prob", [1, 1000], "float32")],
            ("--input_format=NHWC", "--input_shape=Placeholder:1,-1,-1,3",
             "--dynamic_image_size=112,112;224,224;448,448"))},
        # with its default --h/--w (224) it copies the largest gear's size (448x448x3) out
        # of a 224x224 picture's bytes: a read past its host buffer, which the simulator
        # refuses (107000). At the largest gear the sizes agree.
        files=JPEGS, args=("--h", "448", "--w", "448")),
    # the AIPP config these samples ship (caffe_model/aipp.cfg)
    f"{L2}/1_classification/vpc_jpeg_resnet50_imagenet_classification/src/main.py": Spec(
        models={"../model/resnet50_aipp.om": (
            [("data", [1, 3, 224, 224], "float32")], [("prob", [1, 1000], "float32")],
            ("--insert_op_conf=../caffe_model/aipp.cfg",))},
        files={"../data/persian_cat_1024_1536_283.jpg": "image:1024x1536"}),
    f"{L2}/1_classification/vpc_resnet50_imagenet_classification/src/acl_sample.py": Spec(
        models={"../model/resnet50_aipp.om": (
            [("data", [1, 3, 224, 224], "float32")], [("prob", [1, 1000], "float32")],
            ("--insert_op_conf=../caffe_model/aipp.cfg",))},
        files=JPEGS, singleop=(("op_models/op_list.json", "op_models"),)),
    f"{L2}/2_object_detection/YOLOV3_coco_detection_picture/src/object_detect.py": YOLOV3,
    f"{L2}/2_object_detection/YOLOV3_coco_detection_picture_with_postprocess_op/src/"
    "object_detect.py": YOLOV3_WITH_OP,
    f"{L2}/3_segmentation/deeplabv3_pascal_pic/src/deeplabv3.py": picture(
        "../model/deeplabv3_plus.om", [("ImageTensor", [1, 513, 513, 3], "uint8")],
        [("SemanticPredictions", [1, 513, 513], "float32")]),
    f"{L2}/3_segmentation/deeplabv3_postprocess_optimization/src/deeplab_dvpp_aipp_quant.py":
        DEEPLAB_QUANT,
    f"{L2}/3_segmentation/deeplabv3_postprocess_optimization/src/deeplab_multi.py":
        DEEPLAB_QUANT,
    f"{L2}/5_nlp/bert_text_classification/src/bert_text_classification.py": Spec(
        models={"../model/bert_text_classification.om": (
            [("input_1", [1, 300], "float32"), ("input_2", [1, 300], "float32")],
            [("dense_1", [1, 5], "float32")])},
        # a news text as long as its README's: it keeps maxlen (298) characters and the
        # tokenizer adds [CLS] and [SEP], 300 ids for the model's 300 (a shorter text is
        # padded to 298 only: 8 bytes short of the input, which the simulator reports)
        files={"../data/sample.txt": "text:" + "昇腾AI处理器上的文本分类样例，运行在模拟器上。" * 20}),
    f"{L2}/6_other/animeGAN_picture/src/AnimeGAN.py": yuv_picture(
        "../model/AnimeGANv2_256.om", 256, 256, [("generator", [1, 256, 256, 3], "float32")],
        input_name="test", args=("../data", "256")),
    "python/contrib/YOLOV3_plane_detection/src/object_detect.py": yolov3(
        "../model/yolov3.om", dirs=("../out", "./outputs")),
    f"{L2}/1_classification/vdec_resnet50_classification/src/acl_sample.py": Spec(
        models={"../model/resnet50_aipp.om": (
            [("data", [1, 3, 224, 224], "float32")], [("prob", [1, 1000], "float32")],
            ("--insert_op_conf=../caffe_model/aipp.cfg",))},
        files={"../data/vdec_h265_1frame_rabbit_1280x720.h265": "video:1280x720:1"}),
    f"{L2}/0_data_process/venc_image/src/acl_venc.py": Spec(
        files={"../data/dvpp_venc_128x128_nv12.yuv": f"bin:uint8:{128 * 128 * 3 // 2}"}),
    "best_practices/contrib/depression_detection/inference/postprocess.py": Spec(
        models={f"models/tf_model_{k}.om": ([("input", [1, 1, 20, 1], "float32")],
                                            [("output", [1, 2], "float32")])
                for k in (1, 2, 3)},
        files={f"features/audio_feature0{k}.txt": "text:" + AUDIO_FEATURES for k in (1, 2)},
        args=("--feature_dir", "features", "--model_path", "models")),
    f"{L2}/2_object_detection/YOLOV4_coco_detection_picture/src/yolov4.py": YOLOV4,
    # its lane finder is set up for the README's 1280x720 road pictures (configure.json)
    f"{L2}/2_object_detection/YOLOV4_coco_detection_car_picture/src/yolov4.py": Spec(
        models=YOLOV4.models, files={"../data/road.jpg": "image:1280x720"}),
    f"{L2}/2_object_detection/YOLOV4_coco_detection_car_video/src/yolov4.py": Spec(
        models=YOLOV4.models, files={"../data/car.mp4": "video:1280x720:3"},
        args=("../data/car.mp4",)),
    # its README: --input_shape="images:1,352,640,3" NHWC; three heads, 3 x (5 + 3 classes)
    f"{L2}/2_object_detection/YOLOV3_mask_detection_picture/src/mask_detect.py": picture(
        "../model/mask_detection.om", [("images", [1, 352, 640, 3], "float32")],
        [(f"head{s}", [1, 352 // s, 640 // s, 24], "float32") for s in (32, 16, 8)],
        args=()),
    # its README: --input_shape="image_tensor:1,300,300,3" (uint8 NHWC), --output_type=FP32;
    # the TensorFlow detection API outputs: num_detections, classes, scores, boxes
    "python/contrib/hand_detection_Gitee/src/hand_detection.py": picture(
        "../model/Hand_detection.om", [("image_tensor", [1, 300, 300, 3], "uint8")],
        [("num_detections", [1], "float32"), ("detection_classes", [1, 100], "float32"),
         ("detection_scores", [1, 100], "float32"), ("detection_boxes", [1, 100, 4], "float32")],
        image="../data/hand.jpg", args=()),
    "best_practices/contrib/fsod-code/tools/deploy/fsdet_deploy.py": Spec(
        models={"fsdet_model.om": ([("input", [1, 3, 800, 800], "float32")],
                                   [("scores", [100], "float32"), ("boxes", [100, 4], "float32"),
                                    ("classes", [100], "int32")])},
        files={f"{VOC}/ImageSets/Main/test.txt": "text:road1\n",
               f"{VOC}/JPEGImages/road1.jpg": "image:1024x768",
               f"{VOC}/Annotations/road1.xml": "text:" + VOC_ANNOTATION}),
    # its README: YOLOv3 (input_1 1x416x416x3, NHWC; one class: 3 x 6 per cell) and WHENet
    # (1x224x224x3; yaw 120 bins, pitch and roll 66)
    "python/contrib/head_pose_picture/src/main.py": Spec(
        models={"../model/yolo_model.om": (
                    [("input_1", [1, 416, 416, 3], "float32")],
                    [(f"head{n}", [1, n, n, 18], "float32") for n in (13, 26, 52)]),
                "../model/WHENet_b2_a1_modified.om": (
                    [("input_1", [1, 224, 224, 3], "float32")],
                    [("yaw", [1, 120], "float32"), ("pitch", [1, 66], "float32"),
                     ("roll", [1, 66], "float32")])},
        files={"../data/test.jpg": "image:640x480"}),
    f"{L2}/1_classification/vgg16_cat_dog_picture/src/main.py": yuv_picture(
        "../model/vgg16_cat_dog.om", 224, 256, [("output", [1, 2], "float32")],
        input_name="input_1", args=()),
    "python/contrib/portrait_picture/src/main.py": yuv_picture(
        "../model/portrait.om", 224, 224, [("output", [1, 224, 224, 2], "float32")],
        input_name="x_input", args=(), dirs=("../out/result", "../out/mask"),
        files={"../data/test.jpg": "image:640x480", "../data/background.jpg": "image:640x480"}),
    # it takes the picture as float16 NCHW and writes with a TrueType font from its folder
    "python/contrib/human_protein_map_classification/src/main.py": picture(
        "../model/deploy_vel.om", [("data", [1, 3, 224, 224], "float16")],
        [("output", [1, 10], "float32")], args=(), dirs=("../out",),
        files={"../data/test.jpg": "image:512x512", "font.ttf": f"copy:{FONT}"}),
    f"{L2}/n_e2e/ssd_mobilenetv2_picture/src/main.py": picture(
        "../model/ssd_500.om", [("input", [1, 3, 320, 320], "float32")],
        [("boxes", [1, 2034, 4], "float32"), ("scores", [1, 2034, 81], "float32")], args=()),
    # its piece classifier takes a 56x56 crop (float, NHWC) and tells 14 kinds of piece
    "python/level3_multi_model/Robot_Play_Chess/src/test_200dk.py": Spec(
        models={"../model/chess_ckpt_0804_vgg_99_0.om": (
            [("input", [1, 56, 56, 3], "float32")], [("output", [1, 14], "float32")])},
        files={"../data/test.jpg": "pieces:640x480"}),
}

#: the image classifiers: run_samples checks the top-5 each prints against onnxruntime
CLASSIFIERS = {
    f"{MI}/sampleResnetQuickStart/python/src/sampleResnetQuickStart.py",
    f"{MI}/sampleResnetAIPP/python/src/sampleResnetAIPP.py",
    f"{MI}/sampleResnetDVPP/python/src/sampleResnetDVPP.py",
    f"{MI}/sampleResnetDVPP/pyAcllite/src/sampleResnetDVPP.py",
    "python/contrib/inceptionv2_picture/src/classify.py",
    "python/contrib/gesture_recognition_picture/src/main.py",     # its top-1
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

#: the programs that need no camera, robot, presenter server or network peer and still
#: cannot complete here, and why (tests/samples/test_run_samples.py holds the runner to it)
CANNOT = {
    "best_practices/contrib/RT-GazeEstimation/Inference/Inference/valid_ETH_NPU.py":
        "imports a module `reader` its folder does not have (valid/'s reader needs PyTorch)",
    "best_practices/contrib/RT-GazeEstimation/valid/valid_ETH_NPU.py":
        "needs PyTorch (reader.py imports torch)",
    "python/contrib/hand_detection_Gitee/src/hand_detection.py":
        "uses np.int, removed in NumPy 1.24 (after its model ran)",
    "python/contrib/head_pose_picture/src/main.py":
        "uses np.cast, removed in NumPy 2.0 (after its YOLOv3 ran)",
    f"{L2}/3_segmentation/deeplabv3_postprocess_optimization/src/deeplab_dvpp_aipp_quant.py":
        "multiplies a uint8 mask by 287, an OverflowError since NumPy 2.0 (after its model ran)",
    "python/contrib/object_tracking_video/src/main.py":
        "needs lap, a compiled linear-assignment module",
    "python/contrib/object_tracking_video/src/test.py":
        "imports `loader` from its utils.dataloader, which does not define it",
    f"{MEMORY}/memcpy_host_device_python/src/memcpy_host_device.py":
        "with its README's --memory_reuse it memsets buffers it freed, and retries forever",
    f"{L2}/6_other/video_super_resolution/src/video_super_resolution.py":
        "needs ffmpeg-python and the ffmpeg program",
    "python/level3_multi_model/Robot_Play_Chess/src/test_200dk.py":
        "asserts the pieces of its own board photo (its README's test.jpg); on a stand-in "
        "board its perception runs (12 inferences) and the assertion fails",
    "python/level3_multi_model/mask_rcnn_image_inpainting/src/mask_rcnn.py":
        "needs mmcv (compiled, with PyTorch)",
}

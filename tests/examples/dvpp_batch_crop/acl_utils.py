# The constants and helpers an Ascend/samples-style pyACL program keeps beside itself
# (the samples' atlas_utils constants.py and utils.py, reduced to what batch_crop.py uses).
ACL_SUCCESS = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}".format(message, ret))


def align_up(value, align=16):
    return (value + align - 1) // align * align

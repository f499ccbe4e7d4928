"""``acl.mdl``: a model's dynamic dims and shape ranges, and the tensor descriptions a dataset
carries (hicann/ge ``inc/external/acl/acl_mdl.h``). The failure values are what pyACL's
wrappers leave (hicann/runtime ``python/pyACL/mdl/mdl_wrap.cpp``): aclmdlGetInputDimsRange's
dict is built even when the call failed (a zeroed aclmdlIODimsRange); a failed
aclmdlGetInputDynamicDims gives None here where pyACL hands back a list of unset entries.
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "mdl.set_input_dynamic_dims": P("aclError aclmdlSetInputDynamicDims(uint32_t modelId, "
                                    "aclmdlDataset *dataset, size_t index, "
                                    "const aclmdlIODims *dims)", "ret"),
    "mdl.get_input_dynamic_gear_count": P("aclError aclmdlGetInputDynamicGearCount("
                                          "const aclmdlDesc *modelDesc, size_t index, "
                                          "size_t *gearCount)", "gear_count, ret"),
    "mdl.get_input_dynamic_dims": P("aclError aclmdlGetInputDynamicDims("
                                    "const aclmdlDesc *modelDesc, size_t index, "
                                    "aclmdlIODims *dims, size_t gearCount)", "dims, ret", (None,)),
    "mdl.get_input_dims_range": P("aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, "
                                  "size_t index, aclmdlIODimsRange *dimsRange)",
                                  "dims_range, ret", ({"rangeCount": 0, "range": []},)),
    "mdl.set_dataset_tensor_desc": P("aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, "
                                     "aclTensorDesc *tensorDesc, size_t index)", "dataset, ret"),
    "mdl.get_dataset_tensor_desc": P("aclTensorDesc *aclmdlGetDatasetTensorDesc("
                                     "const aclmdlDataset *dataset, size_t index)", "tensor_desc"),
}

# The driver of acl_net.AclModel, in the shape of ModelZoo's *_pyacl_infer.py: an info file
# lists each sample's input .bin files with their shapes ("0 ./bin/feats_0.bin (1,40,23)"),
# every sample runs at the gear of its shapes, the outputs are saved per sample and the
# inference time is printed. Run unchanged by `acl-lab run` (tests/examples).
import argparse
import ast
import os
import shutil

import numpy as np

from acl_net import AclModel

DTYPE = {'float32': np.float32, 'float64': np.float64, 'int32': np.int32, 'int64': np.int64}

if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--model_path', required=True)
    parser.add_argument('--device_id', required=True, type=int)
    parser.add_argument('--sync_infer', required=True, choices=['True', 'False'])
    parser.add_argument('--workspace', required=True, type=int)
    parser.add_argument('--input_info_file_path', required=True)
    parser.add_argument('--input_dtypes', required=True)
    parser.add_argument('--infer_res_save_path', required=True)
    parser.add_argument('--res_save_type', required=True, choices=['bin', 'npy'])
    opt = parser.parse_args()

    measurements = {}
    om_model = AclModel(device_id=opt.device_id, model_path=opt.model_path,
                        sync_infer=opt.sync_infer == 'True', measurements=measurements,
                        key='per_infer_time_ns')

    if os.path.exists(opt.infer_res_save_path):
        shutil.rmtree(opt.infer_res_save_path)
    os.makedirs(opt.infer_res_save_path)

    inputs_info = {}
    with open(opt.input_info_file_path, 'rt', encoding='utf-8') as f_info:
        for line in f_info:
            contents = line.rstrip('\n').split()
            info = {'path': contents[1], 'shape': ast.literal_eval(contents[2])}
            inputs_info.setdefault(contents[0], []).append(info)

    input_dtypes = [DTYPE[x] for x in opt.input_dtypes.split(',')]

    total_infer_time = 0
    total_infer_time_workspace = 0
    total_infer_num = 0
    for key, values in inputs_info.items():
        inputs = []
        dims = []
        for idx, value in enumerate(values):
            x = np.fromfile(value['path'], dtype=input_dtypes[idx]).reshape(value['shape'])
            inputs.append(x)
            dims.extend(value['shape'])
        dims_info = {'dimCount': len(dims), 'name': '', 'dims': dims}

        output = om_model(inputs, dims_info)
        total_infer_num += 1

        for idx, data in enumerate(output):
            if opt.res_save_type == 'bin':
                data.tofile(os.path.join(opt.infer_res_save_path, key + '.' + str(idx) + '.bin'))
            else:
                np.save(os.path.join(opt.infer_res_save_path, key + '.' + str(idx) + '.npy'), data)

        total_infer_time += measurements['per_infer_time_ns']
        if total_infer_num > opt.workspace:
            total_infer_time_workspace += measurements['per_infer_time_ns']

    print('[INFO] Infer time:')
    print('total infer num: ' + str(total_infer_num))
    print('average pure infer time(ms): ' + str(total_infer_time / total_infer_num / 1e6))
    om_model.release()

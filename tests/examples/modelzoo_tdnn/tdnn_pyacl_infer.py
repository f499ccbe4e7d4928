# The driver of acl_net.AclModel, in the shape of ModelZoo's TDNN runner
# (ACL_PyTorch/built-in/audio/TDNN_for_Pytorch/tdnn_pyacl_infer.py, flags as its ReadMe and
# om_infer.sh pass them): an info file lists each utterance's feature file and shape
# ("0 ./bin/feats_0.bin (1,40,23)"); utterances of one length are stacked into batches of
# --batch_size (the last one padded with zeros), each batch runs at the gear of its length,
# every utterance's scores are saved and the inference times are printed and written to
# infer_time.txt. Run unchanged by `acl-lab run` (tests/examples).
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
    parser.add_argument('--batch_size', required=True)
    parser.add_argument('--device_id', required=True, type=int)
    parser.add_argument('--cpu_run', required=True, choices=['True', 'False'])
    parser.add_argument('--sync_infer', required=True, choices=['True', 'False'])
    parser.add_argument('--workspace', type=int, default=0)
    parser.add_argument('--input_info_file_path', required=True)
    parser.add_argument('--input_dtypes', required=True)
    parser.add_argument('--infer_res_save_path', required=True)
    parser.add_argument('--res_save_type', required=True, choices=['bin', 'npy'])
    opt = parser.parse_args()

    measurements = {}
    om_model = AclModel(device_id=opt.device_id, model_path=opt.model_path,
                        sync_infer=opt.sync_infer == 'True', measurements=measurements,
                        key='per_infer_time_ns', cpu_run=opt.cpu_run == 'True')

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

    # utterances grouped by length: one gear, one set of dims (bs, length, 23) per group
    total_infer_time = 0
    total_infer_time_workspace = 0
    total_infer_num = 0
    dataset = {}
    dims_infos = {}
    bs = int(opt.batch_size)
    for key, values in inputs_info.items():
        inputs = []
        dims = []
        for idx, value in enumerate(values):
            x = np.fromfile(value['path'], dtype=input_dtypes[idx]).reshape(value['shape'])
            inputs.append((key, x))
            dims.extend((bs, value['shape'][1], value['shape'][2]))
        dims_info = {'dimCount': len(dims), 'name': '', 'dims': dims}
        length = inputs[0][1].shape[1]
        dataset[length] = dataset.get(length, []) + inputs
        dims_infos[length] = dims_infos.get(length, dims_info)

    total_inputs = []
    total_keys = []
    for k in sorted(dataset.keys()):
        batch_input = []
        batch_key = []
        for i, (key, ipt) in enumerate(dataset[k]):
            batch_input.append(ipt)
            batch_key.append(key)
            if (i + 1) % bs == 0:
                total_inputs.append(batch_input)
                total_keys.append(batch_key)
                batch_input = []
                batch_key = []
        if batch_input != []:
            total_inputs.append(batch_input)
            total_keys.append(batch_key)

    for i, b_ipt in enumerate(total_inputs):
        batch_input = np.squeeze(np.array(b_ipt), axis=1)
        if batch_input.shape[0] < bs:
            batch_input = np.pad(batch_input, [(0, bs - batch_input.shape[0]), (0, 0), (0, 0)],
                                 mode='constant')

        output = om_model([batch_input], dims_infos[batch_input.shape[1]])   # (bs, classes)
        total_infer_num += 1

        for j, key in enumerate(total_keys[i]):
            if opt.res_save_type == 'bin':
                output[0][j].tofile(os.path.join(opt.infer_res_save_path, key + '.0.bin'))
            else:
                np.save(os.path.join(opt.infer_res_save_path, key + '.0.npy'), output[0][j])

        total_infer_time += measurements['per_infer_time_ns']
        if total_infer_num > opt.workspace:
            total_infer_time_workspace += measurements['per_infer_time_ns']

    print('[INFO] Infer time:')
    msg = 'total infer num: ' + str(total_infer_num) + '\n' + \
          'total pure infer time(ms): ' + str(total_infer_time / 1000 / 1000) + '\n' + \
          'average pure infer time(ms): ' + \
          str(total_infer_time / total_infer_num / 1000 / 1000) + '\n' + \
          'average pure infer time after workspace(ms): ' + str(abs(
              total_infer_time_workspace / (total_infer_num - opt.workspace) / 1000 / 1000)) + '\n'
    print(msg)
    with open(os.path.join(opt.infer_res_save_path, 'infer_time.txt'), 'wt',
              encoding='utf-8') as f_infer_time:
        f_infer_time.write(msg)

"""Profile a model's inference two ways, written the way hicann/runtime's profiling examples
are (example/profiling: 0_create_config, 1_msproftx, 2_subscribe_model), in pyACL:

1. a collection: aclprofInit into a folder, a config with task time and msproftx, a step
   around the inferences, a mark per iteration, aclprofStop / Finalize;
2. a model subscription: op records read from a pipe by a thread, parsed with the
   aclprofGetOp* getters.

Run unchanged by `acl-lab run` (tests/examples):

    python3 profile_model.py model.om ITERATIONS prof_dir
"""
import os
import sys
import threading

import acl
import numpy as np

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_AICORE_ARITHMETIC_UTILIZATION = 0
ACL_AICORE_NONE = 0xFF
ACL_PROF_ACL_API = 0x0001
ACL_PROF_TASK_TIME = 0x0002
ACL_PROF_MSPROFTX = 0x0080
ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3
ACL_STEP_START = 0
ACL_STEP_END = 1
DEVICE_ID = 0


def check_ret(message, ret):
    if ret != 0:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class Model:
    def __init__(self, model_path):
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.desc = acl.mdl.create_desc()
        check_ret("acl.mdl.get_desc", acl.mdl.get_desc(self.desc, self.model_id))
        self.buffers = []
        self.input = self._dataset(acl.mdl.get_num_inputs(self.desc),
                                   acl.mdl.get_input_size_by_index)
        self.output = self._dataset(acl.mdl.get_num_outputs(self.desc),
                                    acl.mdl.get_output_size_by_index)

    def _dataset(self, count, size_of):
        dataset = acl.mdl.create_dataset()
        for i in range(count):
            size = size_of(self.desc, i)
            ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            self.buffers.append(ptr)
            data = acl.create_data_buffer(ptr, size)
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            check_ret("acl.mdl.add_dataset_buffer", ret)
        return dataset

    def feed(self, array):
        size = acl.mdl.get_input_size_by_index(self.desc, 0)
        ret = acl.rt.memcpy(self.buffers[0], size, acl.util.numpy_to_ptr(array), array.nbytes,
                            ACL_MEMCPY_HOST_TO_DEVICE)
        check_ret("acl.rt.memcpy", ret)

    def execute(self):
        check_ret("acl.mdl.execute", acl.mdl.execute(self.model_id, self.input, self.output))

    def release(self):
        for dataset in (self.input, self.output):
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            acl.mdl.destroy_dataset(dataset)
        for ptr in self.buffers:
            acl.rt.free(ptr)
        acl.mdl.destroy_desc(self.desc)
        check_ret("acl.mdl.unload", acl.mdl.unload(self.model_id))


def collect(model, stream, iterations, prof_path):
    """0_create_config and 1_msproftx: a collection with a step and a mark per iteration."""
    check_ret("acl.prof.init", acl.prof.init(prof_path))
    config = acl.prof.create_config([DEVICE_ID], ACL_AICORE_ARITHMETIC_UTILIZATION, 0,
                                    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)
    if config == 0:
        raise Exception("acl.prof.create_config failed: " + acl.get_recent_err_msg())
    check_ret("acl.prof.set_config", acl.prof.set_config(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15"))
    check_ret("acl.prof.start", acl.prof.start(config))

    step_info = acl.prof.create_step_info()
    check_ret("acl.prof.get_step_timestamp",
              acl.prof.get_step_timestamp(step_info, ACL_STEP_START, stream))
    for i in range(iterations):
        model.execute()
        message = "model_exec_mark_{}".format(i)
        stamp = acl.prof.create_stamp()
        check_ret("acl.prof.set_stamp_trace_message",
                  acl.prof.set_stamp_trace_message(stamp, message, len(message)))
        check_ret("acl.prof.mark", acl.prof.mark(stamp))
        acl.prof.destroy_stamp(stamp)
    check_ret("acl.prof.get_step_timestamp",
              acl.prof.get_step_timestamp(step_info, ACL_STEP_END, stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    acl.prof.destroy_step_info(step_info)

    check_ret("acl.prof.stop", acl.prof.stop(config))
    check_ret("acl.prof.destroy_config", acl.prof.destroy_config(config))
    check_ret("acl.prof.finalize", acl.prof.finalize())


def read_op_info(read_fd, ops):
    """2_subscribe_model's reader: N op records at a time, until the pipe's end of file."""
    size, ret = acl.prof.get_op_desc_size()
    check_ret("acl.prof.get_op_desc_size", ret)
    data = os.read(read_fd, size * 10)
    while len(data) > 0:
        ptr = acl.util.bytes_to_ptr(data)
        count, ret = acl.prof.get_op_num(ptr, len(data))
        check_ret("acl.prof.get_op_num", ret)
        for i in range(count):
            op_type, ret = acl.prof.get_op_type_v2(ptr, len(data), i)
            check_ret("acl.prof.get_op_type_v2", ret)
            op_name, ret = acl.prof.get_op_name_v2(ptr, len(data), i)
            check_ret("acl.prof.get_op_name_v2", ret)
            ops.append((acl.prof.get_model_id(ptr, len(data), i), op_type, op_name,
                        acl.prof.get_op_start(ptr, len(data), i),
                        acl.prof.get_op_duration(ptr, len(data), i)))
        data = os.read(read_fd, size * 10)


def subscribe(model, iterations):
    read_fd, write_fd = os.pipe()
    config = acl.prof.create_subscribe_config(1, ACL_AICORE_NONE, write_fd)
    check_ret("acl.prof.model_subscribe", acl.prof.model_subscribe(model.model_id, config))
    ops = []
    reader = threading.Thread(target=read_op_info, args=(read_fd, ops))
    reader.start()
    for _ in range(iterations):
        model.execute()
    check_ret("acl.prof.model_un_subscribe", acl.prof.model_un_subscribe(model.model_id))
    reader.join()
    os.close(read_fd)
    check_ret("acl.prof.destroy_subscribe_config",
              acl.prof.destroy_subscribe_config(config))
    return ops


def main(model_path, iterations, prof_path):
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
    context, ret = acl.rt.create_context(DEVICE_ID)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)

    model = Model(model_path)
    model.feed(np.arange(8, dtype=np.float32))
    collect(model, stream, iterations, prof_path)
    for model_id, op_type, op_name, start, duration in subscribe(model, iterations):
        print("model {} op {} ({}): start {} ns, {} ns".format(model_id, op_name, op_type,
                                                              start, duration))
    model.release()

    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())
    print("done")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])

"""Random sequences of the argument-list calls (acl.rt.kernel_args_*) against a small model of
the runtime's rules (hicann/runtime api_impl.cc KernelArgs*): each parameter lands 8-byte
aligned with its bytes, a placeholder's data after every parameter, nothing is appended after
a placeholder buffer or finalize, a list holds 128 parameters and 64 KiB at most, an update
un-finalizes it, and a refused call changes neither the snapshot nor a byte of the list."""
from __future__ import annotations

import numpy as np
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import acl_lab
from acl_lab import constants as C
from acl_lab.session import SESSION
from acl_lab.spec import kernel_rules as rules
from kernelhelpers import elf_object

OK, INVALID, NOT_SUPPORTED = 0, C.ACL_ERROR_RT_PARAM_INVALID, C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
payloads = st.binary(min_size=1, max_size=40)


class ArgumentLists(RuleBasedStateMachine):
    @initialize()
    def start(self):
        acl_lab.reset("910b")
        self.acl = acl = acl_lab.load(profile="910b")
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        self.stream, _ = acl.rt.create_stream()
        self.elf = elf_object(["add_custom"])
        b, _ = acl.rt.binary_load_from_data(acl.util.bytes_to_ptr(self.elf), len(self.elf), [])
        self.func, _ = acl.rt.binary_get_function(b, "add_custom")
        self.handle, ret = acl.rt.kernel_args_init(self.func)
        assert ret == OK
        self.fresh()

    def fresh(self):
        self.params = []          # [handle, offset, bytes or None for a placeholder]
        self.used, self.finalized, self.got_buffer, self.updating = 0, False, False, False

    def host(self, data: bytes) -> int:
        self.keep = np.frombuffer(data, np.uint8).copy()    # alive while the call reads it
        return self.acl.util.numpy_to_ptr(self.keep)

    def expect(self, ret: int, code: int, before) -> None:
        assert ret == code, self.acl.get_recent_err_msg()
        if code != OK:
            assert self.acl.get_recent_err_msg()
            assert acl_lab.snapshot() == before[0] and self.list_bytes() == before[1]

    def state(self):
        return acl_lab.snapshot(), self.list_bytes()

    def list_bytes(self) -> bytes:
        args = SESSION.simulator.rt.kernel_args.lists[self.handle]
        out = np.empty(rules.MAX_ARGS_BUFF_SIZE, np.uint8)
        args.buffer.read_into(args.at, rules.MAX_ARGS_BUFF_SIZE, out)
        return out.tobytes()

    def next_offset(self, size: int):
        offset = rules.next_offset(self.used, cpu=False)
        return offset, offset + size <= rules.MAX_ARGS_BUFF_SIZE

    def appending(self, size: int) -> int:
        """The code an append of ``size`` bytes must return."""
        if self.finalized or self.got_buffer:
            return NOT_SUPPORTED
        if len(self.params) >= rules.MAX_PARAM_CNT or not self.next_offset(size)[1]:
            return INVALID
        return OK

    @rule()
    def init_again(self):
        handle, ret = self.acl.rt.kernel_args_init(self.func)
        assert (handle, ret) == (self.handle, OK)
        self.fresh()

    @rule(data=payloads)
    def append(self, data):
        ptr = self.host(data)
        code, before = self.appending(len(data)), self.state()
        param, ret = self.acl.rt.kernel_args_append(self.handle, ptr, len(data))
        self.expect(ret, code, before)
        if code == OK:
            offset, _ = self.next_offset(len(data))
            self.params.append([param, offset, data])
            self.used = offset + len(data)

    @rule(data=payloads)
    def append_many(self, data):
        """Reaches the 128-parameter limit within a short sequence."""
        for _ in range(rules.MAX_PARAM_CNT + 2):
            self.append(data)

    @rule()
    def append_place_holder(self):
        code, before = self.appending(rules.PLACE_HOLDER_BYTES), self.state()
        param, ret = self.acl.rt.kernel_args_append_place_holder(self.handle)
        self.expect(ret, code, before)
        if code == OK:
            offset, _ = self.next_offset(rules.PLACE_HOLDER_BYTES)
            self.params.append([param, offset, None])
            self.used = offset + rules.PLACE_HOLDER_BYTES

    @rule(pick=st.integers(0, 200), size=st.sampled_from([1, 8, 100, 4096, 40000]),
          fill=st.integers(0, 255))
    def place_holder_buffer(self, pick, size, fill):
        if not self.params:
            return
        param, _offset, data = self.params[pick % len(self.params)]
        offset, fits = self.next_offset(size)
        code = INVALID if data is not None else NOT_SUPPORTED if self.finalized else \
            OK if fits else INVALID
        before = self.state()
        ptr, ret = self.acl.rt.kernel_args_get_place_holder_buffer(self.handle, param, size)
        self.expect(ret, code, before)
        if code == OK:
            args = SESSION.simulator.rt.kernel_args.lists[self.handle]
            assert ptr == args.buffer.ptr + args.at + offset
            assert self.acl.rt.memset(ptr, size, fill, size) == 0
            self.got_buffer, self.used = True, offset + size

    @rule(pick=st.integers(0, 200), data=payloads)
    def para_update(self, pick, data):
        if not self.params:
            return
        entry = self.params[pick % len(self.params)]
        code = OK if entry[2] is not None and len(entry[2]) == len(data) else INVALID
        ptr = self.host(data)
        before = self.state()
        ret = self.acl.rt.kernel_args_para_update(self.handle, entry[0], ptr, len(data))
        self.expect(ret, code, before)
        if code == OK:
            entry[2] = data
            self.updating = True

    @rule()
    def finalize(self):
        assert self.acl.rt.kernel_args_finalize(self.handle) == OK
        self.finalized, self.updating = True, False

    @rule()
    def launch(self):
        code = NOT_SUPPORTED if self.finalized and not self.updating else INVALID
        before = self.state()
        ret = self.acl.rt.launch_kernel_with_config(self.func, 8, self.stream, [],
                                                    self.handle, 0)
        self.expect(ret, code, before)

    @invariant()
    def the_list_holds_what_was_appended(self):
        if not hasattr(self, "handle"):
            return
        row, = acl_lab.snapshot()["kernel_args"]
        assert (row["params"], row["bytes"], row["finalized"]) == \
            (len(self.params), self.used, self.finalized)
        memory = self.list_bytes()
        for _param, offset, data in self.params:
            assert offset % rules.ALIGN_AICORE == 0
            if data is not None:
                assert memory[offset:offset + len(data)] == data

    def teardown(self):
        acl_lab.reset()


ArgumentLists.TestCase.settings = settings(max_examples=40, stateful_step_count=30,
                                           deadline=None)
TestArgumentLists = ArgumentLists.TestCase

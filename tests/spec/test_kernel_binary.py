"""spec/kernel_binary.py reads bytes a learner hands the runtime: a kernel object finds its
kernels, and any other bytes — random, truncated, corrupted, built to make the reader loop —
end in BinaryError quickly, never another exception."""
import struct
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acl_lab.spec.kernel_binary import MAX_NAME, BinaryError, kernel_symbols
from kernelhelpers import elf_object

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
OBJECT = elf_object(["add_custom", "mul_custom"], hidden=["helper"], local=["inner"],
                    data=["table"])


def read(data: bytes):
    """kernel_symbols' answer, or None when it refused with BinaryError."""
    try:
        return kernel_symbols(data)
    except BinaryError as e:
        assert str(e)
        return None


@pytest.mark.parametrize("big_endian", [False, True])
def test_the_kernels_are_the_global_visible_functions(big_endian):
    found = kernel_symbols(elf_object(["add_custom", "mul_custom"], hidden=["helper"],
                                      local=["inner"], data=["table"], big_endian=big_endian))
    assert found == {"add_custom": 0, "mul_custom": 0x100}


@pytest.mark.parametrize("data, words", [
    (b"", "magic"), (b"MZ" + bytes(100), "magic"),
    (elf_object(bits=32), "32-bit"), (elf_object(kernels=(), local=["x"]), "no kernel"),
    (OBJECT[:len(OBJECT) - 10], "section header")])
def test_what_is_not_a_kernel_object_is_refused_with_the_reason(data, words):
    with pytest.raises(BinaryError, match=words):
        kernel_symbols(data)


@SETTINGS
@given(st.binary(max_size=512))
def test_random_bytes_are_refused_or_read(data):
    read(data)
    read(b"\x7fELF\x02\x01" + data)


@SETTINGS
@given(st.integers(0, len(OBJECT) - 1))
def test_every_truncation_is_refused(cut):
    assert read(OBJECT[:cut]) is None


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(OBJECT) - 1), st.integers(0, 255)),
                min_size=1, max_size=12))
def test_corrupted_objects_are_refused_or_read(changes):
    data = bytearray(OBJECT)
    for at, value in changes:
        data[at] = value
    found = read(bytes(data))
    assert found is None or all(isinstance(k, str) and len(k) <= MAX_NAME for k in found)


def test_many_tables_over_the_same_symbols_stay_cheap():
    """65,535 section headers, each a symbol table over the same 1 MiB of symbols: a reader
    without a total budget would visit billions of entries."""
    symbols = bytes(24) + struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0, 0) * (1 << 16)
    strings = b"\0" + b"k" * (1 << 16)      # one name with no end
    body = symbols + strings
    shoff = 64 + len(body)
    table = struct.pack("<IIQQQQIIQQ", 0, 2, 0, 0, 64, len(symbols), 0, 0, 8, 24)
    strtab = struct.pack("<IIQQQQIIQQ", 0, 3, 0, 0, 64 + len(symbols), len(strings), 0, 0,
                         1, 0)
    count = 0xFFFF
    header = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack(
        "<HHIQQQIHHHHHH", 1, 0x1029, 1, 0, 0, shoff, 0, 64, 0, 0, 64, count, 0)
    data = header + body + strtab + table * (count - 1)
    start = time.process_time()
    found = kernel_symbols(data)
    assert time.process_time() - start < 10
    assert list(found) == ["k" * MAX_NAME]

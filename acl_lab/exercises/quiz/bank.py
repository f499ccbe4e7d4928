"""The self-test questions of chapters 01–09, as data: text, choices, the right one, and why
each choice is right or wrong.

Every fact here is one the chapter teaches and the simulator shows (codes, sizes, rules); a
question tests understanding (what frees what, what a policy compares, what a capture
refuses) more than recall. English is the message id (``N_``); ``_()`` translates where
shown. A choice that is only code, a number or an error code is no message: it reads the
same in both languages. A question's id is its chapter and place ("05.q2"): progress stores it, so new
questions go at the end of their chapter. Text between backticks is code.
"""
from __future__ import annotations

from dataclasses import dataclass

from acl_lab.i18n import N_


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    choices: tuple[str, ...]
    explanations: tuple[str, ...]   # one per choice: why it is right or wrong
    answer: int                     # index of the right choice


BANK: dict[str, list[Question]] = {}


def ask(chapter: str, text: str, answer: int, *choices: tuple[str, str]) -> None:
    """Add a question to ``chapter``: ``choices`` are (choice, explanation) pairs."""
    questions = BANK.setdefault(chapter, [])
    questions.append(Question(f"{chapter}.q{len(questions) + 1}", text,
                              tuple(c for c, _ in choices), tuple(e for _, e in choices),
                              answer))


# 01 · Resource management
ask("01", N_("What does the first `acl.rt.set_device(0)` of a thread create?"), 0,
    (N_("Device 0's default context, made current for the thread, and its default stream"),
     N_("set_device creates both implicitly: the default context becomes current, and its "
        "default stream is the one you name with 0 (NULL in C). Only reset_device releases "
        "them.")),
    (N_("Nothing: contexts and streams come only from create_context and create_stream"),
     N_("Those create extra ones. The default context and the default stream come with "
        "set_device.")),
    (N_("The default stream only; a context needs create_context"),
     N_("The default context is created too and made current; without it, create_stream "
        "would fail with 107002.")))
ask("01", N_("The main thread called `set_device(0)`. A worker thread then calls "
             "`acl.rt.create_stream()`. What does the worker get?"), 1,
    (N_("A stream on device 0: the process already has a current context"),
     N_("The current context belongs to a thread, not to the process. A new thread starts "
        "with none.")),
    (N_("ACL_ERROR_RT_CONTEXT_NULL (107002): the worker has no current context"),
     N_("The current context is per thread: the worker calls acl.rt.set_context(ctx) (or "
        "set_device) first.")),
    ("ACL_ERROR_REPEAT_INITIALIZE (100002)",
     N_("That code answers a second acl.init() in the process; the worker called no "
        "init.")))
ask("01", N_("Three `_async` tasks are issued on a stream, and the host reads the result "
             "right away, without synchronizing. What does it see in the simulator?"), 1,
    (N_("The result of all three tasks: an async call runs before it returns"),
     N_("An _async call only issues a task and returns at once; ret 0 means accepted, not "
        "done.")),
    (N_("The old bytes: queued work runs when something waits for it"),
     N_("The simulator runs a stream's tasks when you synchronize (stream, event or "
        "device). On hardware small tasks often finish in time, so the missing synchronize "
        "hides until the machine is busy.")),
    (N_("The results of the tasks, in a random order"),
     N_("A stream runs its tasks in issue order. The bug is reading too early, not the "
        "order.")))
ask("01", N_("`set_device(0)` was called twice. What does the first `reset_device(0)` do?"),
    1,
    (N_("Closes device 0 and releases its default context and stream"),
     N_("set_device is reference-counted: one reset removes one reference, and the device "
        "closes when the count is back to zero.")),
    (N_("Removes one reference; device 0 stays open until a second reset_device(0)"),
     N_("Each reset_device matches one set_device. Code that sets a device from several "
        "places resets it as many times.")),
    (N_("Fails with 507007 because the device is still in use"),
     N_("507007 answers a reset without a matching set_device (one reset too many). Here "
        "two sets are matched by two resets.")))
ask("01", N_("In which order does a program release its resources?"), 2,
    (N_("finalize, then reset_device, then destroy the streams"),
     N_("The process and the device go first there; after them the streams are already "
        "gone, and destroy_stream has nothing left to destroy.")),
    (N_("reset_device first: it releases everything on the device anyway"),
     N_("It does, but then the runtime is cleaning up after you; the simulator reports "
        "each leaked stream and allocation in snapshot()[\"reports\"].")),
    (N_("Events and streams, then memory, then reset_device, then finalize"),
     N_("Reverse order of creation: the users first, then what they use, the device, and "
        "the process last.")))

ask("01", N_("A second `acl.init()` in the same process returns 100002. What should the "
             "program do?"), 0,
    (N_("Treat it as harmless: AscendCL is initialised once per process and stays so"),
     N_("ACL_ERROR_REPEAT_INITIALIZE changes nothing; the tutorial's C code accepts it as "
        "success. Better still, call init once.")),
    (N_("Call acl.finalize() and then acl.init() again"),
     N_("That tears the process's AscendCL state down for nothing; the first init is still "
        "in force.")),
    (N_("Reset every device: the runtime is now in a broken state"),
     N_("The repeated call failed without changing any state.")))

ask("01", N_("With device 1 current, a program calls `acl.rt.memset_async(buf, 64, 0, 64, s0)` "
             "on a stream `s0` it created while device 0 was current. What happens?"), 2,
    (N_("The task runs on device 0, which owns s0"),
     N_("The runtime does not switch devices for you: the stream must belong to the current "
        "context.")),
    (N_("The task runs on device 1"),
     N_("A stream belongs to the device and context it was created in.")),
    ("ACL_ERROR_RT_STREAM_CONTEXT (107003)",
     N_("The stream is not in the current context (the runtime FAQ on aclrtMemcpyAsync "
        "failing on the wrong stream): set device 0 again, or use a stream of device 1.")))
ask("01", N_("With device 0 current, `acl.rt.device_enable_peer_access(1, 0)` returns 0. "
             "What is now enabled?"), 0,
    (N_("Device 0 reaching device 1's memory, one way"),
     N_("Enabling is one way, from the current device to the peer (the API reference); the "
        "runtime FAQ enables both directions.")),
    (N_("Both directions between devices 0 and 1"),
     N_("Device 1 to device 0 needs its own call, with device 1 current.")),
    (N_("Device 1 reaching device 0's memory"),
     N_("The current device is the one that gains access to the peer.")))
ask("01", N_("`aclrtSetDevice(0)` returns 507033 (ACL_ERROR_RT_DEV_SETUP_ERROR). What is the "
             "usual cause?"), 1,
    (N_("The device id is out of range"),
     N_("That is 107001 (ACL_ERROR_RT_INVALID_DEVICEID).")),
    (N_("The device could not get the memory the runtime needs for this process: other "
        "processes hold it"),
     N_("Field logs show EL0004 \"Failed to allocate memory\" under it: look at npu-smi info "
        "before suspecting the hardware.")),
    (N_("aclInit was not called"),
     N_("aclrtSetDevice does not check aclInit; a missing init is not this code.")))

# 02 · Host and device memory
ask("02", N_("Which call frees memory that `acl.rt.malloc_host` returned?"), 1,
    ("acl.rt.free",
     N_("Refused with 107000: aclrtFree frees only what aclrtMalloc (or its relatives) "
        "returned.")),
    ("acl.rt.free_host",
     N_("The pair is strict: aclrtMallocHost memory is freed by aclrtFreeHost, and "
        "aclrtFreeHost frees only aclrtMallocHost memory.")),
    (N_("Either one: both give memory back"),
     N_("The runtime checks the pairing and refuses the wrong partner with 107000.")),
    ("acl.media.dvpp_free",
     N_("dvpp_free is the partner of dvpp_malloc (media-processing buffers) only.")))
ask("02", N_("Under ACL_MEM_MALLOC_HUGE_FIRST, what decides between normal and huge pages?"),
    1,
    (N_("The size you asked for: above 1 MiB, huge pages"),
     N_("The runtime pads first and compares the padded size: a request of 1 MiB − 31 B is "
        "below 1 MiB, yet it pads to 1 MiB + 32 B and lands in huge pages.")),
    (N_("The padded size ALIGN_UP(size, 32) + 32: above 1 MiB, huge pages (falling back to "
        "normal); otherwise normal pages"),
     N_("aclrtMalloc pads the size and the driver compares the padded size with 1 MiB; 1 MiB "
        "− 32 B pads to exactly 1 MiB and stays in normal pages.")),
    (N_("Nothing: HUGE_FIRST always tries huge pages first"),
     N_("A block whose padded size is at most 1 MiB goes to normal pages even under "
        "HUGE_FIRST: 1000 B took 1056 B of normal pages.")))
ask("02", N_("How many bytes does `acl.rt.malloc(100, ACL_MEM_MALLOC_HUGE_FIRST)` take from "
             "the device's memory?"), 2,
    ("100",
     N_("aclrtMalloc rounds the size up to a multiple of 32 and adds 32 bytes.")),
    ("128",
     N_("ALIGN_UP(100, 32) = 128 is what aclrtMallocAlign32 takes; aclrtMalloc adds 32 "
        "more.")),
    ("160",
     N_("ALIGN_UP(100, 32) + 32 = 128 + 32 = 160 bytes.")),
    ("192",
     N_("192 = ALIGN_UP(160, 64) is the distance to the next block's start (starts are "
        "64-byte aligned), not what this block takes.")))
ask("02", N_("Huge pages are almost used up. What does `acl.rt.malloc(512 * MiB, "
             "ACL_MEM_MALLOC_HUGE_ONLY)` return when they cannot hold the block?"), 1,
    (N_("A block of normal pages: the runtime falls back"),
     N_("Falling back is what HUGE_FIRST does. HUGE_ONLY never falls back.")),
    ("ACL_ERROR_RT_MEMORY_ALLOCATION (207001)",
     N_("Out of memory for this policy: free memory, ask for less, or use HUGE_FIRST, "
        "which may fall back to normal pages.")),
    ("ACL_ERROR_RT_PARAM_INVALID (107000)",
     N_("107000 is for misused pointers (wrong partner, double free, interior pointer); "
        "running out of pages is 207001.")))
ask("02", N_("What do the bytes of a block fresh from `acl.rt.malloc` hold?"), 1,
    (N_("Zeros"),
     N_("Nothing clears new memory for you; reading it before writing shows whatever was "
        "there.")),
    (N_("Garbage, until you memset it or copy into it"),
     N_("Fresh memory holds what its last user left; the simulator fills it with a fixed "
        "pseudo-random pattern, the same on every run.")),
    (N_("The guard value 0xFD"),
     N_("0xFD is what acl_lab's MemoryPool writes into the padding of its segments "
        "(chapter 05), not what malloc returns.")))

ask("02", N_("How much huge-page memory of the device does `acl.rt.malloc(1024, "
             "ACL_MEM_MALLOC_HUGE_ONLY)` occupy?"), 2,
    ("1024",
     N_("The runtime pads the size first, and huge pages are taken whole.")),
    ("1088",
     N_("ALIGN_UP(1024, 32) + 32 = 1088 is what it asks for; on huge pages it occupies whole "
        "pages.")),
    ("2097152",
     N_("A whole 2 MiB huge page (the runtime FAQ: 1 KB with HUGE_ONLY \"actually occupies "
        "2MB\"): keep small blocks on normal pages.")))

# 03 · memset and memcpy
ask("03", N_("`acl.rt.memcpy(dst, dest_max, src, count, kind)` with `count > dest_max`: what "
             "happens?"), 2,
    (N_("It copies dest_max bytes and drops the rest"),
     N_("The runtime does not truncate: it refuses the call and copies nothing.")),
    (N_("It copies count bytes, past the end of dst"),
     N_("Catching exactly that overrun is what destMax is for.")),
    (N_("Refused with ACL_ERROR_RT_PARAM_INVALID (107000); nothing is copied"),
     N_("memcpy, memcpy_async, memset and memset_async all refuse count > destMax.")))
ask("03", N_("A host→device copy is declared ACL_MEMCPY_DEVICE_TO_HOST. What does "
             "`acl.rt.memcpy` do?"), 1,
    (N_("Refuses it with 107000: the kind contradicts the addresses"),
     N_("A valid kind that contradicts the addresses is not refused; only a value outside "
        "the enum is (100000).")),
    (N_("Copies by the addresses and returns 0; the wrong kind only misleads"),
     N_("The addresses decide where the bytes go. Pass the true kind (or "
        "ACL_MEMCPY_DEFAULT) anyway: for readers, and for CANN versions that check it.")),
    (N_("Copies in the direction the kind names, device to host"),
     N_("The runtime knows where both addresses live and copies by them.")))
ask("03", N_("`memcpy_async` from a numpy array (pageable memory) to the device: what "
             "happens?"), 0,
    (N_("The call returns only when the copy is done, and the copy is slower"),
     N_("Pageable memory is staged through a pinned bounce buffer (slower), and the async "
        "copy becomes \"synchronize the stream, then copy now\". Use malloc_host buffers "
        "for truly asynchronous copies.")),
    (N_("It is queued like any async copy, at the same speed"),
     N_("Only pinned memory (malloc_host) lets the copy engine work on its own; the 910b "
        "profile models 25 GB/s pinned, 10 GB/s pageable.")),
    (N_("It is refused: async copies take pinned memory only"),
     N_("Outside a capture it is accepted, it just runs synchronously. (Inside a capture "
        "it is refused with 107027, chapter 06.)")))
ask("03", N_("`acl.rt.memcpy_async(host + 32, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, "
             "stream)`, with host from malloc_host and dev from malloc: what does it "
             "return?"), 1,
    (N_("0: async copies may start anywhere"),
     N_("The tutorial requires 64-byte aligned source and destination for async copies; "
        "the copy engine relies on it.")),
    ("ACL_ERROR_RT_ADDR_UNALIGNED (107008)",
     N_("host + 32 is not 64-byte aligned. Keep offsets into a buffer multiples of 64; the "
        "synchronous memcpy has no such requirement.")),
    ("ACL_ERROR_INVALID_PARAM (100000)",
     N_("100000 is for a NULL pointer or a value outside an enum; misalignment has its own "
        "code.")))
ask("03", N_("After `memcpy_async(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, stream)` "
             "returned 0, when may the host overwrite `host`?"), 2,
    (N_("At once: ret 0 means the bytes were copied"),
     N_("ret 0 means the copy was accepted. Overwrite the source now and the queued copy "
        "sends the new bytes.")),
    (N_("Never: the stream owns the buffer from now on"),
     N_("The buffer is yours again once the copy has run.")),
    (N_("After synchronizing the stream (or an event recorded after the copy)"),
     N_("Wait for the stream before you read the destination and before you overwrite the "
        "source.")))

ask("03", N_("What does `acl.rt.memset(host, n, 0x1234, 4)` write into the first 4 bytes?"),
    1,
    (N_("0x1234 as a 32-bit number"),
     N_("memset writes one byte value into each byte, as C's memset does.")),
    (N_("0x34 (52) in each byte"),
     N_("Only the low 8 bits of value count: 0x1234 & 0xFF = 0x34.")),
    (N_("Nothing: the call is refused because the value is above 255"),
     N_("The value is not checked against 255; its low byte is used.")))

# 04 · Memory info and run mode
ask("04", N_("On a 310 (DDR only), what does `acl.rt.get_mem_info(ACL_HBM_MEM)` return?"),
    1,
    ("ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)",
     N_("207000 is for 1 GiB-page attributes the chip lacks; HBM attributes are not "
        "rejected.")),
    (N_("The DDR figures, with ret 0"),
     N_("A DDR-only chip maps the HBM attributes to DDR, so a program can ask ACL_HBM_MEM on "
        "both chips.")),
    (N_("0 free of 0 total"),
     N_("The runtime maps the attribute to the memory the chip has; it does not answer "
        "with zeros.")))
ask("04", N_("What does `get_mem_info(ACL_HBM_MEM_HUGE1G)` return on a chip without 1 GiB "
             "pages?"), 0,
    ("ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)",
     N_("The runtime's source refuses the 1 GiB attributes on a chip without 1 GiB pages "
        "(CheckIfSupport1GHugePage; the docs promise free = total = 0): treat 207000 as \"not "
        "on this chip\", not as a failure of the program.")),
    ("ACL_ERROR_RT_INVALID_MEMORY_TYPE (107016)",
     N_("107016 is for an attribute outside aclrtMemAttr (0–17); HUGE1G is a valid "
        "attribute.")),
    ("ACL_ERROR_RT_CONTEXT_NULL (107002)",
     N_("That code means the thread has no current context; it says nothing about "
        "pages.")))
ask("04", N_("On a 910B with plenty of free memory, where does `acl.rt.malloc(3 * MiB, "
             "ACL_MEM_MALLOC_HUGE_FIRST)` land?"), 0,
    (N_("HBM huge pages"),
     N_("HBM is used first, and the padded size (3 MiB + 32 B) is above 1 MiB, so huge "
        "pages.")),
    (N_("DDR huge pages"),
     N_("DDR is used only when HBM cannot hold the block (or a low-bandwidth flag asks for "
        "it).")),
    (N_("HBM normal pages"),
     N_("Normal pages take padded sizes up to 1 MiB under HUGE_FIRST; 3 MiB goes to huge "
        "pages.")))
ask("04", N_("What does `acl.rt.malloc_host(256)` return in run mode ACL_DEVICE (a board "
             "such as the Atlas 200 DK)?"), 1,
    (N_("Pinned host memory, as on a server"),
     N_("In ACL_DEVICE mode there is no host side: the program runs on the device's "
        "CPU.")),
    (N_("Device memory, which the code reads and writes directly"),
     N_("The device's DDR free figure drops; no host→device copy is needed.")),
    (N_("An error: there is no host memory"),
     N_("aclrtMallocHost still works on the board; what it returns is device memory.")))
ask("04", N_("A program must run on servers and on boards. How does it choose the kind of "
             "its upload copy?"), 2,
    (N_("Always ACL_MEMCPY_HOST_TO_DEVICE"),
     N_("On a board both pointers are device memory: the runtime copies by the addresses "
        "and returns 0, so the code claims a transfer that never happens, and a CANN "
        "version that checks the kind refuses it.")),
    (N_("From acl.get_soc_name()"),
     N_("A 310 card and a 200 DK-class board carry the same SoC (Ascend310); only the run "
        "mode tells them apart.")),
    (N_("From acl.rt.get_run_mode(): HOST_TO_DEVICE under ACL_HOST, DEVICE_TO_DEVICE (or no "
        "copy) under ACL_DEVICE"),
     N_("The pyACL samples branch on the run mode once, as the tutorial's g_isDevice "
        "does.")))

ask("04", N_("On a 310 (no P2P memory), what does `acl.rt.get_mem_info(ACL_MEM_P2P_NORMAL)` "
             "return?"), 0,
    (N_("0 free of 0 total, with ret 0"),
     N_("An attribute the chip lacks answers free = total = 0 (the aclrtGetMemInfo "
        "constraints).")),
    ("ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)",
     N_("Only the 1 GiB-page attributes are refused with 207000.")),
    ("ACL_ERROR_RT_INVALID_MEMORY_TYPE (107016)",
     N_("107016 is for a value outside aclrtMemAttr.")))
ask("04", N_("On a 910B, `acl.rt.malloc(100, ACL_MEM_MALLOC_HUGE_FIRST | "
             "ACL_MEM_TYPE_LOW_BAND_WIDTH)`: where do the bytes land?"), 1,
    (N_("In DDR: the flag asks for low-bandwidth memory"),
     N_("The API reference allows OR-ing the bandwidth flags only on IPV350; aclMallocMemInner "
        "compares the policy with each enum value.")),
    (N_("In HBM's normal pages: an OR-ed value is no policy, and gets the default"),
     N_("The value matches no policy, so the runtime uses the default flags: HUGE_FIRST, HBM "
        "first; 100 bytes pad to 160 on normal pages.")),
    ("ACL_ERROR_INVALID_PARAM (100000)",
     N_("The value is not refused; it silently becomes the default policy.")))

# 05 · Memory pool and alignment
ask("05", N_("A segment of len = 100 bytes in a pool of runtime memory: how much does it "
             "take, and where may it start?"), 1,
    (N_("100 bytes, anywhere after the previous segment"),
     N_("Packed back to back, the second buffer starts at block + 100 (% 64 = 36), and "
        "an async copy to it fails with 107008.")),
    (N_("ALIGN_UP(100, 32) + 32 = 160 bytes, at a multiple of 64"),
     N_("The seed's rule for runtime memory: m = ALIGN_UP(len, 32) + 32, start 64-byte "
        "aligned, as aclrtMalloc itself does.")),
    (N_("ALIGN_UP(100, 64) = 128 bytes, at a multiple of 32"),
     N_("The size rounds to 32 and adds 32; the start aligns to 64.")),
    (N_("160 bytes, at a multiple of 128"),
     N_("128-byte starts are the media (DVPP) rule; runtime memory needs 64.")))
ask("05", N_("Segments of 100 and 40 bytes are cut from offset 0 of a 64-byte aligned block "
             "(runtime rule). Where does the second one start?"), 2,
    ("100",
     N_("The first segment takes m = 160 bytes, not 100.")),
    ("160",
     N_("160 is where the first segment ends, but 160 is not a multiple of 64.")),
    ("192",
     N_("ALIGN_UP(0 + 160, 64) = 192: the first multiple of 64 at or after the end of the "
        "first segment.")),
    ("256",
     N_("256 = ALIGN_UP(160, 128) is where the dvpp rule would put it.")))
ask("05", N_("Which allocator does the seed advise for the one large block you divide "
             "yourself?"), 1,
    ("aclrtMalloc",
     N_("It adds 32 bytes to the block that no segment can use (1056 B for a 1000 B "
        "pool).")),
    ("aclrtMallocAlign32",
     N_("It rounds to 32 without the extra 32 bytes; the pool adds its own padding per "
        "segment.")),
    ("acldvppMalloc",
     N_("That is for media-processing buffers; it also adds 32 bytes.")))
ask("05", N_("A pool holds both runtime buffers and media (DVPP) buffers. Which start "
             "alignment does the seed recommend for all of them?"), 2,
    (N_("32 bytes"),
     N_("32 is the size rounding, not a start alignment any consumer accepts.")),
    (N_("64 bytes"),
     N_("Enough for runtime buffers, but media buffers need 128.")),
    (N_("128 bytes, the larger value"),
     N_("Aligning everything to the larger value keeps management uniform; the skips cost "
        "some space.")))
ask("05", N_("A pool has 512 free bytes in two separate blocks of 256. What does "
             "`pool.alloc(300)` do?"), 1,
    (N_("Succeeds: 512 bytes are free"),
     N_("A segment must fit in one free block, and this one needs m = ALIGN_UP(300, 32) + "
        "32 = 352 bytes.")),
    (N_("Fails with 207001: no single free block holds the segment"),
     N_("That is fragmentation (here 1 − 256/512 = 0.5); allocate large, long-lived "
        "segments first.")),
    (N_("Moves the live segments together to make room"),
     N_("A pool cannot move segments: the program holds their addresses.")))

# 06 · Capture (ACL Graph)
ask("06", N_("During a GLOBAL capture on stream s, what does `acl.rt.synchronize_stream(s)` "
             "do?"), 1,
    (N_("Waits for the recorded tasks and returns 0"),
     N_("Recorded tasks do not run during capture, so there is nothing to wait for.")),
    (N_("Returns ACL_ERROR_RT_STREAM_CAPTURED (107027); the capture stays active"),
     N_("Synchronizing or querying the capturing stream, its device or context is refused, "
        "and the capture carries on.")),
    (N_("Returns 107030, the code of forbidden calls in GLOBAL mode"),
     N_("107030 is for synchronous memset/memcpy under GLOBAL; synchronizing is "
        "107027.")),
    (N_("Invalidates the capture: capture end returns 507903"),
     N_("The runtime keeps the capture ACTIVE (the seed and the FAQ say such calls fail it: "
        "rely on neither). A capture is invalidated when recording, waiting on or resetting a "
        "captured event fails, or a task cannot be allocated for it.")))
ask("06", N_("In the seed's sample, why does the thread switch itself to RELAXED around the "
             "synchronous `memcpy` of `other_d`?"), 0,
    (N_("In GLOBAL mode a synchronous memcpy is refused (107030); in RELAXED it runs once, "
        "now, and is not recorded"),
     N_("other_d needs filling only once, so the copy belongs outside the model; exchange "
        "the mode back afterwards.")),
    (N_("To record the memcpy into the model"),
     N_("A synchronous call is never recorded: the model holds three tasks, copy in, Add, "
        "copy out.")),
    (N_("Because RELAXED replays run faster"),
     N_("The mode decides which calls the capture refuses, not how fast a replay runs.")))
ask("06", N_("A captured model copies into `buf`. `buf` is freed before "
             "`aclmdlRIDestroy`, and the model is replayed. What happens?"), 2,
    (N_("The replay allocates buf again"),
     N_("A model allocates nothing: it keeps the raw addresses it recorded.")),
    (N_("Nothing: the model copied buf's bytes at capture time"),
     N_("The model keeps addresses, not bytes; each replay touches the memory again.")),
    (N_("The simulator refuses the replay (507011); hardware may write into whoever owns "
        "that memory now"),
     N_("Resources must outlive the model: free buffers only after aclmdlRIDestroy.")))
ask("06", N_("Which mistake during a capture invalidates it, so that capture end returns "
             "507903 and no model?"), 2,
    (N_("synchronize_stream on the capturing stream (107027)"),
     N_("The call is refused; the capture stays ACTIVE and records on.")),
    (N_("Recording an aclrtCreateEvent event into the capture (207000)"),
     N_("The event is checked before any capture handling: nothing is recorded and the "
        "capture stays ACTIVE.")),
    (N_("A captured event that links two different captures (107032)"),
     N_("That failure happens while recording, so the runtime terminates both captures, the "
        "event's and the stream's (TerminateCapture): they become INVALIDATED.")),
    (N_("An async task on the default stream (107031)"),
     N_("The task is refused (use a stream you created); the capture stays ACTIVE.")))
ask("06", N_("Why is one replay of 32 captured Adds cheaper than issuing the 32 Adds "
             "eagerly?"), 0,
    (N_("The host pays one launch for the whole model instead of one per task"),
     N_("Eager: about 5 µs of host launch per Add, and the stream waits for each launch. "
        "Replay: one launch, then the recorded tasks back to back.")),
    (N_("The device runs an Add faster inside a model"),
     N_("Each recorded task runs at its own cost plus a small replay cost.")),
    (N_("A replay skips the Adds whose inputs did not change"),
     N_("A replay runs every recorded task, with the same addresses, every time.")))

ask("06", N_("During a GLOBAL capture on s, what does `acl.rt.memcpy_async(buf, 64, "
             "acl.util.numpy_to_ptr(array), 64, ACL_MEMCPY_HOST_TO_DEVICE, s)` return?"), 0,
    ("ACL_ERROR_RT_PARAM_INVALID (107000)",
     N_("The runtime runs an async copy with pageable memory as \"synchronize, then copy\", "
        "which no capture can record: \"The pageable memory copy task does not support graph "
        "capture\" (ApiErrorDecorator::MemcpyAsync).")),
    ("ACL_ERROR_RT_STREAM_CAPTURED (107027)",
     N_("107027 answers a synchronize of the capturing stream, not this copy.")),
    ("ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC (107041)",
     N_("107041 is for the same copy on a stream that is not capturing, while a GLOBAL capture "
        "is on.")))

# 07 · Capstone
ask("07", N_("The copy stream uploads x, and the compute stream multiplies x at once, with "
             "nothing between them. What does the multiply read?"), 1,
    (N_("The uploaded x: a stream waits for copies of the buffers it reads"),
     N_("The runtime does not track which buffers tasks read: streams are unordered until "
        "you order them.")),
    (N_("Possibly the old x: the two streams are not ordered"),
     N_("In the capstone y came out zero; on hardware it is a race, right or wrong by "
        "timing.")),
    (N_("Nothing: the multiply is refused with 107000"),
     N_("Both calls are legal; the bug is only in the order.")))
ask("07", N_("How does the compute stream wait for the upload without blocking the host?"), 0,
    (N_("record_event(uploaded, copy_stream), then stream_wait_event(compute_stream, "
        "uploaded)"),
     N_("The event marks \"upload done\" on the copy stream; the compute stream's later "
        "tasks wait for that mark on the device.")),
    (N_("synchronize_stream(copy_stream) before issuing the multiply"),
     N_("That orders them too, but the host waits for the upload.")),
    (N_("record_event(uploaded, compute_stream), then stream_wait_event(copy_stream, "
        "uploaded)"),
     N_("That makes the copy stream wait for the compute stream: the reverse of what is "
        "needed.")))
ask("07", N_("The captured graph uses pool segments. When may they be freed?"), 1,
    (N_("After each replay has been synchronized"),
     N_("The next replay uses the same addresses again.")),
    (N_("After aclmdlRIDestroy(graph)"),
     N_("A segment a model uses must live as long as the model, as any buffer does.")),
    (N_("Any time: pool.close(force=True) frees them safely"),
     N_("A replay after that writes into memory someone else may own (the simulator "
        "refuses it with 507011).")))
ask("07", N_("In which order does the capstone release everything?"), 2,
    (N_("Pool block, segments, model, streams, device"),
     N_("Users go before what they use: the model uses the segments, which live in the "
        "pool's block.")),
    (N_("reset_device first, then the rest"),
     N_("After reset_device the handles are dead; the runtime released and reported what "
        "you left.")),
    (N_("Model, streams and events, aclnn objects, segments, pool block, pinned memory, "
        "reset_device, finalize"),
     N_("Reverse order of creation, users before what they use; the snapshot at the end "
        "proves nothing leaked.")))

ask("07", N_("In the capstone's pool of runtime memory, a segment for media processing "
             "(DVPP) is needed. How is it taken?"), 2,
    (N_("With acl.media.dvpp_malloc, outside the pool"),
     N_("That works, but costs a runtime call; the pool can give a segment with the media "
        "rule itself.")),
    (N_("With pool.alloc(n): runtime segments are 128-byte aligned anyway"),
     N_("Runtime segments start on multiples of 64, and a multiple of 64 is not always "
        "a multiple of 128.")),
    (N_("With pool.alloc(n, rule=\"dvpp\"): its start is a multiple of 128"),
     N_("A pool can mix rules per segment; the dvpp rule keeps m = ALIGN_UP(n, 32) + 32 and "
        "starts it on 128 bytes.")))

# 08 · Offline inference
ask("08", N_("A model was loaded with `acl.mdl.load_from_file`. Who frees its work and "
             "weight memory?"), 0,
    ("acl.mdl.unload",
     N_("ACL allocated them, so unloading frees them.")),
    (N_("You, with acl.rt.free, after unloading"),
     N_("acl.rt.free on that memory is refused with 107000: it is paired with "
        "aclmdlUnload.")),
    (N_("You, with acl.rt.free, before unloading"),
     N_("Freed before unloading, the model would lose memory it uses; and acl.rt.free "
        "refuses memory ACL allocated for a model.")))
ask("08", N_("A model was loaded with `load_from_file_with_mem` into work and weight "
             "memory you allocated. What does `acl.mdl.unload` free?"), 1,
    (N_("Everything, your work and weight memory included"),
     N_("Unload frees only what ACL allocated.")),
    (N_("Only what ACL allocated; your work and weight memory stay yours to free, after "
        "unloading"),
     N_("Unload first, then free your memory: a model must not outlive memory it "
        "uses.")),
    (N_("Nothing: a model loaded with your memory cannot be unloaded"),
     N_("It is unloaded like any other; only the memory stays.")))
ask("08", N_("`load_from_file_with_mem` gets 1 byte less work memory than "
             "`acl.mdl.query_size` reported. What happens?"), 0,
    (N_("ACL_ERROR_GE_PARAM_INVALID (145000); nothing is loaded"),
     N_("Too little memory is refused before anything is loaded: allocate what query_size "
        "says.")),
    (N_("The model loads, and execute fails later with 507011"),
     N_("The size is checked at load time.")),
    ("ACL_ERROR_RT_MEMORY_ALLOCATION (207001)",
     N_("Nothing is allocated here: the memory is yours, and it is too small.")))
ask("08", N_("The host reads the output right after `acl.mdl.execute_async(...)` returned "
             "0. What does it read?"), 1,
    (N_("The results: execute_async returns when they are in place"),
     N_("That is aclmdlExecute, the synchronous call.")),
    (N_("Not the results yet: the execution is only queued on the stream"),
     N_("Wait for the stream, or queue a callback after the execution that reads "
        "them.")),
    (N_("An error: outputs of async executions cannot be read"),
     N_("They can, once the stream has run the execution.")))
ask("08", N_("`acl.rt.launch_callback(fn, data, ACL_CALLBACK_BLOCK, stream)` on a stream no "
             "thread subscribed to: what happens?"), 2,
    (N_("fn runs on the main thread"),
     N_("A callback runs on the thread that subscribed to its stream and loops on "
        "process_report.")),
    ("ACL_ERROR_RT_THREAD_SUBSCRIBE (107012)",
     N_("107012 is for process_report on a thread with no subscription.")),
    ("ACL_ERROR_RT_STREAM_NO_CB_REG (107015)",
     N_("No thread would run it: call acl.rt.subscribe_report(thread_id, stream) "
        "first.")))
ask("08", N_("A program unloads the same model ID twice. What does the second "
             "`acl.mdl.unload` return?"), 1,
    (N_("0: unloading is idempotent"),
     N_("The ID no longer names a loaded model, and the runtime says so.")),
    ("ACL_ERROR_GE_EXEC_MODEL_ID_INVALID (145003)",
     N_("No loaded model has this ID any more: unload each model exactly once.")),
    ("ACL_ERROR_RT_MODEL_EXECUTE (507011)",
     N_("507011 is for executing a model whose memory was freed, not for unloading.")))

ask("08", N_("A blocking callback needs the output of the execution queued before it. Where "
             "does the copy of the output belong?"), 1,
    (N_("In the callback: acl.rt.memcpy from out_dev to host memory"),
     N_("A callback must not allocate, free, synchronize or submit tasks (aclrtLaunchCallback's "
        "constraints): a synchronous copy is a task, and it may fail or deadlock.")),
    (N_("On the stream, before the callback: acl.rt.memcpy_async into pinned host memory"),
     N_("The stream runs execution, copy and callback in order; the callback only reads host "
        "memory.")),
    (N_("After synchronize_stream, in the main thread"),
     N_("That works, but gives up what the callback was for: results in stream order without "
        "waiting.")))

# 09 · Media processing (DVPP)
ask("09", N_("JPEGD decodes a 200x150 JPEG into YUV420SP (NV12). How many bytes must the "
             "output buffer hold at least?"), 2,
    ("45000",
     N_("That is 200 x 150 x 3/2: the picture without padding. JPEGD writes rows of the "
        "width stride and as many rows as the height stride.")),
    ("38400",
     N_("That is 256 x 150: the Y plane of the width stride alone, without the height stride "
        "and without the UV plane.")),
    ("61440",
     N_("Width stride ALIGN_UP(200, 64) = 256 on the 910B (ALIGN_UP(200, 128) = 256 on a "
        "310 too), height stride ALIGN_UP(150, 16) = 160, and YUV420SP takes 3/2 bytes per "
        "place: 256 x 160 x 3/2 = 61440, what dvpp_jpeg_predict_dec_size returns.")))
ask("09", N_("The host copies a decoded picture (width 200, width stride 256) back and takes "
             "its first 200 x 150 bytes as the Y plane. What does it get?"), 1,
    (N_("The picture's Y plane: the padding comes after it"),
     N_("Padding ends every row, not the plane: row r starts at r x 256.")),
    (N_("A sheared picture: every row after the first starts 56 bytes too early"),
     N_("Rows lie a width stride (256 bytes) apart: reshape to (height stride, width "
        "stride), then slice [:height, :width].")),
    (N_("A failure code from acl.rt.memcpy"),
     N_("The copy has no idea what the bytes mean; it copies them, and the host misreads "
        "them.")))
ask("09", N_("A VPC output is described with width 100 and width stride 100. What happens?"),
    2,
    (N_("dvpp_vpc_resize_async returns 100000 at once"),
     N_("The call checks formats and configs on the host; the strides are the engine's to "
        "check, when the task runs.")),
    (N_("It works: the stride covers the row"),
     N_("VPC wants a width stride that is a multiple of 16: 112 for 100 pixels.")),
    (N_("The call returns 0, and synchronize_stream returns 507018: the engine refused the "
        "stride"),
     N_("DVPP tasks are checked on the device when they run, so the failure comes out of "
        "the synchronize, the output's ret code is set and no byte is written.")))
ask("09", N_("Where may the picture a DVPP engine reads or writes live?"), 0,
    (N_("In memory from acl.media.dvpp_malloc (or a pool over it), starting on 128 bytes"),
     N_("DVPP engines use their own memory: acldvppMalloc gives 128-byte aligned starts "
        "that the engines can reach.")),
    (N_("In any device memory from acl.rt.malloc"),
     N_("aclrtMalloc memory is not DVPP memory: the engine refuses it when the task "
        "runs.")),
    (N_("In pinned host memory from acl.rt.malloc_host"),
     N_("The engines read device memory; copy the JPEG into a dvpp_malloc buffer first.")))
ask("09", N_("`acl-lab run` reports an acldvppMalloc leak at aclrtResetDevice, one block per "
             "picture processed. What is the likely bug?"), 0,
    (N_("A buffer taken per picture (the JPEG's input buffer) is never given back with "
        "dvpp_free"),
     N_("One leaked block per picture means a per-picture allocation without its "
        "acl.media.dvpp_free.")),
    (N_("reset_device was called too early"),
     N_("reset_device releases what is left and says so; the leak is the missing free "
        "before it.")),
    (N_("The picture descriptions were destroyed before the buffers were freed"),
     N_("A description only points at the buffer; destroying it frees nothing, in any "
        "order.")))

from acl_lab.exercises.quiz import bank_ch10  # noqa: E402,F401  (chapter 10's questions)

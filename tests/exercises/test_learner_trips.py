"""What a learner tripped on, each held by a test that fails without its fix: a check that
passed a copy with the wrong kind (03.1), hints that named the kit's variable instead of the
learner's (05.3), a "not yet" that described the stream instead of what the learner did
(06.2), hints that escalated per failed run instead of per mistake, and hints that gave the
answer in words on the second try (01.3, 07.3)."""
import re

import pytest

import acl_lab
from acl_lab import exercises
from acl_lab.exercises import NotYet, exercise


def run(shell, source):
    result = shell.run_cell(source, store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    return result.result


@pytest.fixture
def learner(shell):
    run(shell, "import numpy as np\nimport acl_lab\nfrom acl_lab.constants import *\n"
               "from acl_lab import exercises\nacl = acl_lab.load()")
    return shell


ROUND_TRIP = ('data, dev_buf, result = exercises.start("03.1", acl)\n'
              'acl.rt.memcpy(dev_buf, data.nbytes, acl.util.numpy_to_ptr(data), data.nbytes, {k1})\n'
              'acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, dev_buf, data.nbytes, '
              '{k2})\nexercises.check("03.1", acl, dev_buf, result, data)')


@pytest.mark.parametrize("k1, k2, said", [
    ("ACL_MEMCPY_HOST_TO_DEVICE", "ACL_MEMCPY_HOST_TO_DEVICE", "ACL_MEMCPY_HOST_TO_DEVICE"),
    ("ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_DEVICE_TO_HOST"),
    ("ACL_MEMCPY_HOST_TO_HOST", "ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_HOST_TO_HOST"),
])
def test_a_round_trip_with_a_wrong_kind_is_not_yet_and_names_the_copy(learner, k1, k2, said):
    exercises.forget("03.1")
    result = run(learner, ROUND_TRIP.format(k1=k1, k2=k2))
    assert not result.passed, result.message
    assert said in result.message and "names the direction" in result.message
    seq = int(re.search(r"copy #(\d+)", result.message)[1])
    call = next(c for c in acl_lab.tracer().calls if c.seq == seq)   # the trace shows it
    assert call.name == "rt.memcpy" and said.endswith(
        {1: "HOST_TO_DEVICE", 2: "DEVICE_TO_HOST", 0: "HOST_TO_HOST"}[call.args[4]])


@pytest.mark.parametrize("k1, k2", [("ACL_MEMCPY_HOST_TO_DEVICE", "ACL_MEMCPY_DEVICE_TO_HOST"),
                                    ("ACL_MEMCPY_DEFAULT", "ACL_MEMCPY_DEFAULT")])
def test_a_round_trip_with_the_right_kinds_passes(learner, k1, k2):
    exercises.forget("03.1")
    assert run(learner, ROUND_TRIP.format(k1=k1, k2=k2)).passed


def test_the_overrun_hint_names_the_learners_pool(learner):
    exercises.forget("05.3")
    result = run(learner, 'mine = exercises.start("05.3", acl)\nculprit = "rgb"\n'
                          'exercises.check("05.3", mine, culprit)')
    assert not result.passed and "mine.check_guards()" in result.message, result.message
    assert "pool.check_guards()" not in result.message
    result = run(learner, 'suspects = exercises.start("05.3", acl)\n'
                          'exercises.check("05.3", suspects, "nobody")')
    assert "is not a live segment of suspects" in result.message, result.message


CAPTURE_CELL = 's, buf, pinned, pageable, ev = exercises.start("06.2", acl)\n{body}\n' \
               'exercises.check("06.2", codes)'


def test_a_guess_without_calls_is_told_no_call_was_made(learner):
    exercises.forget("06.2")
    result = run(learner, CAPTURE_CELL.format(body="codes = [0, 0, 0, 0, 0, 0]"))
    assert not result.passed
    assert "none of the six calls" in result.message and "codes" in result.message
    assert "was not capturing" not in result.message, result.message


def test_calls_before_the_capture_are_named(learner):
    exercises.forget("06.2")
    body = "codes = [acl.rt.synchronize_stream(s)] + [0] * 5"
    result = run(learner, CAPTURE_CELL.format(body=body))
    assert "acl.rt.synchronize_stream before any capture began" in result.message, result.message


def test_codes_that_are_not_what_the_calls_returned_are_named(learner):
    exercises.forget("06.2")
    body = ("acl.mdl.ri_capture_begin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)\n"
            "acl.rt.synchronize_stream(s)\ncodes = [107027, 0, 0, 0, 0, 0]\n"
            "acl.mdl.ri_capture_end(s)")
    result = run(learner, CAPTURE_CELL.format(body=body))
    assert "but your calls returned [107027]" in result.message, result.message


@pytest.fixture
def two_mistakes():
    """A throw-away exercise with two mistakes, each with its own three hints."""
    def answer(which: str):
        if which == "a":
            raise NotYet("A1", "A2", "A3")
        if which == "b":
            raise NotYet("B1", "B2", "B3")
        return "right"
    exercise("99.8", "two mistakes", "the nudge")(answer)
    exercises.forget("99.8")
    yield
    exercises.forget("99.8")
    del exercises._CHECKS["99.8"]


def test_the_same_mistake_goes_deeper_and_a_new_one_starts_at_its_first_hint(two_mistakes):
    seen = [exercises.check("99.8", which).message for which in "aabab"]
    assert seen[:3] == ["A1", "A2", "B1"]          # a new mistake on the third try: its first
    assert seen[3] == "A3" and seen[4] == "B2"
    again = exercises.check("99.8", "a").message   # A's hints ran out: the answer's place
    assert again.startswith("A3") and 'exercises.solution("99.8")' in again
    assert exercises.check("99.8", "right").passed
    assert exercises.check("99.8", "a").message == "A1"     # a pass starts over


def test_a_hint_is_as_long_as_the_mistake_deserves(learner):
    """Run the placeholder twice, then a new mistake: the new one gets its own short first
    hint, not the third level of the old one with the answer's place."""
    exercises.forget("06.2")
    for _ in range(2):
        run(learner, CAPTURE_CELL.format(body="codes = ...  # your code"))
    result = run(learner, CAPTURE_CELL.format(body="codes = [0, 0, 0, 0, 0, 0]"))
    assert "exercises.solution" not in result.message and len(result.message) < 200


def _words(text: str) -> list[str]:
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def _mentioned_at(call: str, words: list[str]) -> int | None:
    """Where ``call`` (snake_case) is named, as itself or in words ("destroy the event")."""
    parts = call.split("_")
    for i, w in enumerate(words):
        if w.startswith(parts[0]):
            j = i
            for part in parts[1:]:
                j = next((k for k in range(j + 1, min(j + 5, len(words)))
                          if words[k].startswith(part)), None)
                if j is None:
                    break
            if j is not None:
                return i
    return None


def answer_in_words(hint: str, solution: str) -> bool:
    """Does ``hint`` name every acl call of ``solution``, in the solution's order?"""
    calls = list(dict.fromkeys(re.findall(r"acl\.(?:\w+\.)*?(\w+)\(", solution)))
    at = [_mentioned_at(c, _words(hint)) for c in calls]
    return len(calls) >= 3 and None not in at and at == sorted(at)


def test_the_detector_sees_an_answer_in_words():
    solution = exercises._spec("01.3").solution
    assert answer_in_words("destroy the event, destroy the stream, free the buffer, reset "
                           "device 0, then finalize", solution)
    assert not answer_in_words("free, destroy the stream and the event, reset, finalize",
                               solution)


@pytest.mark.parametrize("exercise_id", ["01.3", "07.3"])
def test_the_first_two_hints_are_not_the_answer_in_words(exercise_id):
    """Nudge, then the rule on the learner's own objects; the calls in order only at the
    third level (and the code only through exercises.solution)."""
    spec = exercises._spec(exercise_id)
    assert len(spec.hints) >= 3
    for level, hint in enumerate(spec.hints[:2], 1):
        assert not answer_in_words(hint, spec.solution), (level, hint)


#: the solution's key tokens, as code or as the C name: a hint below the last may name some
#: (it points further), never all, and the first names none; the last names them all
KEY_TOKENS = {
    "08.1": (("query_size", "aclmdlQuerySize"),
             ("load_from_file_with_mem", "aclmdlLoadFromFileWithMem")),
    "09.3": (("dvpp_free", "acldvppFree"), ("dvpp_destroy_pic_desc", "acldvppDestroyPicDesc"),
             ("dvpp_destroy_channel(", "acldvppDestroyChannel("),
             ("dvpp_destroy_channel_desc", "acldvppDestroyChannelDesc")),
    "02.2": (("free_host", "aclrtFreeHost"), ("dvpp_free", "acldvppFree")),
    "05.2": (("align_up", "ALIGN_UP"), ("multiple of 64", "64 的倍数", "64的倍数"),
             ("memcpy_async", "aclrtMemcpyAsync"), ("synchronize_stream", "aclrtSynchronizeStream")),
}


def _named(hint: str, tokens) -> list[str]:
    return [forms[0] for forms in tokens if any(f in hint for f in forms)]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("exercise_id", sorted(KEY_TOKENS))
def test_no_hint_below_the_last_is_the_answer(exercise_id, language):
    """Each level points further; only the last says the answer (08.1, 09.3, 02.2 and 05.2
    said it at the first level), in both languages."""
    spec, tokens = exercises._spec(exercise_id), KEY_TOKENS[exercise_id]
    acl_lab.set_language(language)
    try:
        levels = [acl_lab.i18n._(h) for h in spec.hints]
    finally:
        acl_lab.set_language("en")
    assert len(levels) >= 3
    assert _named(levels[0], tokens) == [], levels[0]
    for level, hint in enumerate(levels[:-1], 1):
        assert len(_named(hint, tokens)) < len(tokens), (level, hint)
    assert len(_named(levels[-1], tokens)) == len(tokens), levels[-1]

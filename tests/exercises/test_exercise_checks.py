"""exercises.check: a wrong answer fails with a hint, a bug in a check does not hide behind
"not yet"."""
import importlib
import inspect
import sys

import numpy as np
import pytest

import acl_lab
from acl_lab import exercises
from acl_lab.exercises import _CHECKS, NotYet, exercise


@pytest.fixture
def registered():
    """Register throw-away checks under ids no chapter uses; remove them afterwards."""
    ids = []

    def register(exercise_id, fn, hint="the hint"):
        exercise(exercise_id, "a test check", hint)(fn)
        ids.append(exercise_id)

    yield register
    for i in ids:
        del _CHECKS[i]


def test_a_check_that_breaks_raises_instead_of_saying_not_yet(registered):
    def broken_key(answer: int):
        return {}["missing"]

    def broken_type(answer: int):
        return len(answer)

    registered("99.1", broken_key)
    registered("99.2", broken_type)
    with pytest.raises(KeyError):
        exercises.check("99.1", 3)
    with pytest.raises(TypeError):
        exercises.check("99.2", 3)


def test_a_wrong_answer_fails_with_the_hint(registered):
    def needs_an_int(answer: int):
        if answer != 3:
            raise NotYet("not three")
        return "three"

    registered("99.3", needs_an_int, hint="pass 3")
    assert exercises.check("99.3", 3).passed
    for wrong, says in ((..., "pass 3"), ("3", "answer should be an int, not str"),
                        (4, "not three")):
        result = exercises.check("99.3", wrong)
        assert not result.passed and says in result.message, result.message
    result = exercises.check("99.3", 3, 4)            # one argument too many
    assert not result.passed and "pass (answer)" in result.message


def test_an_error_in_the_learners_own_function_is_not_yet(registered):
    def calls_back(fn):
        return fn(1)

    cell = {}                      # a function typed in a notebook cell
    exec(compile("def learner(x):\n    return x / 0\n", "<ipython-input-1>", "exec"), cell)
    learner = cell["learner"]

    registered("99.4", calls_back, hint="fix your function")
    result = exercises.check("99.4", learner)
    assert not result.passed
    assert "your code raised ZeroDivisionError" in result.message
    assert "fix your function" in result.message


def test_a_check_that_breaks_inside_frozen_or_generated_code_still_raises(registered):
    """Frames without a file of their own (the import machinery, exec'd code) belong to the
    check that called them, not to the learner."""
    def imports_a_missing_module(answer: int):
        return importlib.import_module("acl_lab.no_such_module")

    def evaluates_a_bad_lookup(answer: int):
        return eval("{}['missing']")

    registered("99.5", imports_a_missing_module)
    registered("99.6", evaluates_a_bad_lookup)
    with pytest.raises(ModuleNotFoundError) as broken:
        exercises.check("99.5", 3)
    with pytest.raises(KeyError):
        exercises.check("99.6", 3)
    if sys.version_info >= (3, 11):     # exception notes
        assert any("check of exercise 99.5" in note and "bug in acl_lab" in note
                   for note in broken.value.__notes__)


#: Answers a learner might pass by mistake: wrong types, empty and odd containers, bad ints.
WRONG_ANSWERS = (None, "x", 1.5, -1, 0, 1 << 70, (1,), [], ["a"], [None], [1.5, "q"],
                 {}, {"a": None}, {"x": (1, 2)}, np.zeros(3))


@pytest.mark.parametrize("exercise_id", exercises.available())
def test_every_check_answers_wrong_values_with_not_yet(acl, exercise_id):
    """Whatever a learner passes in place of an answer, a check says "not yet": it never
    lets a TypeError (or any error of its own) escape."""
    _title, _hint, fn = _CHECKS[exercise_id]
    names = list(inspect.signature(fn).parameters)
    for name in names:
        if name == "acl":
            continue
        for wrong in WRONG_ANSWERS:
            args = [acl if n == "acl" else wrong if n == name else 0 for n in names]
            result = exercises.check(exercise_id, *args)
            assert not result.passed, (name, wrong, result)


# ----- start, hints, solutions: exercises a learner can do at any time --------------------
def run(shell, source):
    result = shell.run_cell(source, store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    return result.result


def test_start_builds_a_fresh_state_each_time(shell):
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    run(shell, "acl.finalize()")                                # a chapter's last cell
    first = run(shell, 'blocks = exercises.start("02.2", acl)\nblocks')
    again = run(shell, 'exercises.start("02.2", acl)')
    assert first == again                                      # deterministic, fresh
    snap = acl_lab.snapshot()
    assert snap["initialized"] and len(snap["allocations"]) == 4


def test_an_empty_exercise_nudges_then_points_further_then_gets_specific_then_to_the_solution(shell):
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    exercises.forget("02.2")
    cell = 'blocks = exercises.start("02.2", acl)\n...  # your code\nexercises.check("02.2", acl, blocks)'
    messages = [run(shell, cell).message for _ in range(4)]
    assert "one partner" in messages[0] and "exercises.solution" not in messages[0]
    assert "own free call" in messages[1] and "acl.media.dvpp_free" not in messages[1]
    assert "acl.media.dvpp_free" in messages[2] and "exercises.solution" not in messages[2]
    assert 'exercises.solution("02.2")' in messages[3]
    assert not any("acl.rt.free_host(blocks" in m for m in messages)   # never the code


def test_hints_name_the_learners_own_variables(shell):
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    exercises.forget("02.2")
    result = run(shell, 'mine = exercises.start("02.2", acl)\n'
                        'acl.rt.free(mine["malloc"])\nexercises.check("02.2", acl, mine)')
    assert "mine['malloc_host']" in result.message and "blocks[" not in result.message


@pytest.mark.parametrize("release, cause", [
    ("acl.rt.reset_device(0)", "acl.rt.reset_device(0) ran after exercises.start"),
    ("acl.rt.reset_device(0)\nacl.finalize()", "acl.finalize() ran after exercises.start"),
    ("acl_lab.reset()", "acl_lab.reset() (or a new acl_lab.load()) ran after"),
])
def test_the_real_cause_comes_first(shell, release, cause):
    """The learner's answer is right, but something released the state it works on."""
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    result = run(shell, 'blocks = exercises.start("02.2", acl)\n'
                        f'{release}\nexercises.check("02.2", acl, blocks)')
    assert not result.passed and result.message.startswith(cause), result.message


def test_a_solution_is_a_code_block_in_jupyter_and_plain_text_elsewhere():
    shown = exercises.solution("02.2")
    assert shown.code.splitlines()[0].startswith('acl.rt.free_host(blocks["malloc_host"])')
    assert "```python\n" + shown.code + "\n```" in shown._repr_markdown_()
    assert repr(shown).endswith(shown.code) and "placeholder" in repr(shown)


def test_solution_comments_come_in_the_learners_language():
    acl_lab.set_language("zh_CN")
    try:
        code = exercises.solution("02.2").code
    finally:
        acl_lab.set_language("en")
    english = exercises.solution("02.2").code
    assert "# 锁页内存" in code and "# pinned host memory" in english
    strip = lambda text: [line.split("#")[0].rstrip() for line in text.splitlines()]  # noqa: E731
    assert strip(code) == strip(english)          # one code text, comments translated


def test_solutions_switched_off_say_so(monkeypatch):
    monkeypatch.setenv(exercises.SOLUTIONS_SETTING, "off")
    shown = exercises.solution("02.2")
    assert shown.code == "" and "switched off" in repr(shown) and "free_host" not in repr(shown)
    exercises.forget("00.1")
    for _ in range(4):
        result = exercises.check("00.1", None, ...)
    assert "exercises.solution" not in result.message     # no pointer to what is off


def test_every_solution_comment_is_a_catalog_message():
    ids = exercises.message_ids()
    for ex in exercises.available():
        for _row, _col, text in exercises._comments(exercises._spec(ex).solution):
            assert text in ids, (ex, text)


def test_code_typed_next_to_the_placeholder_line_still_passes(shell):
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    result = run(shell, 'exercises.start("00.1", acl)\n...  # your code\n'
                        'count, ret = acl.rt.get_device_count()\n'
                        'exercises.check("00.1", acl, count)')
    assert result.passed, result.message


def test_a_handle_released_since_start_is_named_as_the_cause(shell):
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    result = run(shell, 'producer, consumer, shared, out, ready = exercises.start("01.2", acl)\n'
                        'acl.rt.destroy_stream(consumer)\n'
                        'exercises.check("01.2", acl, out, producer, consumer)')
    assert result.message.startswith("acl.rt.destroy_stream(0x") and \
        "released consumer after exercises.start(\"01.2\", acl)" in result.message, result.message


def test_a_closed_pool_is_named_as_the_cause(registered, shell):
    from acl_lab.pool import MemoryPool

    def uses_a_pool(acl, pool):
        return "fine"
    registered("99.7", uses_a_pool)
    exercises._spec("99.7").setup = lambda acl: MemoryPool(acl, 4096)
    run(shell, "import acl_lab\nfrom acl_lab import exercises\nacl = acl_lab.load()")
    result = run(shell, 'scratch = exercises.start("99.7", acl)\nscratch.close()\n'
                        'exercises.check("99.7", acl, scratch)')
    assert result.message.startswith("scratch is closed: scratch.close() ran after"), \
        result.message
    exercises.forget("99.7")

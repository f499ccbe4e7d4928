"""StreamTimeline(profile=...): a profile a program wrote (acl.prof.start .. stop) drawn as
it was written: its tasks on their streams, its msproftx marks and ranges as the host; the
process going on afterwards (or being reset) does not change the picture."""
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.widgets import StreamTimeline
from test_widgets import svg_texts


@pytest.fixture
def written(acl, tmp_path):
    """A collection: two memsets on a stream inside a pushed range, a mark between them."""
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.prof.init(str(tmp_path)) == 0
    cfg = acl.prof.create_config([0], C.ACL_AICORE_NONE, 0,
                                 C.ACL_PROF_TASK_TIME | C.ACL_PROF_MSPROFTX)
    assert acl.prof.start(cfg) == 0
    stamp = acl.prof.create_stamp()
    assert acl.prof.set_stamp_trace_message(stamp, "fill", 4) == 0
    assert acl.prof.push(stamp) == 0
    assert acl.rt.memset_async(dev, 4096, 1, 4096, stream) == 0
    assert acl.prof.mark_ex("between", stream) == 0
    assert acl.rt.memset_async(dev, 4096, 2, 4096, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.prof.pop() == 0
    assert acl.prof.stop(cfg) == 0 and acl.prof.finalize() == 0
    (folder,) = tmp_path.iterdir()
    return folder, stream


def test_a_written_profile_is_drawn_with_its_tasks_and_msproftx_host_lane(acl, written):
    folder, stream = written
    view = StreamTimeline(profile=folder)
    scene = view.scene
    assert [r["kind"] for r in scene.window()] == ["memset", "mark", "memset"]
    assert [(h.kind, h.name) for h in scene.host] == [("mark", "between"), ("range", "fill")]
    texts = svg_texts(view.svg())
    assert "host" in texts and f"0x{stream:x}" in texts
    assert "1 msproftx mark or range" not in " ".join(texts)
    picture = view.svg()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)   # the process goes on
    assert acl.rt.memset_async(dev, 64, 0, 64, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    view.refresh(force=True)
    assert view.svg() == picture
    acl_lab.reset()
    view.refresh(force=True)
    assert view.svg() == picture


def test_what_is_not_a_profile_is_refused_with_the_reason(tmp_path):
    with pytest.raises(ValueError, match="msprof.json"):
        StreamTimeline(profile=tmp_path)
    bad = tmp_path / "msprof.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        StreamTimeline(profile=tmp_path)
    bad.write_text('[{"ph": "X", "pid": "device 0", "tid": "x", "ts": 1, "dur": 1}]')
    with pytest.raises(ValueError, match="not a trace event"):
        StreamTimeline(profile=tmp_path)

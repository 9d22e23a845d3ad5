from app.core.domain.layout import default_layout_doc
from app.core.events import LayoutChanged, ProblemReported, SessionExited
from tests.unit.fakes import SequentialIds


def test_problem_json_omits_missing_root() -> None:
    assert ProblemReported("/p/.ideai/agents.json", "bad").to_json() == {
        "type": "problem", "file": "/p/.ideai/agents.json", "message": "bad"}
    assert ProblemReported("f", "m", root="/p").to_json()["root"] == "/p"


def test_session_exited_is_camel_case() -> None:
    assert SessionExited("s1", 0).to_json() == {"type": "sessionExited", "sessionId": "s1",
                                                "exitCode": 0}


def test_layout_changed_carries_whole_doc() -> None:
    doc = default_layout_doc(SequentialIds().new_id)
    out = LayoutChanged("/p", doc).to_json()
    assert out["type"] == "layoutChanged" and out["root"] == "/p"
    assert out["layouts"] == doc.to_json()

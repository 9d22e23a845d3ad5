from app.core.domain.project import ProjectMeta, RecentProjects, Settings


def test_project_meta_round_trip() -> None:
    raw = {"name": "Demo", "remote": {"host": "h"}, "future": 1}
    assert ProjectMeta.from_json(raw).to_json() == raw
    assert ProjectMeta(name="x").to_json() == {"name": "x"}


def test_recent_most_recent_first_dedup_and_cap() -> None:
    recent = RecentProjects()
    for i in range(25):
        recent = recent.touched(f"/p{i}", f"p{i}", i)
    recent = recent.touched("/p10", "p10", 100)
    assert len(recent.recent) == 20
    assert recent.recent[0].root == "/p10" and recent.recent[0].last_opened_ms == 100
    assert [r.root for r in recent.recent].count("/p10") == 1
    assert RecentProjects.from_json(recent.to_json()) == recent


def test_settings_keep_unknown_keys() -> None:
    raw = {"version": 1, "firstRunDone": True, "theme": "dark"}
    assert Settings.from_json(raw).to_json() == raw
    assert Settings().to_json() == {"version": 1, "firstRunDone": False}

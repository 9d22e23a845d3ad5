import json

import pytest

from app.core.domain.layout_nodes import Leaf
from app.core.errors import AppError
from app.core.usecases.projects import CreateProject, OpenProject, is_absolute
from app.core.usecases.recent_projects import ListRecentProjects
from tests.unit import samples
from tests.unit.fakes import FakeClock, FakeEventSink, FakeFileSystem, SequentialIds
from tests.unit.usecases.builders import DATA, ROOT, new_world, original_project


def test_create_initialises_ideai() -> None:
    fs, ids, clock = new_world()
    state = CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT, "Demo")
    assert json.loads(fs.files[f"{ROOT}/.ideai/project.json"]) == {"name": "Demo"}
    assert json.loads(fs.files[f"{ROOT}/.ideai/agents.json"]) == {"version": 1, "agents": []}
    assert fs.files[f"{ROOT}/.ideai/CONTEXT.md"] == ""
    layouts = json.loads(fs.files[f"{ROOT}/.ideai/layouts.json"])
    assert layouts["layouts"][0]["name"] == "Default"
    assert state.name == "Demo" and state.problems == []
    assert state.layouts is not None and isinstance(state.layouts.active.root, Leaf)
    assert [r.root for r in ListRecentProjects(fs, DATA).execute()] == [ROOT]


def test_create_defaults_name_to_folder() -> None:
    fs, ids, clock = new_world()
    assert CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT + "/").name == "proj"


def test_unwritable_folder_creates_nothing() -> None:
    fs = FakeFileSystem(dirs={ROOT, DATA}, read_only={ROOT})
    with pytest.raises(AppError) as err:
        CreateProject(fs, SequentialIds(), FakeClock(), FakeEventSink(), DATA).execute(ROOT)
    assert err.value.code == "NOT_WRITABLE"
    assert fs.files == {} and not fs.exists(f"{ROOT}/.ideai")


def test_missing_folder_is_created_when_its_parent_is_writable() -> None:
    fs, ids, clock = new_world()
    CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute("/home/u/new/deeper")
    assert fs.is_dir("/home/u/new/deeper/.ideai")


def test_missing_folder_under_a_locked_parent_creates_nothing() -> None:
    fs = FakeFileSystem(dirs={"/locked", DATA}, read_only={"/locked"})
    with pytest.raises(AppError) as err:
        CreateProject(fs, SequentialIds(), FakeClock(), FakeEventSink(), DATA).execute("/locked/a/b")
    assert err.value.code == "NOT_WRITABLE"
    assert "/locked is not writable" in err.value.message
    assert not fs.exists("/locked/a")


@pytest.mark.parametrize("root", ["relative/dir", "proj", "./x"])
def test_relative_path_is_invalid(root: str) -> None:
    fs, ids, clock = new_world()
    with pytest.raises(AppError) as err:
        CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(root)
    assert err.value.code == "INVALID" and "absolute" in err.value.message


def test_a_file_in_the_way_is_invalid() -> None:
    fs, ids, clock = new_world()
    fs.files["/home/u/notes.txt"] = "x"
    for root in ("/home/u/notes.txt", "/home/u/notes.txt/sub"):
        with pytest.raises(AppError) as err:
            CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(root)
        assert err.value.code == "INVALID" and "file" in err.value.message


@pytest.mark.parametrize("path,expected", [("/a", True), ("C:\\x", True), ("C:/x", True),
                                           ("\\\\srv\\share", True), ("a/b", False),
                                           ("C:", False)])
def test_is_absolute(path: str, expected: bool) -> None:
    assert is_absolute(path) is expected


def test_create_on_existing_project_just_opens_it() -> None:
    fs, ids, state = original_project()
    before = dict(fs.files)
    again = CreateProject(fs, ids, FakeClock(), FakeEventSink(), DATA).execute(ROOT, "Other")
    assert {k: v for k, v in fs.files.items() if "/.ideai/" in k} == \
        {k: v for k, v in before.items() if "/.ideai/" in k}
    assert again.manifest == state.manifest


def test_ideai_file_is_already_exists() -> None:
    fs, ids, clock = new_world()
    fs.files[f"{ROOT}/.ideai"] = "oops"
    with pytest.raises(AppError) as err:
        CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT)
    assert err.value.code == "ALREADY_EXISTS"


def test_open_original_project_writes_nothing() -> None:
    fs, _, state = original_project()
    assert state.problems == [] and state.name == "proj"
    assert state.manifest is not None and len(state.manifest.agents) == 2
    assert state.layouts is not None and len(state.layouts.layouts) == 2
    assert not [p for p in fs.writes if "/.ideai/" in p]


def test_corrupt_agents_json_is_a_problem_and_rest_usable() -> None:
    fs, _, state = original_project(agents_json='{"version": 1, "agents": [')
    assert state.manifest is None and state.layouts is not None
    [problem] = state.problems
    assert problem.file == f"{ROOT}/.ideai/agents.json"
    assert "invalid JSON" in problem.message and "line" in problem.message
    assert fs.files[f"{ROOT}/.ideai/agents.json"] == '{"version": 1, "agents": ['


def test_wrong_shape_agents_json_problem_names_the_field_path() -> None:
    bad = '{"version": 1, "agents": [{"agentId": "a", "name": "A"}]}'
    fs, _, state = original_project(agents_json=bad)
    [problem] = state.problems
    assert problem.file == f"{ROOT}/.ideai/agents.json"
    assert problem.message == "agents[0].mdPath: field required"  # the path is said once
    assert state.manifest is None and fs.files[f"{ROOT}/.ideai/agents.json"] == bad


def test_layouts_breaking_an_invariant_are_a_problem() -> None:
    raw = json.loads(samples.LAYOUTS_JSON)
    raw["layouts"][1]["id"] = raw["layouts"][0]["id"]
    _, _, state = original_project(layouts_json=json.dumps(raw))
    assert state.layouts_broken
    assert state.problems[0].message == "invalid layout: a layout id is used twice"
    assert state.problems[0].recovery == "startFresh"


def test_wrong_shape_layouts_is_a_problem() -> None:
    _, _, state = original_project(layouts_json='{"version": 1, "layouts": "no"}')
    assert state.manifest is not None and state.layouts_broken
    # a fresh single-cell layout in memory
    assert state.layouts is not None and len(state.layouts.layouts) == 1
    assert state.layouts.active.root.node_type == "leaf"
    assert state.problems[0].file.endswith("layouts.json")


def test_missing_files_get_defaults_without_writing() -> None:
    fs, ids, clock = new_world()
    fs.make_dirs(f"{ROOT}/.ideai")
    state = OpenProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT)
    assert state.manifest is not None and state.manifest.agents == ()
    assert state.layouts is not None and state.problems == []
    assert not [p for p in fs.writes if "/.ideai/" in p]


def test_open_non_project_is_not_found_unless_create() -> None:
    fs, ids, clock = new_world()
    with pytest.raises(AppError) as err:
        OpenProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT)
    assert err.value.code == "NOT_FOUND"
    state = OpenProject(fs, ids, clock, FakeEventSink(), DATA).execute("/home/u/new", create_if_missing=True)
    assert fs.is_dir("/home/u/new/.ideai") and state.name == "new"


def test_corrupt_projects_json_is_left_alone() -> None:
    fs, ids, clock = new_world()
    fs.files[f"{DATA}/projects.json"] = "{"
    CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT)
    assert fs.files[f"{DATA}/projects.json"] == "{"
    assert ListRecentProjects(fs, DATA).execute() == []


def test_recent_keeps_unknown_keys() -> None:
    fs, ids, clock = new_world()
    fs.files[f"{DATA}/projects.json"] = json.dumps(
        {"version": 1, "recent": [{"root": "/old", "name": "old", "lastOpenedMs": 1}], "x": 2})
    OpenProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT, create_if_missing=True)
    saved = json.loads(fs.files[f"{DATA}/projects.json"])
    assert saved["x"] == 2 and [r["root"] for r in saved["recent"]] == [ROOT, "/old"]


def test_corrupt_project_json_falls_back_to_folder_name() -> None:
    fs, ids, clock = new_world()
    fs.make_dirs(f"{ROOT}/.ideai")
    fs.files[f"{ROOT}/.ideai/project.json"] = '["not", "an", "object"]'
    state = OpenProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT)
    assert state.name == "proj" and state.meta is None
    assert state.problems[0].message == "input should be an object"


def test_a_duplicate_agent_id_is_a_problem_naming_the_entry() -> None:
    def entry(name: str) -> str:
        return json.dumps({"agentId": "a", "name": name, "mdPath": f"agents/{name}.md",
                           "profileId": "shell"})

    bad = f'{{"version": 1, "agents": [{entry("A")}, {entry("B")}]}}'
    fs, _, state = original_project(agents_json=bad)
    [problem] = state.problems
    assert problem.message == "agents[1].agentId: duplicate agent id 'a' (also agents[0])"
    assert state.manifest is None and fs.files[f"{ROOT}/.ideai/agents.json"] == bad


def test_a_persona_path_outside_ideai_is_reported_at_open() -> None:
    escaping = samples.AGENTS_JSON.replace('"agents/main.md"', '"../../etc/main.md"')
    _, _, state = original_project(agents_json=escaping)
    assert state.manifest is not None and len(state.manifest.agents) == 2  # still listed
    [problem] = state.problems
    assert problem.file.endswith("/.ideai/agents.json")
    assert problem.message.startswith("agents[0].mdPath: '../../etc/main.md' is outside .ideai/")


def test_a_typed_tilde_is_the_home_folder() -> None:
    from app.core.usecases.project_state import expand_home

    assert expand_home("~", "/home/u/") == "/home/u"
    assert expand_home("~/work/p", "/home/u") == "/home/u/work/p"
    assert expand_home("~bob/p", "/home/u") == "~bob/p"
    assert expand_home("/abs/~/p", "/home/u") == "/abs/~/p"
    assert expand_home("~/p", "") == "~/p"

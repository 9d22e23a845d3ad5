import json

import pytest

from app.core.domain.profiles import builtin_profiles
from app.core.domain.sessions import SessionRecord
from app.core.errors import AppError
from app.core.usecases.agents import CreateAgent, DeleteAgent, ReadPersona, UpdateAgent
from tests.unit import samples
from tests.unit.usecases.builders import ROOT, created_project, original_project

PROFILES = builtin_profiles()
AGENTS = f"{ROOT}/.ideai/agents.json"


def test_create_writes_persona_and_manifest() -> None:
    fs, ids, state = created_project()
    entry = CreateAgent(fs, ids).execute(state, " Dév Ops ", "# persona", "claude-code", PROFILES)
    assert entry.name == "Dév Ops" and entry.md_path == "agents/dev-ops.md"
    assert fs.files[f"{ROOT}/.ideai/agents/dev-ops.md"] == "# persona"
    saved = json.loads(fs.files[AGENTS])
    assert saved["agents"][0]["agentId"] == entry.agent_id
    assert saved["agents"][0]["mdPath"] == "agents/dev-ops.md"
    assert ReadPersona(fs).execute(state, entry.agent_id) == "# persona"



def test_the_matrix_of_a_persona_names_the_file_when_it_cannot_be_read() -> None:
    fs, ids, state = created_project()
    entry = CreateAgent(fs, ids).execute(state, "Beta", "---\nipc:\n  signals: SPAWN\n---\n",
                                         "claude-code", PROFILES)
    path = f"{ROOT}/.ideai/agents/beta.md"
    with pytest.raises(AppError) as err:
        ReadPersona(fs).matrix(state, entry.agent_id)
    assert (err.value.code, err.value.message) == (
        "INVALID", f"{path}: ipc.signals: expected a list of names")
    fs.files[path] = "---\nipc: [\n---\n# Beta\n"
    with pytest.raises(AppError) as broken:
        ReadPersona(fs).matrix(state, entry.agent_id)
    assert broken.value.message.startswith(f"{path}: front matter: not YAML at line ")
    fs.files[path] = "---\nipc:\n  signals: [SPAWN]\n---\n# Beta\n"
    matrix = ReadPersona(fs).matrix(state, entry.agent_id)
    assert matrix is not None and matrix.signals == ("SPAWN",)

def test_create_rejects_duplicate_name_and_unknown_profile() -> None:
    fs, ids, state = original_project()
    for name, profile in (("main", "claude-code"), ("", "claude-code"), ("New", "nope")):
        with pytest.raises(AppError) as err:
            CreateAgent(fs, ids).execute(state, name, "", profile, PROFILES)
        assert err.value.code == "INVALID"
    assert not [p for p in fs.writes if "/.ideai/" in p]


def test_create_in_original_project_keeps_unknown_keys_and_spelling() -> None:
    fs, ids, state = original_project()
    CreateAgent(fs, ids).execute(state, "Git Helper", "", "claude-code", PROFILES)
    saved = json.loads(fs.files[AGENTS])
    original = json.loads(samples.AGENTS_JSON)
    assert saved["lastEditedBy"] == "original-ideai"
    assert saved["agents"][:2] == original["agents"]


def test_update_renames_and_rewrites_persona_in_place() -> None:
    fs, _, state = original_project()
    entry = UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, name="Gitter",
                                    persona="new", profile_id="codex-cli")
    assert entry.md_path == "agents/git.md" and entry.profile_id == "codex-cli"
    assert fs.files[f"{ROOT}/.ideai/agents/git.md"] == "new"
    saved = json.loads(fs.files[AGENTS])["agents"][1]
    assert saved["id"] == samples.GIT_ID and saved["md"] == "agents/git.md"
    assert saved["name"] == "Gitter" and saved["futureField"] == {"keep": "me"}


def test_update_refuses_a_persona_edited_from_text_the_file_no_longer_holds() -> None:
    fs, _, state = original_project()
    persona = f"{ROOT}/.ideai/agents/git.md"
    fs.files[persona] = "edited on disk"
    before = dict(fs.files)
    with pytest.raises(AppError) as err:
        UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, name="Gitter", persona="mine",
                                persona_base="as opened")
    assert err.value.code == "CHANGED_ON_DISK"
    assert err.value.details == {"field": "persona", "onDisk": "edited on disk"}
    assert "agents/git.md changed on disk" in err.value.message
    assert fs.files == before  # neither the persona nor the rename written
    UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, persona="mine",
                            persona_base="edited on disk")
    assert fs.files[persona] == "mine"
    UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, persona="forced")  # no base: as is
    assert fs.files[persona] == "forced"


def test_delete_removes_entry_and_run_dir() -> None:
    fs, _, state = original_project()
    fs.files[f"{ROOT}/.ideai/run/{samples.GIT_ID}/CLAUDE.md"] = "x"
    DeleteAgent(fs).execute(state, samples.GIT_ID)
    assert [a["name"] for a in json.loads(fs.files[AGENTS])["agents"]] == ["Main"]
    assert not fs.exists(f"{ROOT}/.ideai/run/{samples.GIT_ID}/CLAUDE.md")
    with pytest.raises(AppError) as err:
        DeleteAgent(fs).execute(state, samples.GIT_ID)
    assert err.value.code == "NOT_FOUND"


def test_a_new_agent_never_overwrites_the_persona_a_deleted_one_left() -> None:
    # Trial: deleting Shelly kept agents/shelly.md; a new "Shelly" then wrote over it.
    fs, ids, state = created_project()
    old = CreateAgent(fs, ids).execute(state, "Shelly", "# the old persona", "shell", PROFILES)
    DeleteAgent(fs).execute(state, old.agent_id)
    assert fs.files[f"{ROOT}/.ideai/agents/shelly.md"] == "# the old persona"
    new = CreateAgent(fs, ids).execute(state, "Shelly", "# a new one", "shell", PROFILES)
    assert new.md_path == "agents/shelly-2.md"
    assert fs.files[f"{ROOT}/.ideai/agents/shelly.md"] == "# the old persona"
    assert fs.files[f"{ROOT}/.ideai/agents/shelly-2.md"] == "# a new one"


def test_delete_live_agent_is_refused() -> None:
    fs, _, state = original_project()
    state.sessions["s1"] = SessionRecord("s1", "agent", "Git", samples.GIT_ID)
    with pytest.raises(AppError) as err:
        DeleteAgent(fs).execute(state, samples.GIT_ID)
    assert err.value.code == "AGENT_ALREADY_RUNNING"


def test_corrupt_manifest_refuses_crud_and_stays_untouched() -> None:
    fs, ids, state = original_project(agents_json="[1,")
    with pytest.raises(AppError) as err:
        CreateAgent(fs, ids).execute(state, "X", "", "claude-code", PROFILES)
    assert err.value.code == "CORRUPT_FILE"
    assert fs.files[AGENTS] == "[1,"


def test_persona_path_cannot_escape_ideai() -> None:
    fs, _, state = original_project(agents_json=samples.AGENTS_JSON.replace(
        "agents/git.md", "../../etc/passwd"))
    with pytest.raises(AppError) as err:
        UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, persona="x")
    assert err.value.code == "INVALID"

import json

import pytest

from app.core.domain.agents import (
    AgentEntry,
    AgentManifest,
    slugify,
    unique_md_path,
    validate_agent_name,
)
from app.core.errors import AppError
from tests.unit import samples


def test_original_manifest_round_trip_keeps_spelling_and_unknown_keys() -> None:
    raw = json.loads(samples.AGENTS_JSON)
    manifest = AgentManifest.from_json(raw)
    assert manifest.to_json() == raw
    git = manifest.get(samples.GIT_ID)
    assert (git.id_key, git.md_key, git.md_path) == ("id", "md", "agents/git.md")
    assert git.skills == ("commit-style",) and git.synced_template_version == 3


def test_new_entries_use_agent_id_and_md_path() -> None:
    entry = AgentEntry(agent_id="x", name="Dev", md_path="agents/dev.md", profile_id="claude-code")
    assert entry.to_json() == {"agentId": "x", "name": "Dev", "mdPath": "agents/dev.md",
                               "profileId": "claude-code", "synchronized": False}


def test_manifest_with_and_without() -> None:
    manifest = AgentManifest.from_json(json.loads(samples.AGENTS_JSON))
    added = manifest.with_agent(
        AgentEntry(agent_id="x", name="Dev", md_path="agents/dev.md", profile_id="p"))
    assert [a.name for a in added.agents] == ["Main", "Git", "Dev"]
    assert [a.name for a in added.without(samples.MAIN_ID).agents] == ["Git", "Dev"]
    with pytest.raises(AppError) as err:
        added.without("nope")
    assert err.value.code == "NOT_FOUND"


@pytest.mark.parametrize("name, slug", [
    ("Git", "git"), ("Dév Ops!", "dev-ops"), ("  Front  End  ", "front-end"), ("日本", "agent"),
])
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


def test_unique_md_path_adds_suffix() -> None:
    assert unique_md_path("Git", ["agents/main.md"]) == "agents/git.md"
    assert unique_md_path("Git", ["agents/Git.md", "agents/git-2.md"]) == "agents/git-3.md"


def test_name_validation() -> None:
    manifest = AgentManifest.from_json(json.loads(samples.AGENTS_JSON))
    assert validate_agent_name("  Dev ", manifest) == "Dev"
    assert validate_agent_name("git", manifest, exclude_id=samples.GIT_ID) == "git"
    for bad in ("", "   ", "GIT", "main"):
        with pytest.raises(AppError) as err:
            validate_agent_name(bad, manifest)
        assert err.value.code == "INVALID"


def test_wrong_shape_is_invalid_and_names_the_field() -> None:
    with pytest.raises(AppError) as err:
        AgentManifest.from_json({"version": 1, "agents": [{"name": "x"}]})
    assert err.value.code == "INVALID"
    assert err.value.message == "agents[0].agentId: field required"


def test_null_profile_id_reads_as_empty() -> None:
    entry = AgentEntry.from_json({"agentId": "a", "name": "A", "mdPath": "m", "profileId": None})
    assert entry.profile_id == ""


def test_spelling_survives_a_copy() -> None:
    git = AgentManifest.from_json(json.loads(samples.AGENTS_JSON)).get(samples.GIT_ID)
    renamed = git.model_copy(update={"name": "Git 2"}).to_json()
    assert list(renamed)[:3] == ["id", "name", "md"] and renamed["name"] == "Git 2"

"""Reading and writing the files of `.ideai/` for the use cases.

A file that fails to parse (or breaks a layout invariant) becomes a `Problem`; its part of the
state is `None` and it is never written again in this session (`AppError(CORRUPT_FILE)`
instead).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from app.core.domain.access import matrix_of
from app.core.domain.agents import AgentEntry, AgentManifest, validate_manifest
from app.core.domain.documents import Document, dump_document, parse_document
from app.core.domain.layout import LayoutDoc, default_layout_doc
from app.core.domain.layout_ops import assign
from app.core.domain.layout_rules import validate_doc
from app.core.domain.named_layouts import (
    layout_with_leaf,
    showing_only,
    without_session_elsewhere,
)
from app.core.domain.permissions import PermissionsDoc
from app.core.domain.project import ProjectMeta
from app.core.errors import CORRUPT_FILE, INVALID, AppError
from app.core.ports import FileSystem
from app.core.usecases.project_state import (
    AGENTS_FILE,
    LAYOUTS_FILE,
    PERMISSIONS_FILE,
    PROJECT_FILE,
    START_FRESH,
    Problem,
    ProjectState,
    clean_root,
    ideai_path,
    root_basename,
)

M = TypeVar("M", bound=Document)


def read_json(fs: FileSystem, path: str, model: type[M]) -> M | None:
    """Parse the JSON file `path` into a `model` instance; `None` when missing.

    Raises `AppError(CORRUPT_FILE)` (details `{file, field}`) naming the file and the field path
    when the text or shape is wrong (see `documents.parse_document`).
    """
    text = fs.read_text(path)
    if text is None:
        return None
    return parse_document(text, model, path)


def _load_part(fs: FileSystem, path: str, model: type[M], problems: list[Problem],
               check: Callable[[M], None] | None = None,
               recovery: str | None = None) -> tuple[M | None, bool]:
    """Return `(value, ok)`; when the file is corrupt (or `check` raises INVALID) append a
    problem (offering `recovery`) and return `(None, False)`."""
    try:
        value = read_json(fs, path, model)
        if value is not None and check is not None:
            check(value)
    except AppError as exc:
        if exc.code not in (CORRUPT_FILE, INVALID):
            raise
        # The problem names its file already: the message says only what is wrong in it.
        problems.append(Problem(path, exc.message.removeprefix(f"{path}: "), recovery))
        return None, False
    return value, True


def load_project(fs: FileSystem, root: str, new_id: Callable[[], str]) -> ProjectState:
    """Load `<root>/.ideai/` into a fresh `ProjectState` (writes nothing).

    Missing `agents.json` → empty manifest; missing `layouts.json` → default doc (written on the
    first edit); a corrupt `agents.json` or `project.json` → `None` + a problem; a corrupt
    `permissions.json` → a problem (launches refuse it then); a corrupt
    `layouts.json` → a fresh default doc kept in memory (`layouts_broken`) + a problem offering
    `START_FRESH`. An agent whose persona path leaves `.ideai/` is reported too (the agent stays
    listed; launching it is refused), and a persona whose front matter IdeA cannot read
    (`persona_problems`).
    """
    root = clean_root(root)
    problems: list[Problem] = []
    meta, _ = _load_part(fs, ideai_path(root, PROJECT_FILE), ProjectMeta, problems)
    manifest, ok_agents = _load_part(fs, ideai_path(root, AGENTS_FILE), AgentManifest, problems,
                                     validate_manifest)
    layouts, ok_layouts = _load_part(fs, ideai_path(root, LAYOUTS_FILE), LayoutDoc, problems,
                                     validate_doc, START_FRESH)
    # Only checked here: a launch reads it again and refuses to run unconfined when it is bad.
    _load_part(fs, ideai_path(root, PERMISSIONS_FILE), PermissionsDoc, problems)
    if manifest is None and ok_agents:
        manifest = AgentManifest()
    if manifest is not None:
        problems += _escaping_personas(ideai_path(root, AGENTS_FILE), manifest)
        problems += persona_problems(fs, root, manifest)
    if layouts is None:
        layouts = default_layout_doc(new_id)
    name = meta.name if meta is not None and meta.name else root_basename(root)
    return ProjectState(root, name, meta, manifest, layouts, problems,
                        layouts_broken=not ok_layouts)


@dataclass(frozen=True)
class FileReload:
    """What reading a file of `.ideai/` again did: it `changed` (for `agents.json`: the agents
    added, removed, edited; for any: it became unreadable, or readable again); the problems it
    has now (`problems`, all new when `changed`); `resolved` when it had problems before and
    has none now."""

    changed: bool
    problems: tuple[Problem, ...] = ()
    resolved: bool = False


def reload_agents(fs: FileSystem, state: ProjectState) -> FileReload:
    """Read `agents.json` again (it was edited outside IdeA) into `state`: the manifest is
    replaced when it changed; an unreadable file leaves `manifest` None with its problem, as
    on open (it is never written while so); writes nothing."""
    file = state.path(AGENTS_FILE)
    problems: list[Problem] = []
    manifest, ok = _load_part(fs, file, AgentManifest, problems, validate_manifest)
    if manifest is None and ok:
        manifest = AgentManifest()
    if manifest is not None:
        problems += _escaping_personas(file, manifest)
    outcome = _replace_problems(state, file, problems, changed=manifest != state.manifest)
    state.manifest = manifest
    return outcome


@dataclass(frozen=True)
class LayoutsReload:
    """What reading `layouts.json` again did: `file` as for any file, and `layouts`, the
    document the project took from it (None when it kept its own)."""

    file: FileReload
    layouts: LayoutDoc | None = None


def reload_layouts(fs: FileSystem, state: ProjectState) -> LayoutsReload:
    """Read `layouts.json` again (edited outside IdeA) into `state`; writes nothing.

    A file that holds what `state` has (IdeA's own write) or is missing changes nothing. One
    that does not parse, or breaks an invariant, is reported as on open (offering
    `START_FRESH`) and never written while so; the cells keep what they show. A readable one
    different from `state` (or fixed, after being broken) is taken: a leaf naming a session the
    project does not own is left empty of it (`showing_only`), and each layout whose tree
    changed gets an undo step back to the tree it had (a layout gone loses its history).
    """
    file = state.path(LAYOUTS_FILE)
    problems: list[Problem] = []
    doc, ok = _load_part(fs, file, LayoutDoc, problems, validate_doc, START_FRESH)
    if ok and doc is None:  # missing: nothing to take
        return LayoutsReload(FileReload(changed=False))
    if doc is None:
        state.layouts_broken = True
        return LayoutsReload(_replace_problems(state, file, problems))
    owned = set(state.sessions)
    taken = showing_only(doc, owned)
    was_broken, before = state.layouts_broken, state.layouts
    # IdeA's own write holds `before`, perhaps with ids of sessions it no longer owns
    same = before is not None and taken == showing_only(before, owned)
    state.layouts_broken = False
    outcome = _replace_problems(state, file, [], changed=not same)
    if same:
        return LayoutsReload(outcome)
    if before is not None and not was_broken:
        now = {layout.id: layout.root for layout in taken.layouts}
        history = state.history
        for layout in before.layouts:
            if layout.id not in now:
                history = history.forget(layout.id)
            elif now[layout.id] != layout.root:
                history = history.record(layout.id, layout.root)
        state.history = history
    state.layouts = taken
    return LayoutsReload(outcome, taken)


def recheck_file(fs: FileSystem, state: ProjectState, name: str,
                 model: type[Document]) -> FileReload:
    """`.ideai/<name>` (parsed as `model`) edited outside IdeA: its problems in `state` are
    replaced by what reading it now finds; nothing else of `state` changes. `changed` when
    they differ (`problems`: the new ones), `resolved` when it had some and has none now."""
    file = state.path(name)
    problems: list[Problem] = []
    _load_part(fs, file, model, problems)
    return _replace_problems(state, file, problems)


def _replace_problems(state: ProjectState, file: str, problems: list[Problem], *,
                      changed: bool = False) -> FileReload:
    """`file`'s problems in `state` become `problems`; what that (or `changed`, the file's
    content) amounts to."""
    before = [p for p in state.problems if p.file == file]
    if not changed and problems == before:
        return FileReload(changed=False, problems=tuple(problems))
    state.problems = [p for p in state.problems if p.file != file] + problems
    return FileReload(changed=True, problems=tuple(problems),
                      resolved=bool(before) and not problems)


def persona_problems(fs: FileSystem, root: str, manifest: AgentManifest) -> list[Problem]:
    """One problem per persona of `manifest` whose front matter IdeA cannot read (not YAML, a
    malformed or misspelt `ipc` key: `access.matrix_of`), or which is not text; the problem
    names the persona file (SPEC §3, `agents/<slug>.md`) and says what is wrong in it. A
    missing persona, or one whose path leaves `.ideai/` (`agents.json`'s problem), is none."""
    out: list[Problem] = []
    seen: set[str] = set()
    for entry in manifest.agents:
        if _escapes(entry.md_path):
            continue
        file = _persona_file(root, entry)
        if file in seen:
            continue
        seen.add(file)
        try:
            matrix_of(fs.read_text(file) or "")
        except AppError as exc:
            if exc.code not in (CORRUPT_FILE, INVALID):
                raise
            out.append(Problem(file, exc.message.removeprefix(f"{file}: ")))
    return out


def reload_personas(fs: FileSystem, state: ProjectState) -> list[tuple[str, FileReload]]:
    """Read the personas of `state`'s agents again (one was edited, by IdeA or outside it, or
    the agents changed): each persona file's problems in `state` become what reading it finds
    now; a file with problems that is no persona any more loses them. Returns `(file, what
    changed)` for each file whose problems changed; writes nothing."""
    found: dict[str, list[Problem]] = {}
    personas: list[str] = []
    if state.manifest is not None:
        personas = [_persona_file(state.root, e) for e in state.manifest.agents
                    if not _escapes(e.md_path)]
        for problem in persona_problems(fs, state.root, state.manifest):
            found.setdefault(problem.file, []).append(problem)
    # A persona of an agent since removed is known by its name (`unique_md_path`): problems
    # about other files (the project's JSON files, `.ideai/` itself) are not this function's.
    gone = [p.file for p in state.problems if p.file.endswith(".md")]
    files = dict.fromkeys(gone + personas)
    out = []
    for file in files:
        outcome = _replace_problems(state, file, found.get(file, []))
        if outcome.changed:
            out.append((file, outcome))
    return out


def _persona_file(root: str, entry: AgentEntry) -> str:
    return ideai_path(root, *posixpath.normpath(entry.md_path.replace("\\", "/")).split("/"))


def _escaping_personas(file: str, manifest: AgentManifest) -> list[Problem]:
    """One problem per agent whose `mdPath` would leave `.ideai/`."""
    out = []
    for i, entry in enumerate(manifest.agents):
        if _escapes(entry.md_path):
            out.append(Problem(file, f"agents[{i}].mdPath: '{entry.md_path}' is outside .ideai/ "
                               f"({entry.name} cannot be launched until it points inside)"))
    return out


def _escapes(md_path: str) -> bool:
    rel = posixpath.normpath(md_path.replace("\\", "/"))
    return rel.startswith(("/", "..")) or (len(rel) > 1 and rel[1] == ":")


def _corrupt(state: ProjectState, file: str) -> AppError:
    path = state.path(file)
    return AppError(CORRUPT_FILE, f"{path} could not be read and is left untouched",
                    {"file": path})


def require_manifest(state: ProjectState) -> AgentManifest:
    """The loaded manifest; raises `AppError(CORRUPT_FILE)` when `agents.json` is corrupt."""
    if state.manifest is None:
        raise _corrupt(state, AGENTS_FILE)
    return state.manifest


def require_layouts(state: ProjectState) -> LayoutDoc:
    """The layouts (a fresh in-memory one when `layouts.json` is broken); raises
    `AppError(CORRUPT_FILE)` when there are none."""
    if state.layouts is None:
        raise _corrupt(state, LAYOUTS_FILE)
    return state.layouts


def save_manifest(fs: FileSystem, state: ProjectState, manifest: AgentManifest) -> None:
    """Write `agents.json` atomically, then update `state`; CORRUPT_FILE / NOT_WRITABLE."""
    require_manifest(state)
    fs.write_text_atomic(state.path(AGENTS_FILE), dump_document(manifest))
    state.manifest = manifest


def save_layouts(fs: FileSystem, state: ProjectState, doc: LayoutDoc, record: bool) -> LayoutDoc:
    """Validate and write `layouts.json` atomically, then update `state` (and the undo history
    when `record`); while the file is broken (`layouts_broken`) nothing is written: the
    broken file is never overwritten silently. Raises INVALID, CORRUPT_FILE or NOT_WRITABLE;
    returns `doc`."""
    before = require_layouts(state)
    validate_doc(doc)
    if not state.layouts_broken:
        fs.write_text_atomic(state.path(LAYOUTS_FILE), dump_document(doc))
    if record:
        state.history = state.history.record(before.active_id, before.active.root)
    state.layouts = doc
    return doc


def show_in_cell(fs: FileSystem, state: ProjectState, node_id: str, session_id: str,
                 agent_id: str | None = None) -> LayoutDoc:
    """Make leaf `node_id` show `session_id` (and `agent_id`, marked `agentWasRunning`; a cell
    of another layout showing it gives it up) and persist it without an undo step. The leaf is
    looked for in the active layout first, then in the others (a shell restored at start-up
    into a layout that was not active at quit). Raises NOT_FOUND, INVALID, CORRUPT_FILE,
    NOT_WRITABLE."""
    doc = require_layouts(state)
    layout = layout_with_leaf(doc, node_id) or doc.active  # `assign` says NOT_FOUND
    root = assign(layout.root, node_id, session_id, agent_id, agent_was_running=True)
    moved = without_session_elsewhere(doc.with_layout(layout.with_root(root)), session_id,
                                      layout.id)
    return save_layouts(fs, state, moved, record=False)


def persona_path(state: ProjectState, entry: AgentEntry) -> str:
    """Absolute path of the agent's persona (`md_path` is relative to `.ideai/`).

    Raises `AppError(INVALID)` when `md_path` would leave `.ideai/`.
    """
    if _escapes(entry.md_path):
        raise AppError(INVALID, f"persona path escapes .ideai/: {entry.md_path}")
    return _persona_file(state.root, entry)

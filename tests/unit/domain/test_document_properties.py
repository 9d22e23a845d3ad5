"""Property tests: any valid `LayoutDoc` / `AgentManifest` survives `to_json` → `from_json` and
the JSON text, unknown keys (at every level) included."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.domain.agents import AgentEntry, AgentManifest
from app.core.domain.documents import dump_document, parse_document
from app.core.domain.layout import Layout, LayoutDoc, LayoutTree
from app.core.domain.layout_nodes import Grid, GridCell, Leaf, Node, Split, SplitChild
from app.core.domain.layout_rules import validate_doc

ids = st.uuids().map(str)
texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | texts
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6)
# Unknown keys: never a known key nor a field name of any model.
extras = st.dictionaries(st.from_regex(r"x[A-Z][a-z]{0,5}", fullmatch=True), json_values,
                         max_size=2)
weights = st.floats(min_value=0.01, max_value=1e6, allow_nan=False)


@st.composite
def leaves(draw: st.DrawFn) -> Leaf:
    agent = draw(st.none() | ids)
    leaf = Leaf(id=draw(ids), session=draw(st.none() | ids), agent=agent,
                agent_was_running=agent is not None and draw(st.booleans()), **draw(extras))
    return leaf.with_wrapper_extra(draw(extras))


def splits(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Split]:
    child = st.builds(lambda node, weight, extra: SplitChild(node=node, weight=weight, **extra),
                      children, weights, extras)
    return st.builds(lambda node_id, direction, kids, extra, wrapper: Split(
        id=node_id, direction=direction, children=tuple(kids), **extra).with_wrapper_extra(wrapper),
        ids, st.sampled_from(["row", "column"]), st.lists(child, min_size=1, max_size=3), extras,
        extras)


@st.composite
def grids(draw: st.DrawFn, children: st.SearchStrategy[Node]) -> Grid:
    rows, cols = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    cells = tuple(GridCell(node=draw(children), row=r, col=c, **draw(extras))
                  for r in range(rows) for c in range(cols))
    grid = Grid(id=draw(ids), col_weights=tuple(draw(weights) for _ in range(cols)),
                row_weights=tuple(draw(weights) for _ in range(rows)), cells=cells,
                **draw(extras))
    return grid.with_wrapper_extra(draw(extras))


trees: st.SearchStrategy[Node] = st.recursive(
    leaves(), lambda inner: splits(inner) | grids(inner), max_leaves=8)


@st.composite
def layout_docs(draw: st.DrawFn) -> LayoutDoc:
    layouts = tuple(
        Layout(id=draw(ids), name=draw(texts), kind=draw(st.sampled_from(["terminal", "x"])),
               tree=LayoutTree(root=draw(trees), **draw(extras)), **draw(extras))
        for _ in range(draw(st.integers(1, 3))))
    active = draw(st.sampled_from([layout.id for layout in layouts]))
    return LayoutDoc(version=draw(st.integers(1, 3)), active_id=active, layouts=layouts,
                     **draw(extras))


@st.composite
def entries(draw: st.DrawFn) -> AgentEntry:
    raw: dict[str, Any] = {draw(st.sampled_from(["agentId", "id"])): draw(ids),
                           "name": draw(texts),
                           draw(st.sampled_from(["mdPath", "md"])): f"agents/{draw(texts)}.md",
                           "profileId": draw(texts), "synchronized": draw(st.booleans())}
    for key, value in (("origin", draw(st.none() | json_values.filter(lambda v: v is not None))),
                       ("skills", draw(st.none() | st.lists(texts, max_size=2))),
                       ("syncedTemplateVersion", draw(st.none() | st.integers(0, 99)))):
        if value is not None:
            raw[key] = value
    return AgentEntry.from_json({**raw, **draw(extras)})


manifests = st.builds(lambda version, agents, extra: AgentManifest(
    version=version, agents=tuple(agents), **extra),
    st.integers(1, 3), st.lists(entries(), max_size=3), extras)


@settings(deadline=None, max_examples=60)
@given(layout_docs())
def test_any_valid_layout_doc_round_trips(doc: LayoutDoc) -> None:
    validate_doc(doc)
    assert LayoutDoc.from_json(doc.to_json()) == doc
    assert parse_document(dump_document(doc), LayoutDoc, "layouts.json") == doc


@settings(deadline=None, max_examples=60)
@given(manifests)
def test_any_agent_manifest_round_trips(manifest: AgentManifest) -> None:
    assert AgentManifest.from_json(manifest.to_json()) == manifest
    assert parse_document(dump_document(manifest), AgentManifest, "agents.json") == manifest

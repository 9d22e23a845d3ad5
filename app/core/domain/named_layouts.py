"""Several named layouts per project: create, rename, duplicate, delete, switch (SPEC C3).

Pure `LayoutDoc → LayoutDoc` functions. A session is shown by at most one leaf of the whole
document, so a layout that is not active keeps its cells (and the sessions they show, which run
on unseen); switching back shows them again. A duplicate copies the structure with new ids and
empty cells. Deleting a layout hides what it showed (nothing is stopped); the last one cannot go.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.domain.field_labels import field_refusal
from app.core.domain.layout import Layout, LayoutDoc, LayoutTree
from app.core.domain.layout_nodes import Grid, Leaf, Node, Split, find_leaf, map_leaves
from app.core.errors import INVALID, NOT_FOUND, AppError

MAX_NAME_CHARS = 60


def clean_name(doc: LayoutDoc, name: str, keep_id: str | None = None) -> str:
    """`name` stripped; INVALID (`Layout name: …`, details `{field: "op.name", label}`) when
    empty, longer than 60 characters or already the name of another layout
    (case-insensitive) than `keep_id`."""
    cleaned = " ".join(name.split())
    problem = None
    if not cleaned:
        problem = "a layout needs a name"
    elif len(cleaned) > MAX_NAME_CHARS:
        problem = f"at most {MAX_NAME_CHARS} characters"
    elif any(lay.name.casefold() == cleaned.casefold() and lay.id != keep_id
             for lay in doc.layouts):
        problem = f"a layout named '{cleaned}' already exists"
    if problem:
        raise field_refusal("layout", "name", problem, path="op.name")
    return cleaned


def find_layout(doc: LayoutDoc, layout_id: str) -> Layout:
    """The layout `layout_id`; NOT_FOUND (details `{layoutId}`) when the document has none."""
    found = next((lay for lay in doc.layouts if lay.id == layout_id), None)
    if found is None:
        raise AppError(NOT_FOUND, f"no layout '{layout_id}'", {"layoutId": layout_id})
    return found


def _free_name(doc: LayoutDoc, base: str) -> str:
    taken = {lay.name.casefold() for lay in doc.layouts}
    if base.casefold() not in taken:
        return base
    n = 2
    while f"{base} {n}".casefold() in taken:
        n += 1
    return f"{base} {n}"


def create_layout(doc: LayoutDoc, name: str, new_id: Callable[[], str],
                  root: Node | None = None) -> LayoutDoc:
    """Add a layout `name` (one empty cell, or `root`) after the others and make it active."""
    layout = Layout(id=new_id(), name=clean_name(doc, name), kind="terminal",
                    tree=LayoutTree(root=root or Leaf(id=new_id())))
    return doc.model_copy(update={"layouts": (*doc.layouts, layout), "active_id": layout.id})


def rename_layout(doc: LayoutDoc, layout_id: str, name: str) -> LayoutDoc:
    """Give layout `layout_id` the name `name` (see `clean_name`)."""
    layout = find_layout(doc, layout_id)
    return doc.with_layout(layout.model_copy(update={"name": clean_name(doc, name, layout_id)}))


def _fresh_copy(node: Node, new_id: Callable[[], str]) -> Node:
    if isinstance(node, Leaf):
        return node.model_copy(update={"id": new_id(), "session": None, "agent": None,
                                       "agent_was_running": False})
    if isinstance(node, Split):
        kids = tuple(c.model_copy(update={"node": _fresh_copy(c.node, new_id)})
                     for c in node.children)
        return node.model_copy(update={"id": new_id(), "children": kids})
    assert isinstance(node, Grid)
    cells = tuple(c.model_copy(update={"node": _fresh_copy(c.node, new_id)}) for c in node.cells)
    return node.model_copy(update={"id": new_id(), "cells": cells})


def duplicate_layout(doc: LayoutDoc, layout_id: str, new_id: Callable[[], str],
                     name: str | None = None) -> LayoutDoc:
    """Add a copy of layout `layout_id` right after it (same structure and weights, new ids,
    empty cells; named `name` or "<name> copy") and make it active."""
    source = find_layout(doc, layout_id)
    label = clean_name(doc, name) if name is not None else _free_name(doc, f"{source.name} copy")
    copy = source.model_copy(update={
        "id": new_id(), "name": label,
        "tree": source.tree.model_copy(update={"root": _fresh_copy(source.root, new_id)})})
    at = doc.layouts.index(source) + 1
    layouts = (*doc.layouts[:at], copy, *doc.layouts[at:])
    return doc.model_copy(update={"layouts": layouts, "active_id": copy.id})


def delete_layout(doc: LayoutDoc, layout_id: str) -> LayoutDoc:
    """Remove layout `layout_id`; when it was active, the one before it (else after) becomes
    active. INVALID when it is the only layout."""
    layout = find_layout(doc, layout_id)
    if len(doc.layouts) == 1:
        raise AppError(INVALID, "the last layout of a project cannot be deleted",
                       {"layoutId": layout_id})
    at = doc.layouts.index(layout)
    rest = doc.layouts[:at] + doc.layouts[at + 1:]
    active = doc.active_id if doc.active_id != layout_id else rest[max(0, at - 1)].id
    return doc.model_copy(update={"layouts": rest, "active_id": active})


def switch_layout(doc: LayoutDoc, layout_id: str) -> LayoutDoc:
    """Make layout `layout_id` the active one (NOT_FOUND when absent)."""
    find_layout(doc, layout_id)
    return doc.model_copy(update={"active_id": layout_id})


def without_session_elsewhere(doc: LayoutDoc, session: str,
                              layout_id: str | None = None) -> LayoutDoc:
    """`doc` where no leaf of a layout other than `layout_id` (default: the active one) shows
    `session` (a session shown there moves there from wherever it was)."""
    keep = doc.active_id if layout_id is None else layout_id

    def clear(leaf: Leaf) -> Leaf:
        if leaf.session != session:
            return leaf
        return leaf.model_copy(update={"session": None, "agent": None,
                                       "agent_was_running": False})

    layouts = tuple(lay if lay.id == keep else lay.with_root(map_leaves(lay.root, clear))
                    for lay in doc.layouts)
    return doc.model_copy(update={"layouts": layouts})


def layout_with_leaf(doc: LayoutDoc, node_id: str) -> Layout | None:
    """The layout of `doc` holding leaf `node_id` (the active one first), or None."""
    ordered = (doc.active, *(lay for lay in doc.layouts if lay.id != doc.active_id))
    return next((lay for lay in ordered if find_leaf(lay.root, node_id) is not None), None)


def showing_only(doc: LayoutDoc, sessions: set[str]) -> LayoutDoc:
    """`doc` where a leaf shows a session only when it is one of `sessions` (those the project
    owns): a leaf naming another one is left empty of it, keeping its agent (a layouts file
    edited by hand may name any id)."""
    def keep(leaf: Leaf) -> Leaf:
        if leaf.session is None or leaf.session in sessions:
            return leaf
        return leaf.model_copy(update={"session": None})

    return doc.model_copy(update={"layouts": tuple(
        lay.with_root(map_leaves(lay.root, keep)) for lay in doc.layouts)})

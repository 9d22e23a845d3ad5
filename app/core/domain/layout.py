"""Named layouts of a project and the `layouts.json` document (contract §1, digest §6.4)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.domain import jsonshape as js
from app.core.domain.layout_codec import node_from_json, node_to_json
from app.core.domain.layout_nodes import Leaf, Node
from app.core.errors import INVALID, AppError

LAYOUTS_VERSION = 1
_LAYOUT_KEYS = ("id", "name", "kind", "tree")
_DOC_KEYS = ("version", "activeId", "layouts")


def _empty() -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Layout:
    """One named layout: `kind` is e.g. `"terminal"`, `root` the tree (`{"tree": {"root"}}`).

    `tree_extra` keeps unknown keys of the `tree` object, `extra` those of the layout object.
    """

    id: str
    name: str
    kind: str
    root: Node
    extra: Mapping[str, Any] = field(default_factory=_empty)
    tree_extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any, where: str = "layouts[0]") -> Layout:
        """Decode one layout object; raises `AppError(INVALID)` on a wrong shape."""
        obj = js.as_object(value, where)
        tree = js.as_object(obj.get("tree"), f"{where}.tree")
        return Layout(
            id=js.req_str(obj, "id", where),
            name=js.opt_str(obj, "name", where) or "",
            kind=js.opt_str(obj, "kind", where) or "terminal",
            root=node_from_json(tree.get("root"), f"{where}.tree.root"),
            extra=js.extra_keys(obj, _LAYOUT_KEYS),
            tree_extra=js.extra_keys(tree, ("root",)),
        )

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"id", "name", "kind", "tree": {"root"}, ...unknown}`."""
        tree = {"root": node_to_json(self.root), **self.tree_extra}
        return {"id": self.id, "name": self.name, "kind": self.kind, "tree": tree, **self.extra}


@dataclass(frozen=True)
class LayoutDoc:
    """The whole `layouts.json`: `version`, `active_id` and the `layouts` (at least one)."""

    version: int
    active_id: str
    layouts: tuple[Layout, ...]
    extra: Mapping[str, Any] = field(default_factory=_empty)

    @staticmethod
    def from_json(value: Any) -> LayoutDoc:
        """Decode `layouts.json`; raises `AppError(INVALID)` on a wrong shape.

        An `activeId` naming no layout falls back to the first layout.
        """
        obj = js.as_object(value, "layouts.json")
        raw = js.as_list(obj.get("layouts"), "layouts")
        layouts = tuple(Layout.from_json(item, f"layouts[{i}]") for i, item in enumerate(raw))
        if not layouts:
            raise AppError(INVALID, "layouts: at least one layout is required")
        active = js.opt_str(obj, "activeId", "layouts.json")
        if active not in {layout.id for layout in layouts}:
            active = layouts[0].id
        return LayoutDoc(
            version=js.opt_int(obj, "version", "layouts.json") or LAYOUTS_VERSION,
            active_id=active,
            layouts=layouts,
            extra=js.extra_keys(obj, _DOC_KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        """Encode as `{"version", "activeId", "layouts": [...], ...unknown}`."""
        return {
            "version": self.version,
            "activeId": self.active_id,
            "layouts": [layout.to_json() for layout in self.layouts],
            **self.extra,
        }

    @property
    def active(self) -> Layout:
        """The active layout."""
        return next(lay for lay in self.layouts if lay.id == self.active_id)

    def with_layout(self, layout: Layout) -> LayoutDoc:
        """A copy where the layout with `layout.id` is replaced by `layout`."""
        swapped = tuple(layout if lay.id == layout.id else lay for lay in self.layouts)
        return replace(self, layouts=swapped)

    def with_active_root(self, root: Node) -> LayoutDoc:
        """A copy where the active layout's tree root is `root`."""
        return self.with_layout(replace(self.active, root=root))


def default_layout_doc(new_id: Callable[[], str]) -> LayoutDoc:
    """One layout "Default" of kind "terminal" holding one empty leaf; ids from `new_id()`."""
    layout = Layout(id=new_id(), name="Default", kind="terminal", root=Leaf(id=new_id()))
    return LayoutDoc(version=LAYOUTS_VERSION, active_id=layout.id, layouts=(layout,))

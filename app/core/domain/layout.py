"""Named layouts of a project and the `layouts.json` document (contract §1, digest §6.4)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Self

from pydantic import StrictInt, field_validator, model_validator

from app.core.domain.documents import Document
from app.core.domain.layout_nodes import Leaf, Node, NodeField

LAYOUTS_VERSION = 1


class LayoutTree(Document):
    """The `tree` object of a layout: `{"root": <node>, ...unknown}`."""

    root: NodeField


class Layout(Document):
    """One named layout: `{"id", "name", "kind", "tree": {"root"}, ...unknown}`.

    `kind` is e.g. `"terminal"`; `root` is the tree's root node, `tree_extra` the unknown keys
    of the `tree` object (`extra` those of the layout object).
    """

    id: str
    name: str = ""
    kind: str = "terminal"
    tree: LayoutTree

    @property
    def root(self) -> Node:
        """The root node of this layout's tree."""
        return self.tree.root

    @property
    def tree_extra(self) -> Mapping[str, Any]:
        """Unknown keys of the `tree` object."""
        return self.tree.extra

    def with_root(self, root: Node) -> Layout:
        """A copy whose tree root is `root` (unknown keys kept)."""
        return self.model_copy(update={"tree": self.tree.model_copy(update={"root": root})})


class LayoutDoc(Document):
    """The whole `layouts.json`: `{"version", "activeId", "layouts": [Layout], ...unknown}`.

    At least one layout is required (a `ValueError` reported as `layouts: at least one layout
    is required`); an `active_id` naming no layout falls back to the first layout. The tree
    invariants are checked by `layout_rules.validate_doc`, not here.
    """

    version: StrictInt = LAYOUTS_VERSION
    active_id: str = ""
    layouts: tuple[Layout, ...]

    @field_validator("layouts")
    @classmethod
    def _at_least_one(cls, layouts: tuple[Layout, ...]) -> tuple[Layout, ...]:
        if not layouts:
            raise ValueError("at least one layout is required")
        return layouts

    @model_validator(mode="after")
    def _active_falls_back_to_first(self) -> Self:
        if self.active_id not in {layout.id for layout in self.layouts}:
            # Validation-time normalisation of a frozen model: set the field in place.
            self.__dict__["active_id"] = self.layouts[0].id
        return self

    @property
    def active(self) -> Layout:
        """The active layout."""
        return next(lay for lay in self.layouts if lay.id == self.active_id)

    def with_layout(self, layout: Layout) -> LayoutDoc:
        """A copy where the layout with `layout.id` is replaced by `layout`."""
        swapped = tuple(layout if lay.id == layout.id else lay for lay in self.layouts)
        return self.model_copy(update={"layouts": swapped})

    def with_active_root(self, root: Node) -> LayoutDoc:
        """A copy where the active layout's tree root is `root`."""
        return self.with_layout(self.active.with_root(root))


def default_layout_doc(new_id: Callable[[], str]) -> LayoutDoc:
    """One layout "Default" of kind "terminal" holding one empty leaf; ids from `new_id()`."""
    layout = Layout(id=new_id(), name="Default", kind="terminal",
                    tree=LayoutTree(root=Leaf(id=new_id())))
    return LayoutDoc(version=LAYOUTS_VERSION, active_id=layout.id, layouts=(layout,))

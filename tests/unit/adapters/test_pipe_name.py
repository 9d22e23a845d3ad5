"""The Windows endpoint's pipe names (`app/adapters/endpoint/pipe_name.py`), pure: checked here
on every platform."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.adapters.endpoint.naming import project_digest
from app.adapters.endpoint.pipe_name import (
    MAX_USER_CHARS,
    PIPE_PREFIX,
    pipe_name,
    pipe_namespace,
    user_label,
)
from app.adapters.endpoint.socket_dir import socket_name


def test_a_pipe_is_named_after_the_user_and_the_project() -> None:
    root = "C:\\Users\\jean\\code\\shop"
    name = pipe_name(pipe_namespace("Jean Dupont"), root)
    assert name == "\\\\.\\pipe\\idea-jean_dupont-" + project_digest(root)
    assert name.startswith(PIPE_PREFIX) and len(project_digest("x")) == 16


def test_the_project_part_is_the_socket_s_digest_of_the_clean_root() -> None:
    assert pipe_name("n", "/work/p/").endswith("-" + socket_name("/work/p").removesuffix(".sock"))
    assert pipe_name("n", "/work/p") != pipe_name("n", "/work/q")
    assert pipe_name("a", "/work/p") != pipe_name("b", "/work/p")


@pytest.mark.parametrize(("user", "label"), [
    ("alice", "alice"), ("ALICE", "alice"), ("Jean Dupont", "jean_dupont"),
    ("dom\\user", "dom_user"), ("Élodie", "élodie"), ("a\tb/c:d", "a_b_c_d"), ("***", "user"), ("", "user"),
    ("a.b-c_d", "a.b-c_d"), ("x" * 99, "x" * MAX_USER_CHARS)])
def test_user_labels_keep_only_safe_characters(user: str, label: str) -> None:
    assert user_label(user) == label


@pytest.mark.parametrize("namespace", ["", "a\\b"])
def test_a_namespace_with_a_backslash_or_empty_is_refused(namespace: str) -> None:
    with pytest.raises(ValueError, match="namespace"):
        pipe_name(namespace, "/work/p")


@given(user=st.text(max_size=300), root=st.text(min_size=1, max_size=300))
def test_every_name_is_a_valid_local_pipe_name(user: str, root: str) -> None:
    name = pipe_name(pipe_namespace(user), root)
    rest = name.removeprefix(PIPE_PREFIX)
    assert name.startswith(PIPE_PREFIX) and "\\" not in rest and len(name) <= 256
    assert rest.startswith("idea-") and rest == rest.lower() and not any(c.isspace() for c in rest)

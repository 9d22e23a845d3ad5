"""Door 3 (SPEC C8, docs/contracts.md §7.5-§7.6): the `idea` command agents run (`agent_cli`,
thin stdlib clients of the project endpoint through `endpoint_client`) and the server side of
the endpoint (`endpoint_door`: the handshake check and the one-command exchange).

Keep this package's `__init__` empty of imports: the agent commands must start fast, without
pydantic or the `mcp` SDK."""

"""Door 2 (SPEC C8, docs/contracts.md §7.5): the MCP server IdeA offers every agent, one MCP
session per endpoint connection (`session`, `server`, `tools`), and `relay`, the stdio ↔
endpoint bridge the agent's CLI launches as `idea mcp-server`.

Keep this package's `__init__` empty of imports: the relay must start without pydantic or the
`mcp` SDK."""

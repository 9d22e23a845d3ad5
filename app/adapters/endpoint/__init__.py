"""The project endpoint (docs/contracts.md §7.5): what agents' `idea` command and MCP relay
connect to. `unix_socket.UnixSocketEndpointHost` on POSIX; a named-pipe host on Windows is to
come. `wire` is the first-line format both share."""

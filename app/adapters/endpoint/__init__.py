"""The project endpoint (docs/contracts.md §7.5): what agents' `idea` command and MCP relay
connect to. `unix_socket.UnixSocketEndpointHost` on POSIX, `named_pipe.NamedPipeEndpointHost`
on Windows, both over `host_base.EndpointHostBase`; `wire` is the first-line format they share."""

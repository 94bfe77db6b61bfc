"""The online service: lobby, tables, clocks, storage and the websocket protocol (asyncio).

Start it with ``batak serve`` (or :func:`batak.server.serve.run`); talk to it from Python with
:class:`batak.server.client.Client`. The protocol is in ``docs/protocol.md``. This package needs
the server extras (Starlette, uvicorn, websockets); the engine does not.
"""

from __future__ import annotations

from .config import MODES, ServerConfig

__all__ = ["MODES", "ServerConfig"]

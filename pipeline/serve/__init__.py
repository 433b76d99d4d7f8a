"""`claims serve`: a local, read-only web app over the warehouse (docs/serve.md).

Pages for the claims (facets, search, sort, paging, export), the documents (stored text
with every claim highlighted), a claim's trace, the warehouse's views, a check box and a
read-only SQL box; Starlette routes rendering Jinja templates, served by uvicorn. No
JavaScript at all: every page is plain HTML and CSS, and works offline.
"""
from __future__ import annotations

import ipaddress
import sys

from pipeline.serve.app import LOOPBACK_HOSTS, SQL_TIMEOUT, Settings, create_app

__all__ = ["Settings", "create_app", "is_loopback", "run", "SQL_TIMEOUT"]


def is_loopback(host: str) -> bool:
    """Does binding ``host`` keep the server on this machine?"""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int):
    """A listening socket on (host, port); port 0 takes a free one. OSError when the port
    is taken or the address is not this machine's (said before anything is served)."""
    import socket

    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def run(db: str | None, host: str, port: int, sql_timeout: float = SQL_TIMEOUT) -> None:
    """Open the warehouse read-only and serve it until Ctrl-C. A host that is not loopback
    is served as asked, with a warning; on loopback only requests naming a loopback host
    are answered (a web page cannot reach the server through a DNS name rebound to it)."""
    import uvicorn

    if is_loopback(host):
        allowed = tuple(LOOPBACK_HOSTS)
    else:
        print(f"warning: serving on {host}: anyone who can reach this machine on port {port} "
              "can read the whole warehouse (the app is read-only, but nothing asks who is "
              "asking)", file=sys.stderr)
        allowed = ("*",)
    app = create_app(Settings(db=db, sql_timeout=sql_timeout, allowed_hosts=allowed))
    try:
        sock = listen(host, port)
    except OSError:
        app.state.server.close()
        raise
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    print(f"serving {app.state.server.store.path} read-only at http://{shown}:{bound}/ "
          "(Ctrl-C stops)", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            server_header=False)
    uvicorn.Server(config).run(sockets=[sock])

"""Leases on the local model server: which live processes still use the server on a port (file bookkeeping).

Each process that uses the server leaves an empty file named by its pid under
`<home>/run/model-server-<port>/` (`drowzee_core.llm.server` takes and drops them and stops the server
when no holder is alive). A lease of a process that is gone is cleared the next time leases are read.
"""

from __future__ import annotations

import os
from pathlib import Path

from drowzee_core.config import home


def lease_dir(port: int) -> Path:
    """Where the processes using the local server on `port` leave their leases."""
    return home() / "run" / f"model-server-{port}"


def take_lease(port: int, pid: int | None = None) -> None:
    """Record that process `pid` (default: this one) uses the server on `port`."""
    folder = lease_dir(port)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / str(pid or os.getpid())).touch()


def release_lease(port: int, pid: int | None = None) -> None:
    """Drop the lease of process `pid` (default: this one)."""
    (lease_dir(port) / str(pid or os.getpid())).unlink(missing_ok=True)


def live_leases(port: int) -> list[int]:
    """Pids of the live processes holding a lease on `port` (leases of dead processes are removed)."""
    folder = lease_dir(port)
    alive = []
    for entry in folder.iterdir() if folder.is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            os.kill(int(entry.name), 0)
        except ProcessLookupError:
            entry.unlink(missing_ok=True)
            continue
        except PermissionError:  # alive, another user's process
            pass
        alive.append(int(entry.name))
    return sorted(alive)


__all__ = ["lease_dir", "live_leases", "release_lease", "take_lease"]

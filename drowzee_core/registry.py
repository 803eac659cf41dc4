"""Registries: producers and oracles by name, so every output records what produced it and can be re-run.

A `Registry` maps a stable name to a value (a factory, a spec, a function) with a one-line
description. Looking up an unknown name raises `RegistryError` listing the known names. Registries
that hold producers (generators, scorers) give each entry a producer name (`generate.factchd`,
`score.drowzee`) that the provenance sidecar of every file it writes records.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from drowzee_core.errors import RegistryError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Entry(Generic[T]):
    """One registered value with its name, description and producer name."""

    name: str
    description: str
    value: T
    producer: str


class Registry(Generic[T]):
    """Name -> value with a description; names are unique and lookups of unknown names say what exists."""

    def __init__(self, kind: str, prefix: str | None = None) -> None:
        """Create an empty registry.

        Args:
            kind: What the entries are, for messages ("generator", "scorer").
            prefix: Producer-name prefix (`generate` gives `generate.<name>`); None uses the bare name.

        """
        self.kind = kind
        self.prefix = prefix
        self._entries: dict[str, Entry[T]] = {}

    def add(self, name: str, value: T, description: str) -> T:
        """Register `value` under `name` and return it; a name registered twice is an error."""
        if not name or name != name.strip():
            raise RegistryError(f"{self.kind} name must be non-empty without surrounding spaces, got {name!r}")
        if name in self._entries:
            raise RegistryError(f"{self.kind} {name!r} is registered twice; choose another name")
        if not description.strip():
            raise RegistryError(f"{self.kind} {name!r} needs a description")
        producer = f"{self.prefix}.{name}" if self.prefix else name
        self._entries[name] = Entry(name, description.strip(), value, producer)
        return value

    def entry(self, name: str) -> Entry[T]:
        """The entry registered as `name`; unknown names raise RegistryError listing the known ones."""
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            raise RegistryError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def get(self, name: str) -> T:
        """The value registered as `name` (see `entry`)."""
        return self.entry(name).value

    def producer(self, name: str) -> str:
        """The producer name recorded in provenance for `name`."""
        return self.entry(name).producer

    def names(self) -> tuple[str, ...]:
        """Registered names, sorted."""
        return tuple(sorted(self._entries))

    def descriptions(self) -> dict[str, str]:
        """Name -> description, sorted by name."""
        return {n: self._entries[n].description for n in self.names()}

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[Entry[T]]:
        return iter(self._entries[n] for n in self.names())

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["Entry", "Registry"]

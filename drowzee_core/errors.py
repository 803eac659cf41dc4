"""The project's exception hierarchy: every message says what went wrong and how to fix it."""


class DrowzeeError(Exception):
    """Base class of all errors raised on purpose by Drowzee Triangulator."""


class CatalogError(DrowzeeError):
    """The relation catalog is invalid (unknown relation, bad property combination, bad template)."""


class KBError(DrowzeeError):
    """The knowledge base store cannot do what was asked (missing file, unknown entity...)."""


class KBMissingError(KBError):
    """No knowledge base file where one was expected (the message says how to make one)."""


class LoadError(KBError):
    """A source file cannot be read at all (as opposed to a bad row, which is reported and skipped)."""


class LogicError(DrowzeeError):
    """The Prolog engine failed or was asked something it cannot answer."""


class PrologUnavailableError(LogicError):
    """SWI-Prolog or janus-swi is not installed or too old."""


class RegistryError(DrowzeeError):
    """A producer or oracle name is unknown or registered twice (the message lists the known names)."""

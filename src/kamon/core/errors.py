"""Errors every game and tool shares; each carries a message a person can act on."""


class KamonError(Exception):
    """Base class of kamon's own errors."""


class IllegalAction(KamonError):
    """An action that is not legal now; the state it was offered to is unchanged."""


class RecordError(KamonError):
    """A game record (or state JSON) that is malformed or does not replay."""


class DataError(KamonError):
    """A game's component data (or an overlay over it) is malformed."""

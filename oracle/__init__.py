"""mb-oracle: the rules authority for Mindbug."""

__version__ = "0.1.0"


def compiled_modules() -> list[str]:
    """The modules this installation runs compiled (mypyc); empty for pure Python (oracle.native)."""
    from .native import compiled_modules as found

    return found()

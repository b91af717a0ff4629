"""mb-oracle: the rules authority for Mindbug."""

__version__ = "0.1.0"

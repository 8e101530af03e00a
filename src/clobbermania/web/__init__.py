"""The local web application of ``clobbermania serve`` (docs/web.md)."""

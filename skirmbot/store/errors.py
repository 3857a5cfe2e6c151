"""The store's errors, for callers and both database backends."""


class StoreError(Exception):
    """Something went wrong in the store (base class of every store error)."""


__all__ = ["StoreError"]

"""What convopt knows about op names: kept for the modules that import from
here; each op's knowledge is its definition in `convopt.dialects`."""

from __future__ import annotations

from .dialects import has_extra_properties, is_pure, lookup
from .ir.attributes import DYNAMIC_INDEX

__all__ = ["DYNAMIC_INDEX", "has_extra_properties", "is_pure", "lookup"]

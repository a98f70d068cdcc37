"""The call language: Russian words in, a checked Call (or a Refusal) out."""

from .call import Call, CallFormatError, Pocket

__all__ = ["Call", "CallFormatError", "Pocket"]

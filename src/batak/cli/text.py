"""The texts of the ``batak`` command: catalog entries whose keys start with ``cli.``.

:func:`t` is :func:`batak.i18n.text` with that prefix. Game words stay Turkish in every language
(koz, ihale, pas, batak, yazboz).

>>> t("you", "tr"), t("computer", "en", n=2)
('Sen', 'Computer 2')
"""

from __future__ import annotations

from typing import Any

from ..i18n import text

__all__ = ["t"]


def t(code: str, lang: str, /, **params: Any) -> str:
    """The command's text ``code`` in ``lang``."""
    return text(f"cli.{code}", lang, **params)

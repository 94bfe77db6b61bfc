"""The web client: JavaScript modules, styles and images in ``static/``, served by ``batak serve``.

There is no build step and nothing to install. The data behind its rules pages and the
private-room form comes from :func:`batak.explain.rules_catalog` through ``GET /api/rules``;
what the form offers at each preset from :func:`batak.explain.form_catalog` through ``GET
/api/rules/form``, fetched when a player first uses the form.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR"]

STATIC_DIR = Path(__file__).with_name("static")

"""Compile the catalog: ``locale/*/LC_MESSAGES/batak.po`` to ``.mo``, and ``batak.pot`` itself to
the English ``locale/en/LC_MESSAGES/batak.mo`` (each text its own translation).

This is a build tool: it needs Babel (a build requirement, and in the ``test`` extra), and the
package's build (``setup.py``) runs it, so ``pip install`` (also ``-e``) leaves compiled texts
behind. By hand, after editing a ``.po`` file::

    python -m batak.i18n.build

It reads no other part of the package, so the build can load it by its path.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "batak"
SOURCE_LANG = "en"


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def source_catalog(locale_dir: Path = LOCALE_DIR) -> Catalog:
    """The template with every English text as its own translation."""
    cat = read_catalog(locale_dir / f"{DOMAIN}.pot", SOURCE_LANG)
    for message in cat:
        if message.id:
            message.string = message.id
    return cat


def po_files(locale_dir: Path = LOCALE_DIR) -> dict[str, Path]:
    """``{lang: path of its .po}`` for every translation."""
    return {p.parent.parent.name: p for p in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def compiled(locale_dir: Path = LOCALE_DIR) -> dict[Path, bytes]:
    """What the build writes: the relative path of each ``.mo`` and its bytes."""
    out = {
        Path(SOURCE_LANG, "LC_MESSAGES", f"{DOMAIN}.mo"): mo_bytes(source_catalog(locale_dir)),
    }
    for lang, po in po_files(locale_dir).items():
        if lang != SOURCE_LANG:
            out[Path(lang, "LC_MESSAGES", f"{DOMAIN}.mo")] = mo_bytes(read_catalog(po, lang))
    return out


def build(locale_dir: Path = LOCALE_DIR, target: Path | None = None) -> list[Path]:
    """Write every compiled ``.mo`` under ``target`` (default: next to the sources)."""
    written = []
    for rel, data in compiled(locale_dir).items():
        path = (target or locale_dir) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(path)
    return written


def main() -> int:
    for path in build():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

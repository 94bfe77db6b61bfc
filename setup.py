"""Build steps beyond pyproject.toml: the optional compiled solver, and the compiled texts.

``batak.bots._csolver`` is a plain C99 extension (Python C API only). It is optional: where no
C compiler (or no Python headers) is available the build prints a warning, the package installs
without it, and :mod:`batak.bots.solver` falls back to its pure-Python search.

The texts (``src/batak/i18n/locale``: the English template ``batak.pot`` and one ``.po`` per
language) are compiled to gettext ``.mo`` files with Babel by :mod:`batak.i18n.build`, loaded
here by its path so the build needs nothing else of the package. An editable install
(``pip install -e .``) writes them next to their sources; a wheel carries them.
"""

import importlib.util
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LOCALE = HERE / "src" / "batak" / "i18n" / "locale"


def _texts_builder():
    spec = importlib.util.spec_from_file_location("_batak_i18n_build", LOCALE.parent / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithTexts(build_py):
    """build_py, then compile the catalog into the build (or the source tree when editable)."""

    def run(self):
        super().run()
        editable = getattr(self, "editable_mode", False)
        target = LOCALE if editable else Path(self.build_lib) / "batak" / "i18n" / "locale"
        for path in _texts_builder().build(LOCALE, target):
            self.announce(f"compiled {path}", level=2)


setup(
    cmdclass={"build_py": BuildWithTexts},
    ext_modules=[
        Extension(
            "batak.bots._csolver",
            sources=["src/batak/bots/_csolver.c"],
            optional=True,
        )
    ],
)

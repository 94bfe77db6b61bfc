"""Build the optional compiled solver; every other setting lives in pyproject.toml.

``batak.bots._csolver`` is a plain C99 extension (Python C API only). It is optional: where no
C compiler (or no Python headers) is available the build prints a warning, the package installs
without it, and :mod:`batak.bots.solver` falls back to its pure-Python search.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "batak.bots._csolver",
            sources=["src/batak/bots/_csolver.c"],
            optional=True,
        )
    ]
)

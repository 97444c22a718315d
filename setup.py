"""The optional compiled parts of Parlour: SCOUT's observation and mask for the research
interfaces (``parlour.bots.scout._ccodec``) and the SCOUT bots' hand arithmetic
(``parlour.bots.scout._cheur``). Everything else is in pyproject.toml.

Without a C compiler (or Python's headers) the build skips them and the pure-Python versions
are used, which give the same results (README, "For researchers", "Throughput", and "Many
processes").
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "parlour.bots.scout._ccodec",
            ["src/parlour/bots/scout/_ccodec.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "parlour.bots.scout._cheur",
            ["src/parlour/bots/scout/_cheur.c", "src/parlour/bots/scout/_cheur_search.c"],
            depends=["src/parlour/bots/scout/_cheur.h"],
            # the same doubles as Python's: no fused multiply-add
            extra_compile_args=["-O2", "-ffp-contract=off"],
            libraries=["m"],
            optional=True,
        ),
    ]
)

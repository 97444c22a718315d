"""The optional compiled part of Parlour: SCOUT's observation and mask for the research
interfaces (``parlour.bots.scout._ccodec``). Everything else is in pyproject.toml.

Without a C compiler (or Python's headers) the build skips it and installs the pure-Python
encoder, which gives the same bytes (README, "For researchers", "Throughput").
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "parlour.bots.scout._ccodec",
            ["src/parlour/bots/scout/_ccodec.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)

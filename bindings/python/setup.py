"""Builds the C library (the crate capi/ of this repository) with cargo and
puts it in the package beside slicc_scrub/__init__.py, which loads it with
ctypes. The rest of the metadata is in pyproject.toml."""

from setuptools import setup
from setuptools_rust import Binding, RustExtension

setup(
    rust_extensions=[
        RustExtension(
            # The file lands as slicc_scrub/libslicc_scrub.abi3.so (.pyd on
            # Windows): no Python ABI in it, so one wheel serves every
            # CPython 3.8 and later.
            "slicc_scrub.libslicc_scrub",
            path="../../capi/Cargo.toml",
            binding=Binding.NoBinding,
            py_limited_api=True,
            args=["--locked"],
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp38"}},
    zip_safe=False,
)

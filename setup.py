"""Packaging's one computed part: the packages. The card's five layers sit at the
repository root and install inside the one import name ``dynval`` (pyproject.toml's
``package-dir``: ``dynval.robots`` is ``robots/``, ...); every package below them is found
here, so a robot's new folders need no packaging line."""

from setuptools import find_packages, setup

LAYERS = ("robots", "handrolled", "engines", "comparisons", "reports")  # = dynval._layout

setup(packages=["dynval", *(f"dynval.{layer}" for layer in LAYERS),
                *(f"dynval.{layer}.{sub}" for layer in LAYERS for sub in find_packages(layer))])

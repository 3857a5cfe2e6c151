"""Which packages skirmbot installs, and from where (the rest of the metadata is in pyproject.toml).

The slash-command cogs and the SQL migrations keep their top-level folders in the repository but
install as ``skirmbot.cogs`` and ``skirmbot.migrations``: the installed distribution owns only the
``skirmbot`` name, so no other project's ``cogs`` or ``migrations`` collides with ours.
pyproject.toml cannot add mapped folders to the packages it finds, hence this file.
"""

from setuptools import find_packages, setup

MAPPED = {"skirmbot.cogs": "cogs", "skirmbot.migrations": "migrations"}

setup(
    packages=find_packages(include=["skirmbot", "skirmbot.*"]) + list(MAPPED),
    package_dir=MAPPED,
)

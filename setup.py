"""Which packages skirmbot installs, and from where (the rest of the metadata is in pyproject.toml).

The slash-command cogs and the SQL migrations keep their top-level folders in the repository but
install as ``skirmbot.cogs`` and ``skirmbot.migrations``: the installed distribution owns only the
``skirmbot`` name, so no other project's ``cogs`` or ``migrations`` collides with ours.
pyproject.toml cannot add mapped folders to the packages it finds, hence this file.
"""

from setuptools import find_namespace_packages, setup

MAPPED = {
    "skirmbot.cogs": "cogs",
    "skirmbot.migrations": "migrations",
    "skirmbot.migrations.postgresql": "migrations/postgresql",
}

setup(
    # Namespace packages too: the content's data folders (maps/, missions/, squads/) are then
    # packages of their own, as setuptools expects of folders that hold package data.
    packages=find_namespace_packages(include=["skirmbot", "skirmbot.*"], exclude=["*.__pycache__"])
    + list(MAPPED),
    package_dir=MAPPED,
)

"""`python -m tysh`: the `tysh` command (see bin/tysh), its import cache first."""

import tysh
from tysh.kernel.base.importcache import install

install("tysh", tysh.__path__[0])

from tysh.cli import entry  # noqa: E402  (after the cache: it serves this import on)

entry()

"""Start a private PostgreSQL server for the test run (pip's ``pgserver``: no system service, no network).

``python .ci/postgres.py DIR`` starts (or reuses) a server with its data in DIR and prints its
SQLAlchemy URL (``postgresql+asyncpg://...``); ``python .ci/postgres.py DIR --stop`` stops it.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path


def main(argv: list[str]) -> int:
    """Start or stop the server in ``argv[0]``."""
    warnings.simplefilter("ignore")
    import pgserver

    folder = Path(argv[0]).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(folder, cleanup_mode=None)
    if "--stop" in argv:
        server.cleanup()
        return 0
    uri = server.get_uri()  # postgresql://postgres:@/postgres?host=/tmp/...
    print(uri.replace("postgresql://", "postgresql+asyncpg://", 1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A separate process for the crash tests: ``ingest`` (to be killed), ``check``, ``rerun``.

Run as ``python -m tests.reliability.crash_child <command> <collection> <directory>``
with ``RAG_DATA_DIR`` set; prints ``STARTED`` once the ingest job is recorded,
and one JSON line with the result for ``check`` and ``rerun``.
"""

from __future__ import annotations

import json
import sys


def main(command: str, collection: str, directory: str) -> int:
    from services.container import build_services
    from services.ingest.requests import directory_request
    from services.settings import get_settings
    from tests.reliability.consistency import problems, snapshot

    svc = build_services(get_settings())
    if command == "ingest":
        started = []

        def on_progress(_: dict) -> None:
            if not started:
                started.append(True)
                print("STARTED", flush=True)

        svc.ingestion.run(directory_request(collection, directory, settings=svc.settings), on_progress)
        print("FINISHED", flush=True)
        return 0
    svc.jobs.reap_stale()
    before = snapshot(svc, collection)
    out = {"before": before, "before_problems": problems(before)}
    if command == "rerun":
        result = svc.ingestion.run(directory_request(collection, directory, settings=svc.settings))
        after = snapshot(svc, collection)
        out.update(status=result.status, after=after, after_problems=problems(after, allow_failed=False))
    print(json.dumps(out, default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))

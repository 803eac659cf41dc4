"""Drowzee Triangulator's server: the Gradio UI at `/` and the JSON API at `/api` (docs at `/docs`).

    python app.py [--host 127.0.0.1] [--port 7860]

Settings come from options, then `DROWZEE_SERVICE_*` variables, then defaults (`service/settings.py`).
Binding beyond loopback needs `DROWZEE_API_TOKEN`. The code lives in `service/`.
"""

from __future__ import annotations

import argparse
import logging
import sys

log = logging.getLogger("drowzee.app")


def main(argv: list[str] | None = None) -> int:
    """Parse the options and serve until interrupted; 2 when the settings are refused."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", help="interface to bind (default 127.0.0.1; beyond loopback needs a token)")
    parser.add_argument("--port", type=int, help="TCP port (default 7860)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    import uvicorn

    from service import ServiceError, ServiceSettings, create_app

    try:
        settings = ServiceSettings.load({"host": args.host, "port": args.port})
        app = create_app(settings)
    except ServiceError as exc:
        log.error("%s", exc)
        return 2
    log.info("Drowzee Triangulator on http://%s:%d (UI at /, API docs at /docs)", settings.host, settings.port)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info")
    return 0


if __name__ == "__main__":
    sys.exit(main())

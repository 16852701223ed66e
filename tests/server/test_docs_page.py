"""/docs, the API's Swagger UI, is served from the package (fastapi-offline's copy), not a
CDN: in Debian's chromium, against a real server, the page draws the API's routes under
its own strict Content-Security-Policy with no error, and every request it makes stays on
the server's origin (where the pages keep seat tokens). `kamon serve --no-docs` serves
neither /docs nor /openapi.json.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kamon.server.app import create_app

CHROMIUM = os.environ.get("KAMON_CHROMIUM", "/usr/bin/chromium")


def test_the_docs_page_draws_the_api_from_this_origin_only(serve: Any) -> None:
    """Swagger UI lists the API's routes; its script, styles and icon come from
    /docs/assets; nothing is fetched from another origin; no console error (a CSP
    violation is one)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"chromium is not installed at {CHROMIUM}: run scripts/system-deps.sh")
    srv = serve()
    requested: list[str] = []
    errors: list[str] = []

    def browse() -> list[str]:
        """Open /docs in chromium and read the routes it lists."""
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                page.on("request", lambda r: requested.append(r.url))
                page.on("console",
                        lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(srv.url + "/docs")
                page.wait_for_selector(".opblock-summary-path", timeout=30_000)
                return list(page.locator(".opblock-summary-path").all_inner_texts())
            finally:
                browser.close()

    # In a thread of its own: a test worker that already ran the browser tests keeps the
    # session's Playwright loop running in its main thread, where a second sync
    # Playwright refuses to start.
    with ThreadPoolExecutor(1) as pool:
        paths = pool.submit(browse).result()
    assert any("/api/games" in p for p in paths), paths
    assert srv.url + "/docs/assets/swagger-ui-bundle.js" in requested
    assert all(u.startswith(srv.url + "/") or u.startswith("data:") for u in requested), \
        [u for u in requested if not u.startswith(srv.url)]
    assert errors == []


def test_no_docs_serves_neither_the_page_nor_the_schema(tmp_path: Path) -> None:
    """With docs off (a public server that wants no API browser), /docs, its assets and
    /openapi.json are 404 in the API's shape; the API itself is served."""
    app = create_app(str(tmp_path / "k.db"), bot_workers=0, bot_delay=0, rate=0, docs=False)
    with TestClient(app) as c:
        for path in ("/docs", "/openapi.json", "/docs/assets/swagger-ui.css"):
            r = c.get(path)
            assert r.status_code == 404, path
        assert c.get("/api/catalog").status_code == 200

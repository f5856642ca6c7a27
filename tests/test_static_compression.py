"""Production's static files: hashed names cached forever, each with its brotli and gzip copy
made once by `collectstatic`, served by whitenoise in the coding the browser asks for."""

from __future__ import annotations

import json

from test_production import checkout, manage  # noqa: F401 - checkout is a fixture

ASK = """
import json
from django.test import Client
from django.templatetags.static import static
client = Client(HTTP_HOST="basilica.example")
site_css = static("css/site.css")
answers = {}
for coding in ("gzip, deflate, br", "gzip", ""):
    r = client.get(site_css, secure=True, HTTP_ACCEPT_ENCODING=coding)
    answers[coding] = {k: r.get(k) for k in ("Content-Encoding", "Cache-Control", "Vary")}
    answers[coding]["status"] = r.status_code
page = client.get("/rules/", secure=True, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
answers["page"] = {"status": page.status_code, "Content-Encoding": page.get("Content-Encoding")}
print(json.dumps({"url": site_css, "answers": answers}))
"""


def test_production_serves_hashed_static_files_in_brotli_cached_forever(checkout):  # noqa: F811
    collected = manage(checkout, "collectstatic", "--noinput")
    assert collected.returncode == 0, collected.stderr
    root = checkout / "staticfiles"
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    for name in ("css/site.css", "js/game.js", "img/pieces.svg"):
        hashed = root / manifest[name]
        assert hashed.name != name.split("/")[-1]
        assert (root / (manifest[name] + ".br")).exists(), name
        assert (root / (manifest[name] + ".gz")).exists(), name

    asked = manage(checkout, "shell", "-c", ASK)
    assert asked.returncode == 0, asked.stderr
    found = json.loads(asked.stdout.strip().splitlines()[-1])
    assert found["url"] == f"/static/{manifest['css/site.css']}"
    answers = found["answers"]
    assert answers["gzip, deflate, br"]["Content-Encoding"] == "br"
    assert answers["gzip"]["Content-Encoding"] == "gzip"
    assert answers[""]["Content-Encoding"] is None
    for answer in answers.values():
        assert answer["status"] == 200
    for coding in ("gzip, deflate, br", "gzip", ""):
        assert "immutable" in answers[coding]["Cache-Control"]
        assert "max-age=315360000" in answers[coding]["Cache-Control"]
        assert "Accept-Encoding" in answers[coding]["Vary"]
    assert answers["page"] == {"status": 200, "Content-Encoding": "br"}

"""Multipart bodies the form parser would read as an empty form are a 400, never "saved".

The on-demand stop and the schedule routes took such a body as a form with nothing in it
and answered as if the request was done. A part without a name (found by fuzzing the
upload routes) was a 500.
"""

from __future__ import annotations

import pytest

ROUTES = ("/api/v3/display/on-demand/stop", "/api/v3/config/schedule",
          "/api/v3/config/dim-schedule")
FIELD = b'--xyz\r\nContent-Disposition: form-data; name="enabled"\r\n\r\ntrue\r\n'
GARBAGE = {
    "no boundary": ("multipart/form-data", FIELD + b"--xyz--\r\n"),
    "empty boundary": ("multipart/form-data; boundary=", FIELD + b"--xyz--\r\n"),
    "not multipart": ("multipart/form-data; boundary=xyz", b"garbage"),
    "binary": ("multipart/form-data; boundary=xyz", b"\xff\xfe" * 200),
    "never closed": ("multipart/form-data; boundary=xyz", FIELD),
    "no part": ("multipart/form-data; boundary=xyz", b"--xyz\r\n\r\n\r\n--xyz--\r\n"),
    "a part without a name": ("multipart/form-data; boundary=xyz",
                              b"--xyz\r\nContent-Disposition: form-data\r\n\r\nv\r\n--xyz--\r\n"),
    "a name with a line break": ("multipart/form-data; boundary=xyz",
                                 b'--xyz\r\nContent-Disposition: form-data; name="a\rb"\r\n'
                                 b"\r\nv\r\n--xyz--\r\n"),
}
# Routes that read any form body (not only the schedule forms): a nameless part was a 500.
BODY_ROUTES = ("/api/v3/config/main", "/api/v3/cache/clear")


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("kind", sorted(GARBAGE))
def test_garbage_multipart_bodies_answer_400_with_an_error_code(web, route: str,
                                                                kind: str) -> None:
    before = web.config()
    content_type, data = GARBAGE[kind]
    answer = web.client.post(route, data=data, content_type=content_type)
    assert answer.status_code == 400, answer.get_data(as_text=True)
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == "INVALID_FORM", body
    assert "multipart" in body["message"]
    assert web.config() == before
    assert not list(web.paths.cache_dir.glob("display_on_demand_request@*"))


NAMELESS = (b'--xyz\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n'
            b'--xyz\r\nContent-Disposition: form-data; name="plugin_zip"; filename="p.zip"'
            b'\r\nContent-Type: application/zip\r\n\r\nPK\r\n--xyz--\r\n')


@pytest.mark.parametrize("route", (*ROUTES, *BODY_ROUTES, "/api/v3/plugins/install/upload",
                                   "/api/v3/starlark/upload"))
def test_a_multipart_field_without_a_name_is_a_400_not_a_server_error(web, route: str) -> None:
    before = web.config()
    answer = web.client.post(route, data=NAMELESS, content_type="multipart/form-data; boundary=xyz")
    assert answer.status_code == 400, answer.get_data(as_text=True)
    body = answer.get_json()
    assert body["error_code"] == "INVALID_FORM" and "without a name" in body["message"], body
    assert web.config() == before

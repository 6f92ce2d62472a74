"""shared/history.py: one file per daemon, bounded, never interleaved, never followed out."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from shared.history import (
    DISPLAY,
    MAX_LINE,
    WEB,
    HistoryReader,
    HistoryWriter,
    history_dir,
)


def test_a_file_past_its_bound_is_rotated_keeping_one_older(tmp_path: Path) -> None:
    folder = history_dir(tmp_path)
    writer = HistoryWriter(folder, DISPLAY, max_bytes=4096)
    for n in range(200):
        writer.plugin_event("clock", "loaded", f"run {n}")
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["display.jsonl", "display.jsonl.1"]
    assert all((folder / name).stat().st_size <= 4096 for name in files)
    entries, more = HistoryReader(folder, max_bytes=4096).entries(limit=1000)
    assert not more and entries[0]["detail"] == "run 199"
    details = [e["detail"] for e in entries]
    assert details == [f"run {n}" for n in range(199, 199 - len(details), -1)]


def test_threads_appending_at_once_leave_whole_lines_with_distinct_ids(tmp_path: Path) -> None:
    writer = HistoryWriter(history_dir(tmp_path), WEB)

    def burst(n: int) -> None:
        for i in range(100):
            writer.record("api", "plugins.toggle", "success", method="POST",
                          path=f"/api/v3/t{n}/{i}", status=200)

    threads = [threading.Thread(target=burst, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    lines = (history_dir(tmp_path) / "web.jsonl").read_text().splitlines()
    assert len(lines) == 800
    assert len({json.loads(line)["id"] for line in lines}) == 800


def test_long_fields_are_cut_so_a_line_stays_one_small_write(tmp_path: Path) -> None:
    writer = HistoryWriter(history_dir(tmp_path), WEB)
    entry = writer.record("api", "x" * 5000, "error", plugin_id="p" * 500, method="POST",
                          path="/api/v3/" + "y" * 5000, error_code="E" * 5000,
                          client="c" * 5000, body="never stored")
    assert entry is not None and "body" not in entry and entry["plugin_id"] is None
    line = (history_dir(tmp_path) / "web.jsonl").read_bytes()
    assert len(line) < MAX_LINE and line.endswith(b"\n") and line.count(b"\n") == 1


def test_a_symlink_in_place_of_the_file_is_not_followed(tmp_path: Path) -> None:
    folder = history_dir(tmp_path)
    folder.mkdir()
    target = tmp_path / "system-file"
    target.write_text("precious\n")
    (folder / "display.jsonl").symlink_to(target)
    writer = HistoryWriter(folder, DISPLAY)
    assert writer.record("plugin", "loaded", "success", plugin_id="clock") is None
    assert target.read_text() == "precious\n"
    (folder / "display.jsonl").unlink()
    assert writer.record("plugin", "loaded", "success", plugin_id="clock") is not None

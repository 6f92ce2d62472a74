"""The render loop's figures and the ``display_metrics`` record: written only while read."""

from __future__ import annotations

from pathlib import Path

from display_service.loop.metrics import PUBLISH_INTERVAL, LoopMetrics, MetricsPublisher
from display_service.state import BusWriter
from shared.bus.core import DISPLAY_METRICS, METRICS_VIEWER, Bus


class Cache:
    def hit_counts(self) -> tuple[int, int]:
        return 3, 1


def make(tmp_path: Path, clock: list[float]) -> tuple[Bus, BusWriter, LoopMetrics,
                                                      MetricsPublisher]:
    bus = Bus(tmp_path)
    writer = BusWriter(bus)
    figures = LoopMetrics()
    return bus, writer, figures, MetricsPublisher(bus, writer, figures, lambda: clock[0], Cache)


def test_frames_quantiles_dropped_and_per_plugin_times() -> None:
    figures = LoopMetrics()
    for took in (0.001, 0.002, 0.003, 0.004, 0.1):
        figures.frame("clock", took, interval=0.05)
    figures.update("clock", 0.25)
    figures.update("clock", 0.75)
    snap = figures.snapshot(fps=9.5)
    assert snap["frames"] == {"drawn": 5, "dropped": 1, "fps": 9.5,
                              "frame_seconds_p50": 0.003, "frame_seconds_p95": 0.1}
    assert snap["plugins"]["clock"] == {
        "display_calls": 5, "display_seconds": 0.11, "display_max_seconds": 0.1,
        "update_calls": 2, "update_seconds": 1.0, "update_max_seconds": 0.75}


def test_the_quantiles_are_nearest_rank() -> None:
    figures = LoopMetrics()
    for took in range(1, 101):  # 1..100 ms
        figures.frame("clock", took / 1000, interval=1.0)
    frames = figures.snapshot(fps=1.0)["frames"]
    assert (frames["frame_seconds_p50"], frames["frame_seconds_p95"]) == (0.05, 0.095)
    two = LoopMetrics()
    for took in (0.001, 0.002):
        two.frame("clock", took, interval=1.0)
    assert two.snapshot(fps=1.0)["frames"]["frame_seconds_p50"] == 0.001


def test_nothing_is_written_until_someone_reads_the_metrics(tmp_path: Path) -> None:
    clock = [1000.0]
    bus, writer, figures, publisher = make(tmp_path, clock)
    figures.frame("clock", 0.01, 1.0)
    publisher.refresh_viewer()  # no mark on the bus
    assert publisher.maybe_publish(5.0, 1.0) is False
    assert publisher.next_due() is None
    writer.close()
    assert bus.read(DISPLAY_METRICS) is None


def test_a_reader_gets_a_record_at_once_then_at_most_every_interval_and_only_changed(
        tmp_path: Path) -> None:
    clock = [1000.0]
    bus, writer, figures, publisher = make(tmp_path, clock)
    bus.publish(METRICS_VIEWER, {"until": 1060.0, "written_at": 999.5})
    figures.frame("clock", 0.01, 1.0)
    publisher.refresh_viewer()
    assert publisher.maybe_publish(5.0, 1.0) is True
    writer.flush()
    record = bus.read(DISPLAY_METRICS)
    assert record is not None
    assert record["frames"]["drawn"] == 1 and record["cache"] == {
        "hits": 3, "misses": 1, "hit_rate": 0.75}
    assert record["viewer_written_at"] == 999.5 and record["viewer_seen_at"] == 1000.0
    figures.frame("clock", 0.01, 1.0)
    assert publisher.maybe_publish(5.0 + PUBLISH_INTERVAL / 2, 1.0) is False  # too soon
    assert publisher.next_due() == 5.0 + PUBLISH_INTERVAL
    assert publisher.maybe_publish(5.0 + PUBLISH_INTERVAL, 1.0) is True
    assert publisher.maybe_publish(5.0 + 2 * PUBLISH_INTERVAL, 1.0) is False  # unchanged
    clock[0] = 1061.0  # the mark lapsed: no more records
    figures.frame("clock", 0.01, 1.0)
    assert publisher.maybe_publish(5.0 + 3 * PUBLISH_INTERVAL, 1.0) is False
    writer.close()

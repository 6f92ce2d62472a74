"""The weekly automatic plugin update (``auto_update``): one timer thread in the web daemon.

*Setup* (``setup_auto_update``) reads ``auto_update`` from the saved config and re-arms
the timer: off means no thread; on means a thread that sleeps until the next slot
(``web_service.store.auto_schedule``), checking at least every ``LEDPANEL_AUTO_UPDATE_CHECK_
SECONDS`` (default 60; a test knob). Setup runs at web start (``start_auto_update``) and
after every save that changes ``auto_update`` or the ``timezone`` (``after_save``: the
General form and JSON save, the raw editor, a backup restore).

When a slot is due and an on-demand session is active on the display, the run waits,
checked again at each tick, for up to ``WAIT_LIMIT`` after the slot, then is given up
until next week. Otherwise it submits one ``update_all`` store job whose work calls
``web_service.store.update.update_all_plugins``; each plugin's outcome is one log line and
one history entry. On a git checkout the core is updated first
(``web_service.store.auto_core``): the job only starts the core update, and the plugins
are updated at the first tick after its verdict, only if it is ``updated`` or
``up_to_date``. What was handled is kept in ``<cache_dir>/store/auto_update.json``
(written atomically before the job is submitted), so a restart never runs a slot twice.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeGuard, cast

from flask import Flask, current_app

from shared.bus.display_status import RUNNING, display_report
from shared.config.save_rules import needs_auto_update_setup
from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_json
from shared.files.jsontext import parse_bounded
from shared.files.regular_file import read_regular
from shared.history import ERROR, STORE, SUCCESS
from web_service.history import HISTORY_KEY, WebHistory
from web_service.services import EXTENSION_KEY, WebServices
from web_service.store.auto_core import plugins_due, start_core_first
from web_service.store.auto_schedule import (
    AutoSchedule,
    describe,
    due_slot,
    missed_slot,
    next_slot,
    read_schedule,
)
from web_service.store.jobs import UPDATE_ALL, JobConflict, Report, store_dir

logger = logging.getLogger(__name__)

AUTO_UPDATE_KEY = "ledpanel.auto_update"
STATE_FILE = "auto_update.json"
CHECK_ENV = "LEDPANEL_AUTO_UPDATE_CHECK_SECONDS"
DEFAULT_CHECK_SECONDS = 60.0
CHECK_RANGE = (0.05, 3600.0)
WAIT_LIMIT = timedelta(hours=6)
SOURCE = "auto_update"
STATE_LIMIT = 64 * 1024
MAX_TIME = 32503680000.0  # 1 January 3000: later stamps are garbage
TIME_KEYS = ("armed_at", "handled")


def _iso(stamp: float, schedule: AutoSchedule) -> str:
    return datetime.fromtimestamp(stamp, schedule.zone).isoformat(timespec="seconds")


class AutoUpdater:
    """The timer of one web app; thread-safe. ``started`` only in the daemon: a test app
    computes its schedule but never runs an update by itself."""

    def __init__(self, app: Flask, directory: Path, *, check_seconds: float,
                 clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.path = directory / STATE_FILE
        self.check_seconds = check_seconds
        self.clock = clock
        self.started = False
        self.schedule: AutoSchedule | None = None
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._waiting_for: float | None = None  # the slot a wait was logged for
        self._state = self._read_state()

    # -- setup and status -------------------------------------------------------------
    def setup(self, config: dict[str, Any]) -> AutoSchedule:
        """Read ``auto_update`` from ``config`` and (re)arm the timer; return the schedule."""
        schedule = read_schedule(config)
        with self._lock:
            self.schedule = schedule
            if self._state.get("armed_key") != schedule.key:
                self._state.update(armed_key=schedule.key, armed_at=self.clock())
                self._save_state()
            upcoming = self.next_run(schedule)
            if schedule.problem:
                logger.warning("%s; automatic plugin updates are off", schedule.problem)
            elif upcoming is None:
                logger.info("automatic plugin updates are off")
            else:
                late = upcoming.timestamp() <= self.clock()
                logger.info("automatic plugin updates: next run %s%s",
                            describe(upcoming, schedule), " (due now)" if late else "")
            if self.started and schedule.enabled and self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="auto-update",
                                                daemon=True)
                self._thread.start()
        self._wake.set()
        return schedule

    def next_run(self, schedule: AutoSchedule) -> datetime | None:
        """Return the slot waiting to run, else the next one; None when off."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        with self._lock:
            due = due_slot(schedule, now, handled=self._handled(),
                           armed_at=self._armed_at())
        return due or next_slot(schedule, now)

    def status(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return the route's answer; an app that was never set up reads ``config``."""
        schedule = self.schedule or read_schedule(config)
        upcoming = self.next_run(schedule)
        with self._lock:
            last = self._state.get("last_run")
        last = last if isinstance(last, dict) else {}
        at, summary = last.get("at"), last.get("summary")
        return {"enabled": schedule.enabled, "day": schedule.day,
                "time": schedule.time_text, "timezone": schedule.zone_name,
                "next_run": upcoming.isoformat(timespec="seconds") if upcoming else None,
                "problem": schedule.problem,
                "last_run": {"at": _iso(at, schedule) if _number(at) else None,
                             "summary": summary if isinstance(summary, str) else None}}

    def start(self, config: dict[str, Any]) -> None:
        """Start following the schedule (the daemon, once) and run setup."""
        self.started = True
        self.setup(config)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the timer thread, waiting at most ``timeout`` seconds."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    # -- the timer --------------------------------------------------------------------
    def _loop(self) -> None:
        while not self._stop.is_set():  # each wait below is bounded by check_seconds
            with self._lock:
                schedule = self.schedule
                if schedule is None or not schedule.enabled:
                    self._thread = None
                    return
            try:
                self.tick()
            except Exception:  # isolation boundary: the timer must outlive one bad tick
                logger.exception("auto update: the check failed; trying again later")
            self._wake.wait(self._sleep_for(schedule))
            self._wake.clear()

    def _sleep_for(self, schedule: AutoSchedule) -> float:
        upcoming = next_slot(schedule, datetime.fromtimestamp(self.clock(), UTC))
        until = upcoming.timestamp() - self.clock() if upcoming else self.check_seconds
        return max(CHECK_RANGE[0], min(self.check_seconds, until + 0.01))

    def tick(self) -> str | None:
        """Look at the schedule once; return what was done (``ran``, ``waiting``,
        ``gave_up``, ``missed``, ``conflict``; after the core update this timer started:
        ``plugins`` or ``core_refused``) or None."""
        followed = self._follow_core()
        if followed is not None:
            return followed
        with self._lock:
            schedule = self.schedule
            if schedule is None or not schedule.enabled:
                return None
            now = datetime.fromtimestamp(self.clock(), UTC)
            handled, armed_at = self._handled(), self._armed_at()
            slot = due_slot(schedule, now, handled=handled, armed_at=armed_at)
            if slot is None:
                missed = missed_slot(schedule, now, handled=handled, armed_at=armed_at)
                if missed is not None:
                    self._handle(missed.timestamp())
                    logger.warning("auto update: the run of %s was missed while the service "
                                   "was down, more than 24 h ago; next run %s",
                                   describe(missed, schedule),
                                   describe(next_slot(schedule, now) or now, schedule))
                    return "missed"
                return None
            if self._on_demand_active():
                return self._wait(schedule, slot, now)
            self._handle(slot.timestamp())
        return self._submit(schedule, slot)

    def _wait(self, schedule: AutoSchedule, slot: datetime, now: datetime) -> str:
        if now - slot >= WAIT_LIMIT:
            self._handle(slot.timestamp(), "skipped: an on-demand session was active for "
                         f"{WAIT_LIMIT.seconds // 3600} hours after {describe(slot, schedule)}")
            logger.warning("auto update: gave up the run of %s: an on-demand session was "
                           "active all along; next run %s", describe(slot, schedule),
                           describe(next_slot(schedule, now) or now, schedule))
            return "gave_up"
        if self._waiting_for != slot.timestamp():
            self._waiting_for = slot.timestamp()
            logger.info("auto update: due, but an on-demand session is active; waiting for it "
                        "to end (checked every %gs, until %s)", self.check_seconds,
                        describe(slot + WAIT_LIMIT, schedule))
        return "waiting"

    def _submit(self, schedule: AutoSchedule, slot: datetime) -> str:
        from web_service.store.app_jobs import submit_job

        job_ids: list[str] = []
        try:
            job = submit_job(self.app, UPDATE_ALL, None, lambda report: self._work(
                report, job_ids, slot))
        except JobConflict as err:
            with self._lock:
                self._handle(slot.timestamp(), "skipped: an update of every plugin was "
                             f"already running (job {err.job_id})")
            logger.info("auto update: the run of %s skipped: an update of every plugin is "
                        "already running (job %s)", describe(slot, schedule), err.job_id)
            return "conflict"
        job_ids.append(job["id"])
        logger.info("auto update: the run of %s started as store job %s",
                    describe(slot, schedule), job["id"])
        return "ran"

    # -- the job's work ---------------------------------------------------------------
    def _work(self, report: Report, job_ids: list[str], slot: datetime) -> dict[str, Any]:
        if self._on_demand_active():  # a session began while the job waited in the queue
            with self._lock:
                if self._handled() == slot.timestamp():
                    self._state["handled"] = None
                    self._save_state()
            logger.info("auto update: an on-demand session began before the update started; "
                        "it runs when the session ends")
            return {"message": "automatic update postponed: an on-demand session is active"}
        core = start_core_first(self.app)  # the plugins follow its verdict (plugins_due)
        if core is not None:
            logger.info("auto update: %s", core)
            with self._lock:
                self._state["last_run"] = {"at": self.clock(), "summary": core}
                self._save_state()
            return {"message": f"automatic update: {core}"}
        return self._update_plugins(report, job_ids)

    def _follow_core(self) -> str | None:
        """Update the plugins once the core update this timer started has its verdict."""
        due = plugins_due(self.app)
        if due is None:
            return None
        go, why = due
        if not go:
            with self._lock:
                self._state["last_run"] = {"at": self.clock(), "summary": why}
                self._save_state()
            return "core_refused"
        from web_service.store.app_jobs import submit_job

        job_ids: list[str] = []
        try:
            job = submit_job(self.app, UPDATE_ALL, None,
                             lambda report: self._update_plugins(report, job_ids, why))
        except JobConflict as err:
            logger.info("auto update: plugins not updated after the core: an update of every "
                        "plugin is already running (job %s)", err.job_id)
            return "conflict"
        job_ids.append(job["id"])
        logger.info("auto update: %s; plugins update as store job %s", why, job["id"])
        return "plugins"

    def _update_plugins(self, report: Report, job_ids: list[str],
                        core: str | None = None) -> dict[str, Any]:
        from web_service.store.update import update_all_plugins

        with self.app.app_context():
            results = update_all_plugins(self.app, source=SOURCE, report=report)
        counts: dict[str, int] = {}
        for entry in results:
            outcome = self._log_plugin(entry, job_ids[0] if job_ids else None)
            counts[outcome] = counts.get(outcome, 0) + 1
        order = ("updated", "up_to_date", "local_only", "failed")
        summary = ", ".join(f"{counts[k]} {k.replace('_', ' ')}"
                            for k in (*order, *sorted(set(counts) - set(order))) if k in counts)
        summary = summary or "no plugins installed"
        summary = f"{core}; {summary}" if core else summary
        with self._lock:
            self._state["last_run"] = {"at": self.clock(), "summary": summary}
            self._save_state()
        logger.info("auto update: finished: %s", summary)
        return {"message": f"automatic update: {summary}", "summary": summary,
                "plugins": results}

    def _log_plugin(self, entry: dict[str, Any], job_id: str | None) -> str:
        """Log and record one plugin's outcome; return it (an update_status or failed)."""
        plugin_id = str(entry.get("plugin_id") or "?")[:100]
        status = entry.get("update_status")
        version, before = entry.get("version"), entry.get("previous_version")
        if isinstance(entry.get("skipped"), str) and not entry.get("error"):
            logger.info("auto update: %s skipped: %s", plugin_id, entry["skipped"])
            return "skipped"
        if entry.get("error") or not isinstance(status, str):
            message = str(entry.get("error") or "no outcome")[:300]
            logger.warning("auto update: %s failed: %s", plugin_id, message)
            self._record(plugin_id, ERROR, job_id, error_code=entry.get("error_code"),
                         detail=message)
            return "failed"
        if status == "updated":
            logger.info("auto update: %s updated %s -> %s", plugin_id, before or "?",
                        version or "?")
        else:
            logger.info("auto update: %s %s", plugin_id, status.replace("_", " "))
        self._record(plugin_id, SUCCESS, job_id, update_status=status,
                     version=version if isinstance(version, str) else None)
        return status

    def _record(self, plugin_id: str, result: str, job_id: str | None, **fields: Any) -> None:
        history = cast(WebHistory | None, self.app.extensions.get(HISTORY_KEY))
        if history is not None:
            history.writer.record(STORE, SOURCE, result, plugin_id=plugin_id, job_id=job_id,
                                  **fields)

    # -- the display and the state file -----------------------------------------------
    def _on_demand_active(self) -> bool:
        web: WebServices = self.app.extensions[EXTENSION_KEY]
        report = display_report(*web.display.state())
        on_demand = report.get("on_demand") or {}
        return report["service"] == RUNNING and on_demand.get("state") == "active"

    def _handled(self) -> float | None:
        value = self._state.get("handled")
        return float(value) if _number(value) else None

    def _armed_at(self) -> float:
        value = self._state.get("armed_at")
        return float(value) if _number(value) else self.clock()

    def _handle(self, slot: float, skipped: str | None = None) -> None:
        """Mark ``slot`` handled (and a skip as the last run) and save; under the lock."""
        self._state["handled"] = slot
        if skipped is not None:
            self._state["last_run"] = {"at": self.clock(), "summary": skipped}
        self._save_state()

    def _read_state(self) -> dict[str, Any]:
        """Return the state file's usable fields; never blocks (a FIFO is refused)."""
        try:
            data = parse_bounded(read_regular(self.path, STATE_LIMIT, follow_symlinks=False)
                                 .decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:  # UnicodeDecodeError is a ValueError
            logger.warning("auto update: %s cannot be read (%s); starting afresh: the next "
                           "slot after now runs", self.path, err)
            return {}
        if not isinstance(data, dict):
            logger.warning("auto update: %s is not an object; starting afresh", self.path)
            return {}
        for key in TIME_KEYS:
            if key in data and data[key] is not None and not _number(data[key]):
                logger.warning("auto update: %s in %s is not a usable time (%.40r); ignored",
                               key, self.path, data.pop(key))
        if not _number(data.get("armed_at")):  # re-armed from now at setup, never left
            data.pop("armed_key", None)       # with no time a slot could be due after
        last = data.get("last_run")
        if last is not None and not (isinstance(last, dict) and _number(last.get("at"))):
            logger.warning("auto update: last_run in %s is not usable; ignored", self.path)
            data.pop("last_run")
        return data

    def _save_state(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_json(self.path, {**self._state, "version": 1})
        except (OSError, AtomicWriteError) as err:
            logger.warning("auto update: cannot write %s (%s); a restart may not know the "
                           "last run", self.path, err)


def _number(value: Any) -> TypeGuard[float]:
    """Return whether ``value`` is a usable time stamp (finite, from 1970 to the year 3000)."""
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and 0 <= value <= MAX_TIME)


def check_seconds_from_env() -> float:
    """Return the timer's check interval: ``LEDPANEL_AUTO_UPDATE_CHECK_SECONDS`` or 60."""
    text = os.environ.get(CHECK_ENV)
    if not text:
        return DEFAULT_CHECK_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not CHECK_RANGE[0] <= value <= CHECK_RANGE[1]:
        logger.warning("%s=%r is not a number of seconds from %g to %g; using %g", CHECK_ENV,
                       text[:40], *CHECK_RANGE, DEFAULT_CHECK_SECONDS)
        return DEFAULT_CHECK_SECONDS
    return value


def install_auto_update(app: Flask) -> None:
    """Keep the app's auto-update timer (not started: see ``start_auto_update``)."""
    web: WebServices = app.extensions[EXTENSION_KEY]
    app.extensions[AUTO_UPDATE_KEY] = AutoUpdater(
        app, store_dir(web.settings.paths.cache_dir), check_seconds=check_seconds_from_env())


def auto_updater(app: Flask | None = None) -> AutoUpdater:
    """Return the auto-update timer of ``app`` (the current app when None)."""
    return cast(AutoUpdater, (app or current_app).extensions[AUTO_UPDATE_KEY])


def start_auto_update(app: Flask, config: dict[str, Any]) -> None:
    """Follow the schedule in the web daemon: run setup on the config it starts with."""
    auto_updater(app).start(config)


def setup_auto_update(config: dict[str, Any], app: Flask | None = None) -> AutoSchedule:
    """Re-arm the timer of ``app`` (the current app) for ``config``."""
    return auto_updater(app).setup(config)


def after_save(changed: list[str], main: dict[str, Any]) -> None:
    """Run setup after a save that changed ``auto_update`` or the timezone it is in."""
    if needs_auto_update_setup(changed) or "timezone" in changed:
        setup_auto_update(main)


def stop_auto_update(app: Flask) -> None:
    """Stop the app's timer thread (bounded)."""
    updater = app.extensions.get(AUTO_UPDATE_KEY)
    if isinstance(updater, AutoUpdater):
        updater.stop()

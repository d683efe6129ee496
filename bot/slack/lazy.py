"""Slow work off the ack path: Bolt's lazy listeners, on a bounded pool, failing loudly.

Slack wants every request acknowledged within 3 seconds. Bolt's default runs
each listener on a 5-thread pool while the HTTP thread waits for its ``ack()``;
a listener that acks and then answers (an engine run, a response_url that takes
5 s, a chat.postMessage waiting out a 429) keeps its thread, so five slow
answers leave every new request waiting for a thread until Slack gives up
("didn't call ack()"). A bigger pool only moves the cliff: at 20 requests a
second and 5 s each, a hundred threads are busy.

So every listener is split the way Bolt's lazy listeners split it
(``app.command(..)(ack=acknowledge, lazy=[answer])``), and the app runs with
``process_before_response=True``: the ack function runs on the thread that
received the request and its response goes back as soon as it returns, never
queued behind anything; Bolt then copies the request and starts the lazy part
on ``listener_executor``, a pool of ``SLOW_WORKERS`` threads that runs nothing
else. Threads, and so memory, stay bounded however slow Slack is: past
``SLOW_WORKERS`` answers wait in the pool's queue (a copied request each, a few
kB), not in an ack. The ordering also lets an ack function hand its outcome to
its lazy part through ``context`` (a form saved on the ack path is announced
afterwards). It works unchanged in Socket Mode, whose handler dispatches the
same way.

Bolt logs a lazy listener's exception and drops it (bolt-python#635), which
would leave the user with silence; ``ReportingLazyRunner`` hands it to the
app's error handler instead, so one ``@app.error`` sees every failure.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor

from slack_bolt import Ack, App
from slack_bolt.kwargs_injection import build_required_kwargs
from slack_bolt.lazy_listener import ThreadLazyListenerRunner
from slack_bolt.listener.thread_runner import ThreadListenerRunner
from slack_bolt.request import BoltRequest
from slack_bolt.util.utils import get_arg_names_of_callable

SLOW_WORKERS = 32
"""Slack's faults are waits, not work: a thread asleep on a Retry-After or a slow
response_url costs no CPU, so 32 let 20 concurrent answers each wait 5 s at once;
the engine's own work holds the GIL and gains nothing from more."""

log = logging.getLogger("leasewise.slack")


def slow_work_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=SLOW_WORKERS, thread_name_prefix="leasewise-answer")


def acknowledge(ack: Ack) -> None:
    """The ack part of every listener that has nothing to say in its ack."""
    ack()


class ReportingLazyRunner(ThreadLazyListenerRunner):
    """Bolt's thread runner for lazy listeners, with failures sent to ``@app.error``."""

    def __init__(self, runner: ThreadListenerRunner, executor: Executor) -> None:
        super().__init__(logger=runner.logger, executor=executor)
        self._runner = runner

    def start(self, function: Callable[..., None], request: BoltRequest) -> None:
        self.executor.submit(self._run, function, request)

    def _run(self, function: Callable[..., None], request: BoltRequest) -> None:
        try:
            function(
                **build_required_kwargs(
                    logger=self.logger,
                    required_arg_names=get_arg_names_of_callable(function),
                    request=request,
                    response=None,
                    this_func=function,
                )
            )
        except Exception as error:  # noqa: BLE001 - handed to the app's one error handler
            try:
                self._runner.listener_error_handler.handle(
                    error=error, request=request, response=None
                )
            except Exception:  # noqa: BLE001 - the handler itself broke; keep the trace
                log.exception("the error handler failed on %r", error)


def report_lazy_failures(app: App) -> None:
    runner = app.listener_runner
    runner.lazy_listener_runner = ReportingLazyRunner(runner, runner.listener_executor)

"""Stopping the local backend's worker processes never leaves the program unable to exit.

A worker stopped in the middle of sending its result (Ctrl-C stops a batch by terminating the
workers) left the pool's reader thread waiting for the rest of the message, and Python joins that
thread at exit: `simulate` printed its summary and then hung for ever.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from interrupting import ctrl_c_heard

STOPPED_MID_MESSAGE = """
import os, struct, time
from interpreter.backends.local import LocalBackend

backend = LocalBackend(2)
pool = backend._start_pool()
pool.submit(int, 1).result()  # (the workers and the pool's reader thread are up)
# what a worker stopped while sending its result leaves: a message's length and part of it
os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
time.sleep(0.3)
backend._stop_pool()
print("stopped", flush=True)
"""


def test_a_worker_stopped_mid_message_does_not_hang_the_exit():
    try:
        done = subprocess.run([sys.executable, "-c", STOPPED_MID_MESSAGE], capture_output=True, text=True,
                              timeout=60)
    except subprocess.TimeoutExpired as err:
        raise AssertionError(f"the program did not exit after stopping its workers: {err.stdout!r}") from None
    assert done.returncode == 0 and done.stdout == "stopped\n", done.stderr


# The pool's own thread ends by closing its wake-up pipe; at exit Python's hook for the pools
# (`concurrent.futures.process._python_exit`) checks that pipe is open and then writes to it,
# without a lock (Python 3.11). Here both sides are slowed at their worst point: the pool's thread
# starts its clean-up late (a loaded machine), and the exit hook loses the processor between its
# check and its write. Stopping the pool must leave nothing for that hook to race with.
LATE_POOL_THREAD = """
import time
import concurrent.futures.process as cfp
from interpreter.backends.local import LocalBackend

terminate_broken = cfp._ExecutorManagerThread.terminate_broken
def late_terminate_broken(self, cause):
    time.sleep(0.3)
    terminate_broken(self, cause)
cfp._ExecutorManagerThread.terminate_broken = late_terminate_broken

wakeup = cfp._ThreadWakeup.wakeup
def unlucky_wakeup(self):
    if cfp._global_shutdown and not self._closed:  # (the exit hook's check, then its write)
        time.sleep(0.6)
        self._writer.send_bytes(b"")
    else:
        wakeup(self)
cfp._ThreadWakeup.wakeup = unlucky_wakeup

backend = LocalBackend(2)
pool = backend._start_pool()
pool.submit(int, 1).result()
busy = [pool.submit(time.sleep, 60) for _ in range(4)]  # (Ctrl-C stops workers in the middle of a game)
time.sleep(0.3)
backend._stop_pool()
print("stopped", flush=True)
"""

# Ctrl-C while the driver waits for the next chunk, landing at the worst moment of the wait:
# `concurrent.futures.wait` (and `as_completed`) take every future's lock one by one, and a
# KeyboardInterrupt between two of them leaves the first ones held for ever: the pool's thread
# then blocks on them and the program cannot exit. Here the interrupt is sent from inside that
# loop, halfway, the second time the driver waits (a chunk's games are back by then); a driver
# that does not wait that way is interrupted by the timer instead.
INTERRUPTED_MID_WAIT = """
import os, signal, threading
import concurrent.futures._base as cfb
from pathlib import Path
from interpreter.backends import BatchSpec, LocalBackend

waits = []
def interrupted_enter(self):
    waits.append(1)
    for i, future in enumerate(self.futures):
        future._condition.acquire()
        if len(waits) == 2 and i == len(self.futures) // 2:
            os.kill(os.getpid(), signal.SIGINT)
cfb._AcquireFutures.__enter__ = interrupted_enter

spec = BatchSpec.of(str(Path({toy!r})))
timer = None
played = 0
try:
    with LocalBackend(2) as backend:
        for record, _lines in backend.run(spec, range(100000)):
            played += 1
            if timer is None:
                timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
                timer.start()
except KeyboardInterrupt:
    pass
finally:
    timer.cancel()
print("interrupted" if 0 < played < 100000 else played, flush=True)
"""


@pytest.mark.parametrize("script", [LATE_POOL_THREAD, INTERRUPTED_MID_WAIT], ids=["late-pool-thread", "mid-wait"])
def test_an_unlucky_timing_does_not_spoil_the_exit(script):
    toy = Path(__file__).parent / "data" / "toy" / "toy.yaml"
    process = subprocess.Popen([sys.executable, "-c", script.replace("{toy!r}", repr(str(toy)))],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=ctrl_c_heard)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        raise AssertionError(f"the program did not exit: {out!r} {err[-2000:]}") from None
    assert process.returncode == 0 and out in ("stopped\n", "interrupted\n"), err
    assert err == "", err  # (no "Exception ignored in: <module 'threading'>" and its traceback)

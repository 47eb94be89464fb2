"""Stopping the local backend's worker processes never leaves the program unable to exit.

A worker stopped in the middle of sending its result (Ctrl-C stops a batch by terminating the
workers) left the pool's reader thread waiting for the rest of the message, and Python joins that
thread at exit: `simulate` printed its summary and then hung for ever.
"""

from __future__ import annotations

import subprocess
import sys

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

"""Starting a child process that a test then stops with Ctrl-C (SIGINT).

A child inherits whether SIGINT is ignored, and a test runner's worker may ignore it (the workers
of pytest-xdist do): such a child, `cardrules simulate` among them, would never see the Ctrl-C a
test sends it and play its 100,000 games to the end. `ctrl_c_heard` (a `preexec_fn`) gives the
child SIGINT's default, as a terminal's shell does; Python then raises KeyboardInterrupt on it.
"""

from __future__ import annotations

import os
import signal
import subprocess


def ctrl_c_heard() -> None:
    """For `subprocess.Popen(preexec_fn=...)`: SIGINT back to its default in the child."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_group(process: subprocess.Popen) -> None:
    """Kill a child started with `start_new_session=True` and every process of its group (the
    workers a test must not leave playing when it fails)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()

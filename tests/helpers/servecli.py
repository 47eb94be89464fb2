"""`cardrules serve` as a user starts it, for the server tests: the real command in a subprocess,
its printed lines read with a deadline (a line that never comes fails the test, it does not hang
it), and the seat addresses it prints."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

SEAT_LINE = re.compile(r"^P(\d+) \([^)]*\): (http://\S+)$")


class ServeCommand:
    """`cardrules serve ARGS` running; `lines` what it printed so far; `stop()`."""

    def __init__(self, *args: str) -> None:
        script = Path(sys.executable).parent / "cardrules"  # (the installed command, not the checkout's package)
        command = [str(script)] if script.exists() else [sys.executable, "-m", "interpreter.cli.main"]
        self.process = subprocess.Popen([*command, "serve", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def read_until(self, pattern: str, timeout: float = 20) -> str:
        """The first printed line (from here on) that matches `pattern`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} in {timeout} s; printed: {self.lines}") from None
            if line is None:
                raise AssertionError(f"the command ended without a line matching {pattern!r}; printed: {self.lines}")
            self.lines.append(line)
            if re.search(pattern, line):
                return line

    def seat_urls(self, seats: int) -> dict[int, str]:
        """The addresses printed for the first `seats` human seats, by seat."""
        urls = {}
        while len(urls) < seats:
            match = SEAT_LINE.match(self.read_until(SEAT_LINE.pattern))
            urls[int(match.group(1))] = match.group(2)
        return urls

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

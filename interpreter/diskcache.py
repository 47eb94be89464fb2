"""A small on-disk cache of load work: entries of plain data (marshal of str, int, float, bool, None,
bytes, tuples, lists, dicts and sets; never pickled objects, never code objects).

Where: ``$CARDRULES_CACHE_DIR`` if set, else the user cache directory (``$XDG_CACHE_HOME/cardrules``
or ``~/.cache/cardrules``; ``%LOCALAPPDATA%\\cardrules\\Cache`` on Windows,
``~/Library/Caches/cardrules`` on macOS). ``CARDRULES_NO_CACHE=1`` turns it off.

Every entry lives under a folder named by the *fingerprint* of the code that made it: the
cardrules version, the Python version, the versions of the libraries whose output is cached (Lark,
jsonschema, PyYAML) and a hash of every ``.py`` and ``.lark`` file of the interpreter package, the
grammar and the JSON Schemas. A change to any of them (an edit during development) starts a fresh
folder, so a stale entry is never read; older folders beyond the newest `KEEP_FOLDERS` are removed.
Within a folder an entry is named by a hash of its key (the caller puts every input in the key:
the text of the files, the options).

Safe by construction:

- a writer writes a temporary file in the same folder and renames it into place (``os.replace``),
  so readers see a whole entry or none, and concurrent writers of one key leave one whole entry;
- each file carries a magic word and a keyed digest (HMAC-SHA256) of its place (fingerprint, kind,
  key) and its payload, keyed by the user's secret (below): a truncated, corrupt or foreign file, an
  entry edited or written by anyone who does not hold the secret, or one copied from another key,
  reads as a miss (and is rebuilt by the caller), never as an error;
- any failure to create, read or write the cache (read-only home, full disk) only costs speed.

The secret: 32 random bytes in the file ``secret`` at the top of the cache folder, made on first
use. Folders the cache makes are mode 0700, its files 0600 (the secret is never readable by
group or others). It is written whole to a temporary file and linked into place (``os.link``
fails if the name exists), so processes racing to make it agree on one secret. A secret file is
trusted only if it is a regular file (not a symlink) of 32 bytes, owned by the user running
cardrules, with no permission bit for group or others: otherwise someone else may know it, so it
is replaced by a fresh one (every entry keyed by the old one then reads as a miss and is rebuilt);
if it cannot be replaced (a folder the user may not write), the cache is not used in that process.
A cache folder therefore belongs to one user (on Windows, where the folder is the user's own under
``%LOCALAPPDATA%``, ownership and modes are not checked).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import importlib.util
import marshal
import os
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ENV_DIR = "CARDRULES_CACHE_DIR"
ENV_OFF = "CARDRULES_NO_CACHE"
MAGIC = b"cardrules-cache\x02"
DIGEST = 32  # bytes of HMAC-SHA256 (keyed by the secret) over the entry's place and payload
SECRET_FILE = "secret"
SECRET_SIZE = 32
KEEP_FOLDERS = 8  # fingerprint folders kept (the newest by use); older ones are removed
MARSHAL_VERSION = 4

_PLAIN_SCALARS = (str, int, float, bool, bytes, type(None))


class NotPlain(Exception):
    """A value to store holds something other than plain data (the entry is then not stored)."""


def enabled() -> bool:
    """Whether the cache is in use (not turned off with CARDRULES_NO_CACHE=1)."""
    return os.environ.get(ENV_OFF, "").strip().lower() in ("", "0", "false", "no")


def cache_root() -> Path:
    """The cache directory (whether or not it exists yet)."""
    given = os.environ.get(ENV_DIR)
    if given:
        return Path(given).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "cardrules" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "cardrules"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base_dir / "cardrules"


def _code_files() -> list[Path]:
    """The files whose content decides what the cached work produces: the package's own .py and
    .lark files (not the shipped rulesets and cards under its data folder: those are inputs, hashed
    by the callers), the grammar and the JSON Schemas."""
    from . import paths

    package = paths.PACKAGE_DIR
    found: list[Path] = []
    for folder, subfolders, files in os.walk(package):
        here = Path(folder)
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__"
                               and not (here == package / "data" and d in ("rulesets", "cards")))
        found.extend(here / f for f in sorted(files) if f.endswith((".py", ".lark")))
    for extra in (paths.grammar_dir(), paths.schema_dir()):  # (in the checkout, or package data)
        if extra.is_dir():
            found.extend(sorted(p for p in extra.iterdir() if p.is_file()))
    return found


def _library_versions() -> str:
    """The versions of the libraries whose output is cached (Lark, PyYAML, jsonschema), told by
    the names and sizes of their modules: found without importing them (importing jsonschema
    takes a tenth of a second, importlib.metadata 20 ms; a replayed `validate` needs neither)."""
    parts = []
    for name in ("lark", "yaml", "jsonschema"):
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is None:
            parts.append(f"{name}=?")
            continue
        with _quiet():
            files = sorted(f"{e.name}:{e.stat().st_size}" for e in os.scandir(Path(origin).parent)
                           if e.name.endswith((".py", ".so")))
        parts.append(f"{name}=" + ",".join(files))
    return ";".join(parts)


@functools.cache
def fingerprint() -> str:
    """A hash of everything besides its inputs that a cached result depends on (see the module
    docstring). Computed once per process (a few milliseconds)."""
    from . import __version__

    h = hashlib.blake2b(digest_size=16)
    h.update(f"cardrules {__version__}\0python {sys.implementation.cache_tag} {sys.version}\0"
             f"{_library_versions()}\0".encode())
    for path in _code_files():
        try:
            data = path.read_bytes()
        except OSError:
            data = b"<unreadable>"
        h.update(path.name.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def key_of(kind: str, parts: Iterable[Any]) -> str:
    """The entry name for a key: a hash of its kind and its parts (texts, numbers, tuples...)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(kind.encode() + b"\0")
    for part in parts:
        data = part if isinstance(part, bytes) else repr(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def check_plain(value: Any, depth: int = 0) -> None:
    """Raise NotPlain unless value is plain data (what this cache stores)."""
    if depth > 500:
        raise NotPlain("nested too deeply")
    if isinstance(value, _PLAIN_SCALARS):
        return
    if type(value) in (tuple, list, set, frozenset):
        for item in value:
            check_plain(item, depth + 1)
        return
    if type(value) is dict:
        for k, v in value.items():
            check_plain(k, depth + 1)
            check_plain(v, depth + 1)
        return
    raise NotPlain(f"not plain data: {type(value).__name__}")


def _user_id() -> int | None:
    """The user running cardrules, as files name their owner (None where they do not: Windows)."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid() if geteuid is not None else None


def _private_folder(folder: Path, parents: bool = False) -> None:
    """Make a folder of mode 0700 if it is missing (raises OSError if it cannot be made). An
    existing one of the user's open to group or others is closed to them."""
    try:
        folder.mkdir(mode=0o700, parents=parents)
        return
    except FileExistsError:
        pass
    info = os.stat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(str(folder))
    uid = _user_id()
    if uid is not None and info.st_uid == uid and info.st_mode & 0o077:
        os.chmod(folder, 0o700)


class _Untrusted(Exception):
    """The secret file may be known to someone else (see the module docstring)."""


def _read_secret(path: Path) -> bytes | None:
    """The secret in `path` (None if there is no such file); raises _Untrusted if the file may be
    known to someone else: not a regular file (a symlink is not followed, a FIFO not waited on),
    not 32 bytes, not the user's own or open to group or others."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError:
        raise _Untrusted from None
    try:
        info = os.fstat(fd)  # (of the file opened: it cannot be swapped between a check and the read)
        uid = _user_id()
        if (not stat.S_ISREG(info.st_mode) or info.st_size != SECRET_SIZE
                or (uid is not None and (info.st_uid != uid or info.st_mode & 0o077))):
            raise _Untrusted
        data = os.read(fd, SECRET_SIZE + 1)
    finally:
        os.close(fd)
    if len(data) != SECRET_SIZE:
        raise _Untrusted
    return data


def _fresh_secret_file(root: Path) -> str:
    """A temporary file (mode 0600) in root holding a new random secret, whole on disk."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp-secret-", dir=root)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(SECRET_SIZE))
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        with _quiet():
            os.unlink(tmp)
        raise
    return tmp


def load_secret(root: Path) -> bytes:
    """The user's secret of the cache folder `root` (which must exist), made if it is missing and
    replaced if it cannot be trusted. Raises OSError when no trusted secret can be had."""
    path = root / SECRET_FILE
    for _attempt in range(3):
        try:
            found = _read_secret(path)
        except _Untrusted:
            tmp = _fresh_secret_file(root)
            try:
                os.replace(tmp, path)  # (replaces a symlink itself, never the file it names)
            except BaseException:
                with _quiet():
                    os.unlink(tmp)
                raise
            continue  # read back what is there now: another process may have replaced it too
        if found is not None:
            return found
        tmp = _fresh_secret_file(root)
        try:
            # (link fails if the name exists: of processes racing, the first one's secret is kept
            # whole, and the others read it on the next turn)
            os.link(tmp, path)
        except FileExistsError:
            pass
        except OSError:
            if sys.platform != "win32":
                raise
            with _quiet():  # (no hard links: Windows' rename fails if the name exists, as link does)
                os.rename(tmp, path)
        finally:
            with _quiet():
                os.unlink(tmp)
    raise PermissionError(f"{path}: no secret of the cache that can be trusted")


class Store:
    """The cache folder of this code's fingerprint; `get`/`put` entries of one kind by key.

    The secret is read (or made) on first use; if that fails, the store holds nothing: every
    `get` misses and every `put` stores nothing."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else cache_root()
        self.folder = self.root / fingerprint()
        self._made: set[str] = set()
        self._secret: bytes | None = None
        self._unusable = False

    def _path(self, kind: str, key: str) -> Path:
        return self.folder / kind / f"{key}.bin"

    def secret(self) -> bytes | None:
        """The key of the entries' digests, or None if the cache cannot be used."""
        if self._secret is None and not self._unusable:
            try:
                _private_folder(self.root, parents=True)
                self._secret = load_secret(self.root)
            except OSError:
                self._unusable = True
        return self._secret

    def _digest(self, secret: bytes, kind: str, key: str, payload: bytes) -> bytes:
        # (the place is in the digest: an entry copied to another key or fingerprint is a miss)
        mac = hmac.new(secret, f"{self.folder.name}\0{kind}\0{key}\0".encode(), hashlib.sha256)
        mac.update(payload)
        return mac.digest()

    def get(self, kind: str, key: str) -> Any | None:
        """The stored value, or None if there is none, it cannot be read whole, or it was not
        written with this user's secret."""
        secret = self.secret()
        if secret is None:
            return None
        try:
            raw = self._path(kind, key).read_bytes()
        except OSError:
            return None
        head = len(MAGIC) + DIGEST
        if len(raw) < head or not raw.startswith(MAGIC):
            return None
        payload = raw[head:]
        if not hmac.compare_digest(self._digest(secret, kind, key, payload), raw[len(MAGIC):head]):
            return None
        try:
            return marshal.loads(payload)
        except (ValueError, EOFError, TypeError):
            return None

    def put(self, kind: str, key: str, value: Any) -> bool:
        """Store plain data under a key (atomically, mode 0600); False if it could not be stored."""
        secret = self.secret()
        if secret is None:
            return False
        try:
            check_plain(value)
            payload = marshal.dumps(value, MARSHAL_VERSION)
        except (NotPlain, ValueError):
            return False
        data = MAGIC + self._digest(secret, kind, key, payload) + payload
        target = self._path(kind, key)
        try:
            if kind not in self._made:
                fresh = not self.folder.exists()
                _private_folder(self.folder)
                _private_folder(target.parent)
                self._made.add(kind)
                if fresh:
                    self._prune()
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".bin", dir=target.parent)  # (mode 0600)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.replace(tmp, target)
            except BaseException:
                with _quiet():
                    os.unlink(tmp)
                raise
        except OSError:
            return False
        return True

    def _prune(self) -> None:
        """Remove the folders of other fingerprints beyond the newest KEEP_FOLDERS."""
        with _quiet():
            folders = sorted((p for p in self.root.iterdir() if p.is_dir() and p != self.folder),
                             key=lambda p: p.stat().st_mtime, reverse=True)
            for old in folders[KEEP_FOLDERS - 1:]:
                shutil.rmtree(old, ignore_errors=True)


class _quiet:
    """Ignore OSError in a block (cache housekeeping never fails a load)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, value, tb) -> bool:
        return kind is not None and issubclass(kind, OSError)


_STORES: dict[tuple[str, str], Store] = {}


def store() -> Store | None:
    """The store for the current settings, or None when the cache is off."""
    if not enabled():
        return None
    root = cache_root()
    key = (str(root), fingerprint())
    found = _STORES.get(key)
    if found is None:
        found = _STORES[key] = Store(root)
    return found


def cached(kind: str, parts: Iterable[Any], compute: Callable[[], T],
           encode: Callable[[T], Any], decode: Callable[[Any], T]) -> T:
    """compute(), or its result decoded from the cache. `encode` turns the result into plain data
    (raising NotPlain if it cannot); `decode` turns stored data back (raising any error if the
    stored data does not fit: the entry is then recomputed and written again). compute's errors
    propagate and nothing is stored."""
    st = store()
    if st is None:
        return compute()
    key = key_of(kind, parts)
    stored = st.get(kind, key)
    if stored is not None:
        try:
            return decode(stored)
        except Exception:  # noqa: BLE001 (a stored entry that does not fit is a miss, never an error)
            pass
    result = compute()
    try:
        st.put(kind, key, encode(result))
    except NotPlain:
        pass
    return result


def known(kind: str, parts: Iterable[Any]) -> bool:
    """Whether `remember(kind, parts)` was called before (by this code): a cached 'this passed'."""
    st = store()
    return st is not None and st.get(kind, key_of(kind, parts)) is True


def remember(kind: str, parts: Iterable[Any]) -> None:
    """Note that this key passed (see `known`)."""
    st = store()
    if st is not None:
        st.put(kind, key_of(kind, parts), True)


def plain_repr(value: Any) -> str | None:
    """repr(value) when value is plain data (then it tells apart every value and type: 1, 1.0,
    True, '1'), else None."""
    try:
        check_plain(value)
    except NotPlain:
        return None
    return repr(value)

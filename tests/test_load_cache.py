"""The disk cache of loading (interpreter/diskcache.py, lang/parsecache.py, cli/validatecache.py).

Each test has a cache folder of its own (CARDRULES_CACHE_DIR) and forgets the in-process caches
(the built Lark parsers, the parsed files, the schema validator) before each load, so that a
"warm" load here is what a new process does with the cache on disk.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from playout import LONG, replay_log

from interpreter import diskcache, load
from interpreter.cli.main import main
from interpreter.diskcache import DIGEST, MAGIC, SECRET_FILE, Store, fingerprint, key_of
from interpreter.errors import CardrulesError
from interpreter.lang import ast, parser
from interpreter.paths import data_root, shipped_games
from interpreter.rules import schema, sources


@pytest.fixture(scope="module")
def lark_tables(tmp_path_factory) -> Path:
    """Lark's tables as the first test built them (and the secret that keys them), given to the
    later tests' caches (building them takes a second)."""
    return tmp_path_factory.mktemp("lark-tables")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch, lark_tables) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    forget_in_process()
    fingerprint_folder = folder / fingerprint()
    if (lark_tables / "lark").is_dir():
        shutil.copytree(lark_tables / "lark", fingerprint_folder / "lark")
        shutil.copy2(lark_tables / SECRET_FILE, folder / SECRET_FILE)  # (its mode, 0600, too)
    yield folder
    forget_in_process()
    if not (lark_tables / "lark").is_dir() and (fingerprint_folder / "lark").is_dir():
        shutil.copy2(folder / SECRET_FILE, lark_tables / SECRET_FILE)
        shutil.copytree(fingerprint_folder / "lark", lark_tables / "lark")


def forget_in_process() -> None:
    parser._parser.cache_clear()
    sources.parsed.cache_clear()
    schema.validator.cache_clear()


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.bin"))


def random_log(rules, seed: int) -> tuple[list[dict], list[int]]:
    """A game of random decisions (seeded): its log and the decisions."""
    rng = random.Random(seed * 31 + 7)
    game = rules.new_game(seed=seed)
    choices = []
    while not game.is_over and len(choices) < 3000:
        _seat, options = game.decision()
        choices.append(rng.randrange(len(options)))
        game.apply(choices[-1])
    return game.log, choices


def spans(module) -> list:
    return [(type(n).__name__, getattr(n, "span", None)) for n in ast.walk(module)]


@pytest.mark.parametrize("game", shipped_games() + ["lanes-classic"])
def test_a_warm_load_plays_as_the_cold_one(cache_dir, game):
    cold = load(game)
    assert entries(cache_dir), "the cold load stored nothing"
    forget_in_process()
    warm = load(game)
    # every text came from the disk: no parser was built
    assert parser._parser.cache_info().currsize == 0
    assert warm.ruleset.card_modules == cold.ruleset.card_modules
    assert [spans(m) for m in warm.ruleset.card_modules] == [spans(m) for m in cold.ruleset.card_modules]
    assert [spans(m) for m in warm.ruleset.modules] == [spans(m) for m in cold.ruleset.modules]
    for seed in (3, 8) if LONG else (3,):
        log, choices = random_log(cold, seed)
        assert replay_log(warm, seed, choices) == log
        assert random_log(warm, seed) == (log, choices)


def test_a_corrupt_or_truncated_entry_is_ignored_and_rebuilt(cache_dir):
    cold = load("initiative")
    log, choices = random_log(cold, 5)
    files = entries(cache_dir)
    for i, f in enumerate(files):  # every entry broken, in three ways
        raw = f.read_bytes()
        f.write_bytes([raw[: len(raw) // 2], b"garbage", raw[:-1] + bytes([raw[-1] ^ 1])][i % 3])
    forget_in_process()
    again = load("initiative")
    assert replay_log(again, 5, choices) == log
    # each broken entry was written again, whole
    for f in files:
        raw = f.read_bytes()
        assert raw.startswith(MAGIC)
        kind, key = f.parent.name, f.stem
        assert Store(cache_dir).get(kind, key) is not None


def test_an_edited_card_file_misses_the_cache(cache_dir, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(data_root() / "rulesets" / "initiative", root / "rulesets" / "initiative")
    shutil.copytree(data_root() / "cards" / "initiative", root / "cards" / "initiative")
    ruleset = root / "rulesets" / "initiative" / "initiative.yaml"
    cards = root / "cards" / "initiative" / "cards.cards"

    def stab_initiative(rules) -> int:
        for module in rules.ruleset.card_modules:
            for item in module.items:
                if isinstance(item, ast.CardDef) and item.name == "Stab":
                    return next(a.value.value for a in item.attrs if a.name == "initiative")
        raise AssertionError("no Stab")

    assert stab_initiative(load(ruleset)) == 90
    cards.write_text(cards.read_text().replace("initiative = 90", "initiative = 91", 1))
    forget_in_process()
    assert stab_initiative(load(ruleset)) == 91
    text = cards.read_text()
    line = text[: text.index("part top")].count("\n") + 1
    cards.write_text(text.replace("part top {", "part top {{", 1))
    forget_in_process()
    with pytest.raises(CardrulesError) as err:
        load(ruleset)
    assert f"cards.cards:{line}:" in str(err.value)


def test_two_processes_writing_at_once_leave_a_valid_cache(cache_dir):
    code = "from interpreter import load; load('initiative')"
    env = {**os.environ, "CARDRULES_CACHE_DIR": str(cache_dir)}
    # (cwd: away from the checkout, which `python -c` would put first on sys.path: the processes
    # must import the package under test, and so share its cache fingerprint)
    runs = [subprocess.Popen([sys.executable, "-c", code], env=env, cwd=cache_dir) for _ in range(2)]
    assert [r.wait(timeout=120) for r in runs] == [0, 0]
    store = Store(cache_dir)
    files = entries(cache_dir)
    assert files and not list(cache_dir.rglob(".tmp-*"))
    assert all(store.get(f.parent.name, f.stem) is not None for f in files)
    forget_in_process()
    load("initiative")
    assert parser._parser.cache_info().currsize == 0


def test_concurrent_writers_of_one_key_never_leave_a_partial_entry(cache_dir):
    """Two processes write one key 150 times each (values of different sizes) while this one
    reads it: every read is one writer's whole value, or nothing yet."""
    key = key_of("race", ["one key"])
    writer = textwrap.dedent(f"""
        import sys
        from interpreter.diskcache import Store
        from pathlib import Path
        store = Store(Path({str(cache_dir)!r}))
        value = [sys.argv[1]] * int(sys.argv[2])
        for _ in range(150):
            assert store.put("race", {key!r}, value)
    """)
    runs = [subprocess.Popen([sys.executable, "-c", writer, name, size], cwd=cache_dir.parent)  # (the cache folder may not exist yet)
            for name, size in (("a", "10"), ("b", "5000"))]
    store = Store(cache_dir)
    seen = set()
    while any(r.poll() is None for r in runs):
        value = store.get("race", key)
        if value is not None:
            assert value in (["a"] * 10, ["b"] * 5000)
            seen.add(value[0])
    assert [r.wait() for r in runs] == [0, 0]
    assert store.get("race", key) in (["a"] * 10, ["b"] * 5000)


def test_no_cache_writes_nothing(cache_dir, monkeypatch):
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    before = entries(cache_dir)
    load("initiative")
    assert entries(cache_dir) == before and not (cache_dir / fingerprint() / "parse").exists()


def test_what_is_stored_is_plain_data(cache_dir):
    """Only marshal of plain values: a value holding any other object is refused."""
    store = Store(cache_dir)
    assert not store.put("x", "k", {"a": object()})
    assert not store.put("x", "k", [ast.Name("n")])
    assert store.put("x", "k", {"a": [1, 2.5, "s", None, True, (b"b",)]})
    assert store.get("x", "k") == {"a": [1, 2.5, "s", None, True, (b"b",)]}


def validate_out(capsys, *args) -> tuple[int, str]:
    forget_in_process()
    code = main(["validate", *map(str, args)])
    return code, capsys.readouterr().out


def test_validate_replays_an_error_free_check_and_rechecks_an_edited_one(cache_dir, tmp_path, capsys):
    root = tmp_path / "copy"
    shutil.copytree(data_root() / "rulesets" / "initiative", root / "rulesets" / "initiative")
    shutil.copytree(data_root() / "cards" / "initiative", root / "cards" / "initiative")
    ruleset = root / "rulesets" / "initiative" / "initiative.yaml"
    cards = root / "cards" / "initiative" / "cards.cards"
    first = validate_out(capsys, ruleset)
    assert first[0] == 0 and "0 with errors" in first[1]
    [entry] = (cache_dir).rglob("validate/*.bin")
    stamp = entry.stat().st_mtime_ns
    assert validate_out(capsys, ruleset) == first
    assert entry.stat().st_mtime_ns == stamp  # replayed, not checked and stored again
    # an error in a card file is found and located, not replayed
    good = cards.read_text()
    cards.write_text(good.replace("initiative = 90", "initiative = nonsense_name", 1))
    code, out = validate_out(capsys, ruleset)
    assert code == 1 and "cards.cards:" in out and "nonsense_name" in out
    assert validate_out(capsys, ruleset) == (code, out)  # (an error is never stored)
    cards.write_text(good)
    assert validate_out(capsys, ruleset) == first
    # a deck added beside the others is checked
    decks = ruleset.parent / "decks"
    shutil.copy(decks / "swarm.yaml", decks / "swarm2.yaml")
    code, out = validate_out(capsys, ruleset)
    assert code == 0 and "swarm2.yaml" in out and "swarm2.yaml" not in first[1]


# -- the cache's secret: entries that anyone else wrote read as misses ------------------------------


def _forge(entry: Path, old: bytes, new: bytes, digest) -> None:
    """Rewrite an entry's payload and recompute its digest without the secret (what anyone who may
    write the cache folder can do), in the entry's own layout: MAGIC, DIGEST bytes, payload."""
    raw = entry.read_bytes()
    payload = raw[len(MAGIC) + DIGEST:].replace(old, new)
    entry.write_bytes(MAGIC + digest(payload) + payload)


UNKEYED_DIGESTS = {  # the digest the cache used before it had a secret, and plain SHA-256
    "blake2b": lambda payload: hashlib.blake2b(payload, digest_size=DIGEST).digest(),
    "sha256": lambda payload: hashlib.sha256(payload).digest()[:DIGEST],
}


@pytest.mark.parametrize("digest", sorted(UNKEYED_DIGESTS))
def test_an_entry_rewritten_without_the_secret_is_a_miss(cache_dir, capsys, digest):
    """The attack: rename a card inside the cached parse of its file and recompute the digest.
    The next load must not show the new name: the entry reads as a miss and is rebuilt."""
    load("initiative")
    forged = [f for f in entries(cache_dir) if b"Stab" in f.read_bytes()]
    assert forged, "no cached entry holds the card's name"
    for f in forged:
        _forge(f, b"Stab", b"Stax", UNKEYED_DIGESTS[digest])
    forget_in_process()
    assert main(["cards", "initiative"]) == 0
    out = capsys.readouterr().out
    assert "Stax" not in out and "Stab" in out
    for f in forged:  # each forged entry was rebuilt, with the right name
        assert b"Stab" in f.read_bytes() and Store(cache_dir).get(f.parent.name, f.stem) is not None


def test_an_entry_copied_to_another_key_or_cache_is_a_miss(cache_dir, tmp_path):
    store = Store(cache_dir)
    assert store.put("x", "one", ["the value of one"])
    (cache_dir / fingerprint() / "x" / "two.bin").write_bytes((cache_dir / fingerprint() / "x" / "one.bin").read_bytes())
    assert store.get("x", "one") == ["the value of one"] and store.get("x", "two") is None
    other = Store(tmp_path / "another-users-cache")  # (another secret)
    assert other.put("x", "one", ["planted"])
    (cache_dir / fingerprint() / "x" / "one.bin").write_bytes(
        (tmp_path / "another-users-cache" / fingerprint() / "x" / "one.bin").read_bytes())
    assert Store(cache_dir).get("x", "one") is None


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_the_cache_folders_are_0700_and_its_files_0600(tmp_path):
    root = tmp_path / "home" / "cache" / "cardrules"  # (its parents missing too)
    store = Store(root)
    assert store.put("parse", "k", [1, 2]) and store.put("lark", "k", {"a": 1})
    folders = [root, root / fingerprint(), root / fingerprint() / "parse", root / fingerprint() / "lark"]
    assert {str(f.relative_to(tmp_path)): _mode(f) for f in folders} == {
        str(f.relative_to(tmp_path)): 0o700 for f in folders}
    files = [root / SECRET_FILE, *entries(root)]
    assert len(files) == 3 and {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}
    assert (root / SECRET_FILE).stat().st_size == 32
    # a cache folder of the user's left open by an older version is closed
    os.chmod(root, 0o755)
    assert Store(root).get("parse", "k") == [1, 2] and _mode(root) == 0o700


def _make_untrusted(secret: Path, how: str, monkeypatch) -> None:
    if how == "group-readable":
        os.chmod(secret, 0o640)
    elif how == "world-writable":
        os.chmod(secret, 0o602)
    elif how == "not-the-users":
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            os.chown(secret, 65534, 65534)  # (nobody)
        else:
            monkeypatch.setattr(diskcache, "_user_id", lambda: os.geteuid() + 1)
    elif how == "symlink":  # a link to a file of the user's, of the right size and mode
        target = secret.parent.parent / "elsewhere"
        target.write_bytes(secret.read_bytes())
        os.chmod(target, 0o600)
        secret.unlink()
        secret.symlink_to(target)
    elif how == "short":
        secret.write_bytes(secret.read_bytes()[:16])


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX owners and modes")
@pytest.mark.parametrize("how", ["group-readable", "world-writable", "not-the-users", "symlink", "short"])
def test_a_secret_someone_else_may_know_is_replaced(tmp_path, monkeypatch, how):
    """Decided: a secret file that is not the user's own, or that group or others may read or
    write, is replaced by a fresh one; every entry keyed by the old one then reads as a miss."""
    root = tmp_path / "cache"
    assert Store(root).put("x", "k", ["kept under the old secret"])
    secret = root / SECRET_FILE
    old = secret.read_bytes()
    _make_untrusted(secret, how, monkeypatch)
    store = Store(root)
    assert store.get("x", "k") is None
    monkeypatch.undo()  # (the user is the user again, for the checks below)
    assert not secret.is_symlink() and secret.read_bytes() != old and len(secret.read_bytes()) == 32
    assert secret.stat().st_uid == getattr(os, "geteuid", lambda: secret.stat().st_uid)()
    assert _mode(secret) == 0o600
    assert store.put("x", "k", ["new"]) and Store(root).get("x", "k") == ["new"]
    if how == "symlink":
        assert (tmp_path / "elsewhere").read_bytes() == old  # (the link was replaced, not its target)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_without_a_trusted_secret_the_cache_is_not_used(tmp_path, monkeypatch):
    """Decided: when an untrusted secret cannot be replaced, nothing is read or written."""
    root = tmp_path / "cache"
    assert Store(root).put("x", "k", [1])
    os.chmod(root / SECRET_FILE, 0o644)

    def refused(*_args, **_kwargs):
        raise PermissionError("read-only folder")

    monkeypatch.setattr(diskcache.os, "replace", refused)
    store = Store(root)
    assert store.get("x", "k") is None and not store.put("x", "k2", [2])
    assert not (root / fingerprint() / "x" / "k2.bin").exists()


def test_processes_racing_to_make_the_secret_agree_on_one(tmp_path):
    root = tmp_path / "cache"
    go = tmp_path / "go"
    code = textwrap.dedent(f"""
        import time
        from pathlib import Path
        from interpreter.diskcache import Store
        while not Path({str(go)!r}).exists():
            time.sleep(0.001)
        print(Store(Path({str(root)!r})).secret().hex())
    """)
    runs = [subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stdout=subprocess.PIPE, text=True)
            for _ in range(6)]
    time.sleep(1.5)  # (the processes import, then wait for the word)
    go.write_text("go")
    seen = {r.communicate(timeout=120)[0].strip() for r in runs}
    assert [r.returncode for r in runs] == [0] * 6
    assert seen == {(root / SECRET_FILE).read_bytes().hex()}
    assert not list(root.glob(".tmp-*"))

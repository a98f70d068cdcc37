"""The Vosk model files: where the model is, whether it is whole, loading it, fetching it.

Lookup order (the first that is given or exists wins; docs/dev/voice.md):

1. ``--model DIR`` (``explicit``), 2. ``PYRAMID_VOSK_MODEL``, 3. ``VOSK_MODEL_PATH``
(Vosk's own variable: a folder of models, or a model folder itself), 4. Vosk's own cache
``~/.cache/vosk/vosk-model-small-ru-0.22``, 5. this program's user cache (platformdirs),
where ``model download`` puts it.

A place given explicitly (1, 2) that is not a whole model is an error, never silently
skipped. A found folder is checked before Vosk sees it (``check_model_dir``) and Vosk is
always given a path: ``vosk.Model(lang=...)`` downloads on its own and calls ``sys.exit``
when that fails, so it is never used.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import stat
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import platformdirs

from .errors import ModelError
from .messages import trl

MODEL_NAME = "vosk-model-small-ru-0.22"
MODEL_URL = f"https://alphacephei.com/vosk/models/{MODEL_NAME}.zip"
MODEL_SIZE = 46_236_750  # bytes, from Vosk's model list
MODEL_MD5 = "d1759dc83eb8fd87850129afbd9f4b7b"
ENV_VAR = "PYRAMID_VOSK_MODEL"
VOSK_ENV_VAR = "VOSK_MODEL_PATH"
APP_NAME = "pyramid-referee"

# Files every Vosk model has; the graph is either one HCLG.fst or the lookahead pair
# HCLr.fst + Gr.fst (the small models, the Korean test model).
REQUIRED_FILES = ("am/final.mdl", "conf/model.conf")
GRAPH_CHOICES = (("graph/HCLG.fst",), ("graph/HCLr.fst", "graph/Gr.fst"))
_RU_MODEL = re.compile(r"^vosk-model(-small)?-ru\b")


@dataclass(frozen=True)
class ModelLocation:
    path: Path
    source: (
        str  # "--model" | "PYRAMID_VOSK_MODEL" | "VOSK_MODEL_PATH" | "vosk-cache" | "user-cache"
    )


def user_cache_dir() -> Path:
    """Where ``model download`` puts models: this program's user cache (platformdirs)."""
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "vosk"


def vosk_cache_dir(home: Path | None = None) -> Path:
    """Vosk's own cache folder (``vosk.MODEL_DIRS``): ``~/.cache/vosk``."""
    return (home or Path.home()) / ".cache" / "vosk"


def manual_instructions(lang: str = "ru", cache: Path | None = None) -> str:
    """How to place the model by hand (used when none is found or the network is down)."""
    cache = cache or user_cache_dir()
    return trl(
        lang,
        "download {MODEL_URL} ({MODEL_SIZE} bytes, md5 {MODEL_MD5}) and unzip it into {cache} "
        "(so that {path} exists), or point to a model folder: --model DIR or {ENV_VAR}=DIR",
    ).format(
        MODEL_URL=MODEL_URL,
        MODEL_SIZE=MODEL_SIZE,
        MODEL_MD5=MODEL_MD5,
        cache=cache,
        path=cache / MODEL_NAME / "am" / "final.mdl",
        ENV_VAR=ENV_VAR,
    )


def missing_model_files(path: Path) -> list[str]:
    """The model files absent from ``path`` (empty: the folder looks like a whole model)."""
    missing = [f for f in REQUIRED_FILES if not (path / f).is_file()]
    if not any(all((path / f).is_file() for f in choice) for choice in GRAPH_CHOICES):
        missing.append("graph/HCLG.fst " + "|" + " graph/HCLr.fst+graph/Gr.fst")
    return missing


def check_model_dir(path: str | os.PathLike, *, source: str = "--model", lang: str = "ru") -> Path:
    """A missing folder, a file, or a half-unpacked model → ModelError naming what is absent."""
    p = Path(path).expanduser()
    if not p.exists():
        raise ModelError(
            trl(lang, "Vosk model not found: {p} ({source}) does not exist").format(
                p=p, source=source
            )
        )
    if not p.is_dir():
        raise ModelError(
            trl(lang, "{p} ({source}) is a file, not a Vosk model folder").format(
                p=p, source=source
            )
        )
    missing = missing_model_files(p)
    if missing:
        raise ModelError(
            trl(
                lang,
                "{p} ({source}) is not a whole Vosk model (half-unpacked, or not a model): "
                "missing {missing}",
            ).format(p=p, source=source, missing=", ".join(missing))
        )
    return p


def _vosk_places(env: Mapping[str, str], home: Path | None) -> Iterator[tuple[Path, str]]:
    vosk_env = env.get(VOSK_ENV_VAR)
    if vosk_env:
        base = Path(vosk_env).expanduser()
        if (base / "am").is_dir() or (base / "conf").is_dir():
            yield base, VOSK_ENV_VAR  # the variable names a model folder itself
        yield base / MODEL_NAME, VOSK_ENV_VAR
        if base.is_dir():  # any other Russian model there, as Vosk's own lookup matches
            for d in sorted(base.iterdir()):
                if d.name != MODEL_NAME and _RU_MODEL.match(d.name):
                    yield d, VOSK_ENV_VAR
    yield vosk_cache_dir(home) / MODEL_NAME, "vosk-cache"


def find_model(
    explicit: str | os.PathLike | None = None,
    *,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    cache: Path | None = None,
    lang: str = "ru",
) -> ModelLocation:
    """The model folder by the lookup order above, checked; ModelError says where it looked."""
    env = os.environ if env is None else env
    cache = user_cache_dir() if cache is None else cache
    if explicit is not None and str(explicit) != "":
        return ModelLocation(check_model_dir(explicit, source="--model", lang=lang), "--model")
    if env.get(ENV_VAR):
        return ModelLocation(check_model_dir(env[ENV_VAR], source=ENV_VAR, lang=lang), ENV_VAR)
    looked: list[str] = []
    for path, source in [*_vosk_places(env, home), (cache / MODEL_NAME, "user-cache")]:
        looked.append(str(path))
        if path.exists():  # present but broken: say so rather than fall through
            return ModelLocation(check_model_dir(path, source=source, lang=lang), source)
    raise ModelError(
        trl(
            lang,
            "no Vosk model found (looked in: {looked}). Run `pyramid-referee model download`, or "
            "{lang}",
        ).format(looked=", ".join(looked), lang=manual_instructions(lang, cache))
    )


def set_log_level(verbose: bool = False) -> None:
    """Silence Vosk/Kaldi logging unless verbose.

    Kaldi prints a message when its severity is at most the level: warnings are -1, errors
    -2. Level -1 would still print "Ignoring word missing in vocabulary" for every grammar
    word the model lacks; the recognizer reports those itself, so the quiet level is -2.
    """
    import vosk  # deferred: the speech engine loads only when a model is used

    vosk.SetLogLevel(0 if verbose else -2)


@contextlib.contextmanager
def _captured_stderr_fd() -> Iterator[list[str]]:
    """Collect what C code writes to file descriptor 2 (Kaldi's log) while inside."""
    lines: list[str] = []
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all
        yield lines
        return
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            lines.extend(tmp.read().decode("utf-8", "replace").splitlines())


def load_model(path: str | os.PathLike, *, verbose: bool = False, lang: str = "ru"):
    """Check the folder, then load it with Vosk; Vosk's failures become ModelError."""
    p = check_model_dir(path, lang=lang)
    try:
        import vosk  # deferred: the speech engine loads only when a model is used
    except Exception as exc:  # the wheel's native library cannot load
        raise ModelError(trl(lang, "cannot load the vosk library: {exc}").format(exc=exc)) from exc
    set_log_level(verbose)
    log: list[str] = []
    try:
        if verbose:
            model = vosk.Model(str(p))
        else:
            with _captured_stderr_fd() as log:
                model = vosk.Model(str(p))
    except Exception as exc:
        errors = [line for line in log if "ERROR" in line] or [str(exc)]
        raise ModelError(
            trl(
                lang, "Vosk could not load the model {p}: {v} (damaged, or not a Vosk model?)"
            ).format(p=p, v=errors[-1].strip())
        ) from exc
    return model


def has_word(model, word: str) -> bool:
    """Does the model's vocabulary hold this word?

    ``Model.vosk_model_find_word`` (vosk 0.3.45) returns the word's symbol id, or -1 when the
    word is not in the vocabulary; id 0 is ``<eps>``, which is no word.
    """
    return int(model.vosk_model_find_word(word)) > 0


def missing_words(model, words) -> list[str]:
    """The words the model lacks (Vosk drops them from a runtime grammar with only a log line)."""
    return [w for w in words if w != "[unk]" and not has_word(model, w)]


# --- model download --------------------------------------------------------------------------


class NetworkError(ModelError):
    """The model could not be fetched (no network, server error)."""


def _safe_members(zf: zipfile.ZipFile, lang: str) -> list[zipfile.ZipInfo]:
    """Every member's path stays inside the target: no absolute paths, no '..', no links."""
    members = []
    for info in zf.infolist():
        name = info.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or re.match(r"^[A-Za-z]:", name) or ".." in parts or "\0" in name:
            raise ModelError(
                trl(
                    lang, "archive refused: the path {filename!r} escapes the target folder"
                ).format(filename=info.filename)
            )
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise ModelError(
                trl(lang, "archive refused: {filename!r} is a symbolic link").format(
                    filename=info.filename
                )
            )
        members.append(info)
    return members


def safe_extract(archive: Path, target: Path, *, lang: str = "ru") -> None:
    """Unpack ``archive`` into the (new, empty) folder ``target``; refuse any escaping path."""
    try:
        with zipfile.ZipFile(archive) as zf:
            members = _safe_members(zf, lang)
            root = target.resolve()
            for info in members:
                dest = (root / info.filename.replace("\\", "/")).resolve()
                if dest != root and root not in dest.parents:  # defence in depth
                    raise ModelError(
                        trl(
                            lang,
                            "archive refused: the path {filename!r} escapes the target folder",
                        ).format(filename=info.filename)
                    )
                if info.is_dir():
                    dest.mkdir(parents=True, exist_ok=True)
                    continue
                dest.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
    except zipfile.BadZipFile as exc:
        raise ModelError(
            trl(lang, "the archive {archive} is damaged: {exc}").format(archive=archive, exc=exc)
        ) from exc


def _fetch(
    url: str,
    dest: Path,
    *,
    progress: Callable[[int, int | None], None] | None,
    timeout: float,
    lang: str,
) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(dest, "wb") as out:
            total = resp.headers.get("Content-Length")
            total = int(total) if total and total.isdigit() else None
            done = 0
            while True:
                chunk = resp.read(1 << 16)
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
            return done
    except urllib.error.HTTPError as exc:
        raise NetworkError(
            trl(lang, "could not download {url}: the server answered {code} {reason}").format(
                url=url, code=exc.code, reason=exc.reason
            )
        ) from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, FileNotFoundError):  # a file:// address
            raise ModelError(
                trl(lang, "could not download {url}: no such file").format(url=url)
            ) from exc
        raise _network_error(url, reason, timeout, lang) from exc
    except (TimeoutError, ConnectionError) as exc:  # the connection broke or stalled while reading
        raise _network_error(url, exc, timeout, lang) from exc
    except OSError as exc:  # writing the archive here failed (disk full, no permission)
        raise ModelError(
            trl(lang, "could not write the archive into {parent}: {v}").format(
                parent=dest.parent, v=exc.strerror or exc
            )
        ) from exc


def _network_error(url: str, reason: object, timeout: float, lang: str) -> NetworkError:
    """No network, no such server, refused or silent: said plainly, with the reason
    in the user's language."""
    if isinstance(reason, socket.gaierror):
        why = trl(lang, "the server's name was not found (DNS)")
    elif isinstance(reason, ConnectionRefusedError):
        why = trl(lang, "connection refused")
    elif isinstance(reason, TimeoutError) or "timed out" in str(reason):
        why = trl(lang, "no answer within {timeout:g} s").format(timeout=timeout)
    elif isinstance(reason, ConnectionError):
        why = trl(lang, "the connection broke")
    else:
        why = str(reason)
    return NetworkError(
        trl(
            lang, "no network (or the server cannot be reached): could not download {url} ({why})"
        ).format(url=url, why=why)
    )


def _model_root(unpacked: Path, name: str) -> Path:
    if (unpacked / name).is_dir():
        return unpacked / name
    if not missing_model_files(unpacked):
        return unpacked
    subdirs = [d for d in unpacked.iterdir() if d.is_dir()]
    return subdirs[0] if len(subdirs) == 1 else unpacked


def download_model(
    dest_root: Path | None = None,
    *,
    url: str = MODEL_URL,
    size: int | None = MODEL_SIZE,
    md5: str | None = MODEL_MD5,
    name: str = MODEL_NAME,
    progress: Callable[[int, int | None], None] | None = None,
    timeout: float = 30.0,
    lang: str = "ru",
) -> tuple[Path, bool]:
    """Fetch, verify and unpack the model once; return (its folder, whether it was fetched now).

    The archive goes to a temporary file beside the target; its size and md5 are checked;
    it is unpacked into a temporary folder (refusing any path that escapes it), the result
    is checked as a model, and only then renamed into place (one atomic rename). A model
    already in place is not fetched again.
    """
    dest_root = Path(dest_root) if dest_root is not None else user_cache_dir()
    target = dest_root / name
    if target.is_dir() and not missing_model_files(target):
        return target, False
    scheme = urllib.parse.urlsplit(url).scheme.lower()
    if scheme not in ("http", "https", "file"):
        raise ModelError(
            trl(lang, "not a download address: {url!r}; expected http://… or https://…").format(
                url=url
            )
        )
    if dest_root.exists() and not dest_root.is_dir():
        raise ModelError(
            trl(lang, "{dest_root} is a file, not a folder for the model").format(
                dest_root=dest_root
            )
        )
    created = [p for p in (dest_root, *dest_root.parents) if not p.exists()]
    try:
        dest_root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ModelError(
            trl(lang, "cannot create the folder {dest_root}: {v}").format(
                dest_root=dest_root, v=exc.strerror or exc
            )
        ) from exc
    try:
        return _download_into(
            dest_root,
            target,
            url=url,
            size=size,
            md5=md5,
            name=name,
            progress=progress,
            timeout=timeout,
            lang=lang,
        ), True
    except BaseException:
        for p in created:  # a failed download leaves no empty folders behind
            with contextlib.suppress(OSError):
                p.rmdir()
        raise


def _download_into(
    dest_root: Path,
    target: Path,
    *,
    url: str,
    size: int | None,
    md5: str | None,
    name: str,
    progress: Callable[[int, int | None], None] | None,
    timeout: float,
    lang: str,
) -> Path:
    with tempfile.TemporaryDirectory(prefix=f".{name}.", dir=dest_root) as tmp:
        tmp_path = Path(tmp)
        archive = tmp_path / f"{name}.zip"
        got = _fetch(url, archive, progress=progress, timeout=timeout, lang=lang)
        if size is not None and got != size:
            raise ModelError(
                trl(
                    lang, "downloaded archive {url}: {got} bytes, expected {size}; not unpacked"
                ).format(url=url, got=got, size=size)
            )
        if md5 is not None:
            digest = hashlib.md5()
            with open(archive, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    digest.update(chunk)
            if digest.hexdigest() != md5.lower():
                raise ModelError(
                    trl(
                        lang, "downloaded archive {url}: md5 {v}, expected {md5}; not unpacked"
                    ).format(url=url, v=digest.hexdigest(), md5=md5)
                )
        unpacked = tmp_path / "unpacked"
        unpacked.mkdir()
        safe_extract(archive, unpacked, lang=lang)
        root = _model_root(unpacked, name)
        missing = missing_model_files(root)
        if missing:
            raise ModelError(
                trl(lang, "the archive {url} holds no whole Vosk model: missing {missing}").format(
                    url=url, missing=", ".join(missing)
                )
            )
        old = None
        if target.exists():  # a half-unpacked leftover: moved aside, removed after the swap
            old = tmp_path / "old"
            os.rename(target, old)
        os.rename(root, target)
    return target

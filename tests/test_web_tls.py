"""``serve --https``: the certificate made once for this computer, kept, and made again only when
a name it must cover is missing."""

from __future__ import annotations

import ipaddress
import stat

import pytest

pytest.importorskip("cryptography")

from cryptography import x509  # noqa: E402

from pyramid_referee.web import tls  # noqa: E402


def _sans(path):
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.DNSName)), {
        str(a) for a in san.get_values_for_type(x509.IPAddress)
    }


def test_the_certificate_covers_this_computers_names_and_addresses_and_the_key_is_private(
    tmp_path,
):
    c = tls.ensure_certificate(("table.local",), folder=tmp_path)
    dns, ips = _sans(c.cert_path)
    assert {"localhost", "table.local"} <= dns and "127.0.0.1" in ips
    host = tls.socket.gethostname().split(".")[0].lower()
    assert host in dns and host + ".local" in dns
    for n in c.names:  # every name it says it covers is in it
        try:
            ipaddress.ip_address(n)
            assert n in ips
        except ValueError:
            assert n in dns
    assert stat.S_IMODE(c.key_path.stat().st_mode) == 0o600
    assert c.made and len(c.fingerprint.split(":")) == 32 and len(c.spki_sha256) == 44


def test_the_kept_certificate_is_used_again_so_a_tablet_accepts_it_once(tmp_path):
    first = tls.ensure_certificate((), folder=tmp_path)
    again = tls.ensure_certificate((), folder=tmp_path)
    assert not again.made and again.fingerprint == first.fingerprint


def test_a_new_name_makes_a_new_certificate_with_the_same_key(tmp_path):
    first = tls.ensure_certificate((), folder=tmp_path)
    other = tls.ensure_certificate(("bar.club.example",), folder=tmp_path)
    assert other.made and other.fingerprint != first.fingerprint
    assert other.spki_sha256 == first.spki_sha256  # the same key: a pinned key still matches
    assert "bar.club.example" in _sans(other.cert_path)[0]


def test_the_folder_is_the_user_data_folder_unless_told(monkeypatch, tmp_path):
    monkeypatch.delenv("PYRAMID_REFEREE_TLS_DIR", raising=False)
    import platformdirs

    assert tls.cert_dir() == tls.Path(platformdirs.user_data_dir("pyramid-referee")) / "tls"
    monkeypatch.setenv("PYRAMID_REFEREE_TLS_DIR", str(tmp_path))
    assert tls.cert_dir() == tmp_path

"""``serve --https``: a self-signed certificate for this computer, made once and kept.

Browsers give the microphone only to a secure page: a tablet opening ``http://192.168.…`` gets
no ``getUserMedia`` (only ``localhost`` is exempt). So ``serve --https`` serves over TLS with a
certificate for this machine's names (its host name, ``NAME.local``, its LAN addresses,
``localhost``, ``127.0.0.1``), made with ``cryptography`` on first run and kept in the user data
folder (``platformdirs``), so a tablet accepts it once. When this computer gets a name or an
address the kept certificate does not cover (another network), a new one is made with the same
key and the tablets accept it again. Its SHA-256 fingerprint is printed, so the marker can
compare it with the one the tablet shows (docs/serve.md).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

APP_NAME = "pyramid-referee"
VALID_DAYS = 3650


@dataclass(frozen=True)
class Certificate:
    cert_path: Path
    key_path: Path
    fingerprint: str  # SHA-256 of the certificate (DER), as browsers show it: AB:CD:…
    spki_sha256: (
        str  # base64 SHA-256 of the public key (Chromium's --ignore-certificate-errors-spki-list)
    )
    names: tuple[str, ...]
    made: bool  # made (or remade) on this run


def cert_dir() -> Path:
    """Where the certificate is kept: ``$PYRAMID_REFEREE_TLS_DIR`` or ``<user data>/tls``."""
    env = os.environ.get("PYRAMID_REFEREE_TLS_DIR")
    if env:
        return Path(env)

    return Path(platformdirs.user_data_dir(APP_NAME)) / "tls"


def machine_names(extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """This computer's names and addresses for the certificate, in a stable order."""
    names: list[str] = ["localhost", "127.0.0.1"]
    host = socket.gethostname()
    if host:
        short = host.split(".")[0]
        names += [host, short, short + ".local"]
    try:
        for info in socket.getaddrinfo(host, None):
            names.append(info[4][0])
    except OSError:
        pass
    try:
        with socket.socket(
            socket.AF_INET, socket.SOCK_DGRAM
        ) as s:  # the LAN address: no packet is sent
            s.connect(("10.255.255.255", 1))
            names.append(s.getsockname()[0])
    except OSError:
        pass
    names += list(extra)
    out = []
    for n in names:
        n = n.strip().lower()
        if n and n not in out and "%" not in n:
            out.append(n)
    return tuple(out)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def _load_or_make_key(path: Path):
    if path.exists():
        return serialization.load_pem_private_key(path.read_bytes(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return key


def _covered(cert, names: tuple[str, ...]) -> bool:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    have = {str(v).lower() for v in san.get_values_for_type(x509.DNSName)}
    have |= {str(v) for v in san.get_values_for_type(x509.IPAddress)}
    now = dt.datetime.now(dt.timezone.utc)
    fresh = cert.not_valid_after_utc > now + dt.timedelta(days=30)
    return fresh and all((str(ipaddress.ip_address(n)) if _is_ip(n) else n) in have for n in names)


def _make(key, names: tuple[str, ...]):
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, names[2] if len(names) > 2 else names[0]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "pyramid-referee serve"),
        ]
    )
    alt = [
        x509.IPAddress(ipaddress.ip_address(n)) if _is_ip(n) else x509.DNSName(n) for n in names
    ]
    now = dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )


def fingerprint_of(cert) -> str:
    digest = hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def spki_of(cert) -> str:
    der = cert.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def ensure_certificate(
    extra_names: tuple[str, ...] = (), folder: Path | None = None
) -> Certificate:
    """The kept certificate if it covers this computer's names now, else a new one (same key)."""
    folder = folder or cert_dir()
    folder.mkdir(parents=True, exist_ok=True)
    key_path, cert_path = folder / "serve-key.pem", folder / "serve-cert.pem"
    names = machine_names(extra_names)
    key = _load_or_make_key(key_path)
    cert = None
    if cert_path.exists():
        try:
            cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        except ValueError:
            cert = None
    made = False
    if cert is None or not _covered(cert, names) or cert.public_key() != key.public_key():
        cert = _make(key, names)
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        made = True
    return Certificate(cert_path, key_path, fingerprint_of(cert), spki_of(cert), names, made)

#!/usr/bin/env bash
# Debian packages the tests and the voice path use. Installs only what is missing.
set -euo pipefail
# chromium: serve's browser tests; postgresql: the club tests
PKGS=(espeak-ng festival festvox-ru sox libportaudio2 pulseaudio libasound2-plugins alsa-utils
  chromium postgresql)
# Debian's own python3 needs python3-venv for `python3 -m venv` (scripts/test.sh, example.sh).
python3 -c "import ensurepip, venv" 2>/dev/null || PKGS+=(python3-venv)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
  echo "system-deps: missing ${missing[*]} and no root to install them;" \
    "tests needing them will skip" >&2
  exit 0
fi
echo "system-deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null

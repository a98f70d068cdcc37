"""Name the files on pyproject.toml's E501 pending list that have no long line left.

The list (``[tool.ruff.lint.extend-per-file-ignores]``) holds the files whose long lines are
still to be wrapped by hand; a file that has none left must come off it, or a new long line
there would pass unseen. Exit status 1 when such a file is listed. scripts/lint.sh runs this.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pending_list(pyproject: str) -> tuple[list[str], int]:
    """The files listed with E501 under the pending list's header, and ruff's line length.
    (Read by pattern: Python 3.10, which the project supports, has no TOML reader.)"""
    length = int(re.search(r"(?m)^line-length\s*=\s*(\d+)", pyproject).group(1))
    section = pyproject.split("[tool.ruff.lint.extend-per-file-ignores]", 1)
    if len(section) < 2:
        return [], length
    body = re.split(r"(?m)^\[", section[1], maxsplit=1)[0]
    return re.findall(r'(?m)^"([^"]+)"\s*=\s*\[[^\]]*"E501"', body), length


def main() -> int:
    listed, length = pending_list((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    if not listed:
        return 0
    missing = [f for f in listed if not (ROOT / f).is_file()]
    present = [f for f in listed if f not in missing]
    found = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "ruff"), "check", "--isolated", "--select", "E501"]
        + ["--line-length", str(length), "--output-format", "json", *present],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if found.returncode not in (0, 1):
        print(found.stderr, file=sys.stderr)
        return 1
    long_in = {Path(d["filename"]).resolve() for d in json.loads(found.stdout or "[]")}
    clean = [f for f in present if (ROOT / f).resolve() not in long_in]
    for f in missing:
        print(f"pyproject.toml: {f} is on the E501 pending list but does not exist: take it off")
    for f in clean:
        print(f"pyproject.toml: {f} has no long line left: take it off the E501 pending list")
    return 1 if missing or clean else 0


if __name__ == "__main__":
    raise SystemExit(main())

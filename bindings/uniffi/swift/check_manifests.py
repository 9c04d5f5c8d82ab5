"""Check that the two Swift package manifests describe the same package, and that the one SwiftPM
users add by URL references only committed paths.

Usage: python check_manifests.py ROOT

- `ROOT/Package.swift` (by URL: the released XCFramework) and
  `ROOT/bindings/uniffi/swift/Package.swift` (local build) declare the same products and the same
  targets (kind, name, dependencies); each root target's path is the local one under
  `bindings/uniffi/swift/`. The pair is kept by hand on purpose (released binary vs local build),
  so this check is what stops them drifting.
- every `path:` of the root manifest is a directory holding files tracked by git and none of it
  is ignored (SwiftPM clones the repository: a gitignored path would not exist there); its
  binary target is a `url:` with a 64-hex `checksum:`.

Exit status 1 with one line per problem.
"""

import re
import subprocess
import sys
from pathlib import Path

ENTRY = re.compile(r"\.(library|target|testTarget|binaryTarget)\((.*?)\)\s*,?\s*\n", re.S)
FIELD = re.compile(r'(\w+):\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\w+)')
LOCAL = "bindings/uniffi/swift"


def entries(path: Path) -> dict:
    """(kind, name) -> {field: value} for every product and target of a manifest."""
    src = re.sub(r"(?m)(^|\s)//[^\n]*", "", path.read_text())  # not the // of a url
    consts = dict(re.findall(r'let (\w+) = "([^"]*)"', src))
    out = {}
    for kind, body in ENTRY.findall(src):
        fields = {k: v.strip('"') if v.startswith('"') else consts.get(v, v) for k, v in FIELD.findall(body)}
        out[(kind, fields.get("name", "?"))] = fields
    return out


def deps(fields: dict) -> list:
    return re.findall(r'"([^"]+)"', fields.get("dependencies", "") + fields.get("targets", ""))


def main(root: Path) -> int:
    problems = []
    published, local = entries(root / "Package.swift"), entries(root / LOCAL / "Package.swift")
    if len(published) < 4:
        problems.append(f"Package.swift: found {len(published)} products/targets, expected the full package")
    if set(published) != set(local):
        problems.append(f"the manifests differ in products/targets: only in Package.swift {sorted(set(published) - set(local))}, only in {LOCAL}/Package.swift {sorted(set(local) - set(published))}")
    tracked = set(subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout.splitlines())
    for key, fields in sorted(published.items()):
        kind, name = key
        if key in local and deps(fields) != deps(local[key]):
            problems.append(f"{kind} {name}: dependencies {deps(fields)} vs {deps(local[key])} in {LOCAL}/Package.swift")
        if kind == "binaryTarget":
            if "path" in fields:
                problems.append(f"binaryTarget {name}: Package.swift must point to a released url:, not a path")
            if not fields.get("url", "").startswith("https://"):
                problems.append(f"binaryTarget {name}: no https url")
            if not re.fullmatch(r"[0-9a-f]{64}", fields.get("checksum", "")):
                problems.append(f"binaryTarget {name}: checksum is not 64 hex digits")
            continue
        if kind == "library":
            continue
        path = fields.get("path", "")
        if key in local and path != f"{LOCAL}/{local[key].get('path', '')}":
            problems.append(f"{kind} {name}: path {path!r} is not '{LOCAL}/{local[key].get('path', '')}'")
        files = [f for f in tracked if f.startswith(path.rstrip("/") + "/")]
        if not files:
            problems.append(f"{kind} {name}: path {path!r} holds no committed file")
        ignored = subprocess.run(["git", "-C", str(root), "check-ignore", "--no-index", path], capture_output=True, text=True)
        if ignored.returncode == 0:
            problems.append(f"{kind} {name}: path {path!r} is gitignored")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))

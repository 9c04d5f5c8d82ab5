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
- the local manifest's Linux route: under `#if os(Linux)` a `.systemLibrary` of the same name as
  the binary target, used in its targets in place of it; its committed `module.modulemap`
  declares exactly the C modules the uniffi.toml files name (`ffi_module_name`), each over its
  committed header (`<module>.h`, resolving to generated/swift) and linking the Rust library
  (the `[lib] name` of bindings/uniffi/Cargo.toml).

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


def linux_route(root: Path, published: dict, tracked: set) -> list:
    """Problems of the local manifest's Linux system-library target (see the module docstring)."""
    problems = []
    manifest = root / LOCAL / "Package.swift"
    src = re.sub(r"(?m)(^|\s)//[^\n]*", "", manifest.read_text())
    binaries = [name for kind, name in published if kind == "binaryTarget"]
    linux = re.search(r"#if os\(Linux\)(.*?)#else(.*?)#endif", src, re.S)
    if not linux or not binaries:
        return [f"{LOCAL}/Package.swift: no '#if os(Linux)' route for the binary target"]
    system = re.search(r"let (\w+)\s*:\s*Target\s*=\s*\.systemLibrary\((.*?)\)\s*\n", linux.group(1), re.S)
    if not system:
        return [f"{LOCAL}/Package.swift: the Linux branch declares no .systemLibrary target"]
    var, fields = system.group(1), dict(FIELD.findall(system.group(2)))
    name, path = fields.get("name", "").strip('"'), fields.get("path", "").strip('"')
    if name != binaries[0]:
        problems.append(f"systemLibrary {name!r} is not named like the binary target {binaries[0]!r}")
    if not re.search(rf"let {var}\s*:\s*Target\s*=\s*\.binaryTarget\(", linux.group(2)):
        problems.append(f"{LOCAL}/Package.swift: the non-Linux branch does not declare {var} as the binary target")
    targets = re.search(r"targets:\s*\[(.*)\]\s*\)", src, re.S)
    if not targets or not re.search(rf"(^|\s){var}\s*,", targets.group(1), re.M):
        problems.append(f"{LOCAL}/Package.swift: {var} is not in the package's targets")
    modulemap = root / LOCAL / path / "module.modulemap"
    if f"{LOCAL}/{path}/module.modulemap" not in tracked:
        return problems + [f"{LOCAL}/{path}/module.modulemap is not committed"]
    declared = dict(re.findall(r'module\s+(\w+)\s*\{(.*?)\}', modulemap.read_text(), re.S))
    wanted = set()
    for toml in (root / "bindings/uniffi").glob("**/uniffi.toml"):
        if "target" in toml.parts:
            continue
        wanted |= set(re.findall(r'^ffi_module_name\s*=\s*"([^"]+)"', toml.read_text(), re.M))
    if set(declared) != wanted:
        problems.append(f"{LOCAL}/{path}/module.modulemap declares {sorted(declared)}, uniffi.toml names {sorted(wanted)}")
    lib = re.search(r'\[lib\]\s*\nname\s*=\s*"([^"]+)"', (root / "bindings/uniffi/Cargo.toml").read_text())
    for module, body in declared.items():
        header = re.search(r'header\s+"([^"]+)"', body)
        file = modulemap.parent / header.group(1) if header else None
        if not file or not file.is_file() or f"{LOCAL}/{path}/{header.group(1)}" not in tracked:
            problems.append(f"module {module}: header missing or not committed")
        elif file.resolve() != (root / "generated/swift" / f"{module}.h").resolve():
            problems.append(f"module {module}: header {header.group(1)} is not generated/swift/{module}.h")
        if not lib or f'link "{lib.group(1)}"' not in body:
            problems.append(f"module {module}: does not link the Rust library {lib.group(1) if lib else '?'}")
    return problems


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
    problems += linux_route(root, published, tracked)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))

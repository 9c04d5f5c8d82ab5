"""Checks an XCFramework of the wirecontract static library, on Linux and macOS alike (Mach-O is
read by macho.py, no Xcode or LLVM tool needed):

    check_xcframework.py FRAMEWORK.xcframework --root REPO [--example PLIST] [--allow LIST]

1. Info.plist equals the committed example (xcframework-Info.plist.example, the plist
   `xcodebuild -create-xcframework` writes for these three libraries): the same top-level keys
   and values, the same libraries (in any order), each with the same keys and values.
2. Each library the plist lists exists, with Headers/ holding both uniffi C headers, equal to
   generated/swift/*.h, and one module.modulemap declaring both C modules.
3. Each library is a static library (`ar` archive, fat where the plist lists two
   architectures) whose slices are exactly the plist's SupportedArchitectures, every member a
   64-bit Mach-O object of its slice's architecture, and every object's LC_BUILD_VERSION the
   plist's platform (macOS, iOS, iOS simulator) with a minimum OS no later than the root
   Package.swift's platform (.macOS(.vN), .iOS(.vN)); the objects defining the uniffi symbols
   were built for exactly that minimum (the deployment target reached the build).
4. Each slice defines every C function the generated Swift can call: every function the two
   generated headers declare, which includes uniffi's checksum functions
   (uniffi_*_checksum_*) and ffi_*_uniffi_contract_version; every `uniffi_`/`ffi_` name the
   generated Swift uses must be one of them.
5. Each slice leaves undefined only system symbols: a symbol an object needs and no object of
   the slice defines must match the allow-list (system-symbols.txt: exact names and `prefix*`
   patterns of libSystem, the one library every Apple process links: libc, libm, libpthread,
   libdyld, libunwind, compiler-rt, libdispatch, libmalloc).

Prints one line per finding and exits 1 if there is any, 0 with a summary line otherwise.
"""

import argparse
import plistlib
import re
import sys
from pathlib import Path

import macho

HEADERS = ("WirecontractGraphmindFFI.h", "WirecontractGraphorinFFI.h")
MODULES = ("WirecontractGraphmindFFI", "WirecontractGraphorinFFI")
BUILD_PLATFORM = {("macos", None): "macos", ("ios", None): "ios", ("ios", "simulator"): "ios-simulator"}


def declared_functions(header_text):
    """Names of the functions a uniffi header declares (`type name(args);` at top level)."""
    return set(re.findall(r"^[A-Za-z_][\w \*]*?\b((?:uniffi|ffi)_\w+)\(", header_text, re.M))


def swift_calls(swift_text):
    return set(re.findall(r"\b((?:uniffi|ffi)_[A-Za-z0-9_]+)\b", swift_text))


def minimums(package_swift):
    """{'macos': (12, 0), 'ios': (15, 0)} from the manifest's platforms."""
    found = {}
    for name, key in (("macOS", "macos"), ("iOS", "ios")):
        m = re.search(r"\.%s\(\.v(\d+)(?:_(\d+))?\)" % name, package_swift)
        if m:
            found[key] = (int(m.group(1)), int(m.group(2) or 0))
    return found


def load_allow(path):
    exact, prefixes = set(), []
    for line in Path(path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.endswith("*"):
            prefixes.append(line[:-1])
        else:
            exact.add(line)
    return lambda sym: sym in exact or any(sym.startswith(p) for p in prefixes)


def canon(entry):
    return {k: (sorted(v) if isinstance(v, list) else v) for k, v in entry.items()}


def check_plist(plist, example, problems):
    top = set(plist) | set(example)
    for key in sorted(top - {"AvailableLibraries"}):
        if plist.get(key) != example.get(key):
            problems.append(f"Info.plist: {key} is {plist.get(key)!r}, the example has {example.get(key)!r}")
    libs = {e.get("LibraryIdentifier"): canon(e) for e in plist.get("AvailableLibraries", [])}
    want = {e["LibraryIdentifier"]: canon(e) for e in example["AvailableLibraries"]}
    for ident in sorted(set(want) - set(libs), key=str):
        problems.append(f"Info.plist: no library {ident}")
    for ident in sorted(set(libs) - set(want), key=str):
        problems.append(f"Info.plist: library {ident} is not in the example")
    for ident in sorted(set(libs) & set(want), key=str):
        have, exp = libs[ident], want[ident]
        for key in sorted(set(have) | set(exp)):
            if key not in have:
                problems.append(f"Info.plist: {ident}: key {key} missing")
            elif key not in exp:
                problems.append(f"Info.plist: {ident}: key {key} is not in the example")
            elif have[key] != exp[key]:
                problems.append(f"Info.plist: {ident}: {key} is {have[key]!r}, the example has {exp[key]!r}")


def check_headers(ident, hdir, root, problems):
    for h in HEADERS:
        p = hdir / h
        if not p.is_file():
            problems.append(f"{ident}: Headers/{h} missing")
        elif p.read_bytes() != (root / "generated/swift" / h).read_bytes():
            problems.append(f"{ident}: Headers/{h} differs from generated/swift/{h}")
    mm = hdir / "module.modulemap"
    if not mm.is_file():
        problems.append(f"{ident}: Headers/module.modulemap missing")
        return
    text = mm.read_text()
    for m in MODULES:
        if not re.search(r"\bmodule\s+%s\s*\{" % m, text):
            problems.append(f"{ident}: Headers/module.modulemap declares no module {m}")
    others = sorted(set(p.name for p in hdir.iterdir()) - set(HEADERS) - {"module.modulemap"})
    if others:
        problems.append(f"{ident}: Headers/ holds files the module map does not name: {', '.join(others)}")


def check_library(ident, entry, lib, required, mins, allowed, problems):
    slices = macho.read_library(lib, label=f"{ident}/{lib.name}")
    archs = sorted(s.arch for s in slices)
    if archs != sorted(entry.get("SupportedArchitectures", [])):
        problems.append(f"{ident}: slices {archs}, the plist declares {entry.get('SupportedArchitectures')}")
    platform = BUILD_PLATFORM.get((entry.get("SupportedPlatform"), entry.get("SupportedPlatformVariant")))
    floor = mins.get((platform or "").split("-")[0])
    for s in slices:
        where = f"{ident} [{s.arch}]"
        if s.others:
            problems.append(f"{where}: members that are not Mach-O objects: {', '.join(s.others[:5])}")
        if not s.objects:
            problems.append(f"{where}: no objects")
            continue
        defined, undefined = set(), set()
        for o in s.objects:
            defined |= o.defined
            undefined |= o.undefined
            if o.arch != s.arch:
                problems.append(f"{where}: {o.name} is {o.arch}")
            if not o.builds:
                problems.append(f"{where}: {o.name} has no LC_BUILD_VERSION")
            for plat, minos in o.builds:
                if plat != platform:
                    problems.append(f"{where}: {o.name} is built for {plat}, the plist says {platform}")
                elif floor and minos[:2] > floor:
                    problems.append(f"{where}: {o.name} needs {plat} {fmt(minos)}, later than Package.swift's {fmt(floor)}")
        # The deployment target reached the Rust build: the object holding the uniffi API says it.
        api = [o for o in s.objects if "_" + min(required) in o.defined]
        if floor and api and not any(b[1][:2] == floor for o in api for b in o.builds):
            got = sorted({fmt(b[1]) for o in api for b in o.builds})
            problems.append(f"{where}: the uniffi objects are built for {', '.join(got)}, not Package.swift's {fmt(floor)}")
        missing = sorted(n for n in required if "_" + n not in defined)
        for n in missing[:20]:
            problems.append(f"{where}: {n} not defined")
        if len(missing) > 20:
            problems.append(f"{where}: ... {len(missing) - 20} more not defined")
        foreign = sorted(u for u in undefined - defined if not allowed(u))
        for u in foreign[:20]:
            problems.append(f"{where}: {u} undefined and not a system symbol (system-symbols.txt)")
        if len(foreign) > 20:
            problems.append(f"{where}: ... {len(foreign) - 20} more undefined")
        s.summary = (len(s.objects), len(defined), len(undefined - defined))
    return slices


def fmt(v):
    return ".".join(map(str, v))


def main(argv):
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("framework", type=Path)
    ap.add_argument("--root", type=Path, required=True, help="the repository (generated/swift, Package.swift)")
    ap.add_argument("--example", type=Path, default=here / "xcframework-Info.plist.example")
    ap.add_argument("--allow", type=Path, default=here / "system-symbols.txt")
    args = ap.parse_args(argv)

    problems = []
    fw = args.framework
    headers = {h: (args.root / "generated/swift" / h).read_text() for h in HEADERS}
    required = set().union(*(declared_functions(t) for t in headers.values()))
    swift = "".join(p.read_text() for p in sorted((args.root / "generated/swift").glob("*.swift")))
    called = swift_calls(swift)
    if not required or not called:
        raise SystemExit("check_xcframework.py: found no functions in generated/swift; wrong --root?")
    for n in sorted(called - required):
        problems.append(f"generated Swift uses {n}, which neither header declares")
    for kind in ("_checksum_", "_uniffi_contract_version"):
        if not any(kind in n for n in required & called):
            problems.append(f"generated Swift calls no {kind.strip('_')} function; the symbol rule misreads it")
    mins = minimums((args.root / "Package.swift").read_text())
    allowed = load_allow(args.allow)

    try:
        with open(fw / "Info.plist", "rb") as f:
            plist = plistlib.load(f)
    except (OSError, plistlib.InvalidFileException, ValueError) as e:
        print(f"{fw.name}: Info.plist unreadable: {e}")
        return 1
    with open(args.example, "rb") as f:
        example = plistlib.load(f)
    check_plist(plist, example, problems)

    lines = []
    for entry in plist.get("AvailableLibraries", []):
        ident = entry.get("LibraryIdentifier", "?")
        base = fw / ident
        hdir = base / entry.get("HeadersPath", "Headers")
        if not hdir.is_dir():
            problems.append(f"{ident}: no headers directory {hdir.name}")
        else:
            check_headers(ident, hdir, args.root, problems)
        lib = base / entry.get("BinaryPath", entry.get("LibraryPath", ""))
        if entry.get("BinaryPath") != entry.get("LibraryPath"):
            problems.append(f"{ident}: BinaryPath {entry.get('BinaryPath')!r} is not LibraryPath {entry.get('LibraryPath')!r}")
        if not lib.is_file():
            problems.append(f"{ident}: library {lib.name} missing")
            continue
        try:
            slices = check_library(ident, entry, lib, required, mins, allowed, problems)
        except macho.MachOError as e:
            problems.append(f"{ident}: {e}")
            continue
        for s in slices:
            if hasattr(s, "summary"):
                n, d, u = s.summary
                builds = sorted({f"{p} {fmt(v)}" for o in s.objects for p, v in o.builds})
                lines.append(f"  {ident} [{s.arch}]: {n} objects ({'; '.join(builds)}), {d} symbols defined, {u} undefined (all system)")
    for p in problems:
        print(p)
    if problems:
        print(f"{fw.name}: {len(problems)} problem(s)")
        return 1
    print(f"{fw.name}: ok: Info.plist as the example, {len(required)} C functions ({len(called)} named in the generated Swift) defined in every slice")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

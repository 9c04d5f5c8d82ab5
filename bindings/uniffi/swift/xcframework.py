"""Assembles and zips an XCFramework of static libraries where `xcodebuild -create-xcframework`
is missing (Linux), in the layout it writes (build-xcframework.sh uses xcodebuild where it
exists):

    NAME.xcframework/Info.plist
    NAME.xcframework/<identifier>/<library>.a
    NAME.xcframework/<identifier>/Headers/...      (a copy of the headers directory)

As xcodebuild does, each library's identifier, architectures and platform are read from the
library itself (macho.py: the fat header and every object's LC_BUILD_VERSION), never given:
`ios-arm64`, `ios-arm64_x86_64-simulator`, `macos-arm64_x86_64`. The Info.plist has the keys
Xcode 15 and later write for a library (BinaryPath, HeadersPath, LibraryIdentifier, LibraryPath,
SupportedArchitectures, SupportedPlatform, SupportedPlatformVariant for a simulator) plus
CFBundlePackageType XFWK and XCFrameworkFormatVersion 1.0; check_xcframework.py compares it with
the committed xcframework-Info.plist.example.

    xcframework.py create OUT.xcframework --headers DIR LIB.a [LIB.a ...]
    xcframework.py zip OUT.xcframework OUT.zip
    xcframework.py lipo OUT.a THIN.a [THIN.a ...]

`lipo` makes a fat (universal) static library of thin ones, as `lipo -create` does: the fat
header (<mach-o/fat.h>, big-endian) and each archive at an offset aligned to its architecture's
page size (2^14 arm64, 2^12 x86_64), slices in that order of alignment. LLVM's llvm-lipo reads the
LLVM bitcode Rust embeds in the standard library's objects and fails when its LLVM is older than
rustc's (Debian bookworm's llvm-lipo 14 on Rust 1.95 libraries), so Linux uses this one.

`zip` is reproducible: entries sorted, every time 1980-01-01 00:00, modes 0755 (directories) and
0644 (files), deflate level 9, so the same tree gives the same bytes and the same checksum.
"""

import argparse
import plistlib
import shutil
import struct
import sys
import zipfile
from pathlib import Path

import macho


def describe(lib):
    """(identifier, architectures, platform, variant) of a static library, from its objects."""
    slices = macho.read_library(lib)
    archs = sorted(s.arch for s in slices)
    platforms = {b[0] for s in slices for o in s.objects for b in o.builds}
    if len(platforms) != 1:
        raise SystemExit(f"xcframework.py: {lib}: expected one platform in its objects, found {sorted(platforms) or 'none'}")
    (platform,) = platforms
    if platform not in ("macos", "ios", "ios-simulator"):
        raise SystemExit(f"xcframework.py: {lib}: unsupported platform {platform}")
    base, _, variant = platform.partition("-")
    identifier = f"{base}-{'_'.join(archs)}" + (f"-{variant}" if variant else "")
    return identifier, archs, base, variant or None


def create(out, headers, libs):
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    libraries = []
    for lib in map(Path, libs):
        identifier, archs, platform, variant = describe(lib)
        if any(entry["LibraryIdentifier"] == identifier for entry in libraries):
            raise SystemExit(f"xcframework.py: two libraries for {identifier}")
        (out / identifier).mkdir()
        shutil.copyfile(lib, out / identifier / lib.name)
        shutil.copytree(headers, out / identifier / "Headers")
        entry = {
            "BinaryPath": lib.name,
            "HeadersPath": "Headers",
            "LibraryIdentifier": identifier,
            "LibraryPath": lib.name,
            "SupportedArchitectures": archs,
            "SupportedPlatform": platform,
        }
        if variant:
            entry["SupportedPlatformVariant"] = variant
        libraries.append(entry)
    plist = {
        "AvailableLibraries": sorted(libraries, key=lambda e: e["LibraryIdentifier"]),
        "CFBundlePackageType": "XFWK",
        "XCFrameworkFormatVersion": "1.0",
    }
    with open(out / "Info.plist", "wb") as f:
        plistlib.dump(plist, f, fmt=plistlib.FMT_XML, sort_keys=True)
    for entry in plist["AvailableLibraries"]:
        print(f"{out.name}/{entry['LibraryIdentifier']}: {', '.join(entry['SupportedArchitectures'])}")


def make_zip(tree, dest):
    tree = Path(tree)
    paths = sorted(p for p in tree.rglob("*"))
    with zipfile.ZipFile(dest, "w") as z:
        for p in [tree, *paths]:
            name = p.relative_to(tree.parent).as_posix()
            if p.is_symlink():
                raise SystemExit(f"xcframework.py: {p} is a symbolic link; the zip holds files and directories only")
            info = zipfile.ZipInfo(name + "/" if p.is_dir() else name, date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3  # Unix, so the modes below are read
            if p.is_dir():
                info.external_attr = (0o40755 << 16) | 0x10
                z.writestr(info, b"")
            else:
                info.external_attr = 0o100644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, p.read_bytes(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


CPU = {"arm64": (0x0100000C, 14), "x86_64": (0x01000007, 12)}


def lipo(out, thins):
    slices = []
    for path in thins:
        data = Path(path).read_bytes()
        (only,) = macho.read_library(path) if data.startswith(macho.AR_MAGIC) else [None]
        if only is None or only.arch not in CPU or not only.objects:
            raise SystemExit(f"xcframework.py: {path} is not a thin arm64 or x86_64 static library")
        first = only.objects[0]
        cputype, align = CPU[only.arch]
        slices.append((align, only.arch, cputype, first.cpusubtype, data))
    if len({s[1] for s in slices}) != len(slices):
        raise SystemExit("xcframework.py: two libraries of one architecture")
    slices.sort(key=lambda s: (s[0], s[1]))
    header = struct.pack(">2I", macho.FAT_MAGIC, len(slices))
    offset = 8 + 20 * len(slices)
    body = b""
    for align, _arch, cputype, subtype, data in slices:
        pad = -offset % (1 << align)
        offset += pad
        body += b"\0" * pad + data
        header += struct.pack(">5I", cputype, subtype, offset, len(data), align)
        offset += len(data)
    Path(out).write_bytes(header + body)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("create")
    c.add_argument("out")
    c.add_argument("--headers", required=True)
    c.add_argument("libs", nargs="+")
    lp = sub.add_parser("lipo")
    lp.add_argument("out")
    lp.add_argument("thins", nargs="+")
    z = sub.add_parser("zip")
    z.add_argument("tree")
    z.add_argument("dest")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "create":
            create(args.out, args.headers, args.libs)
        elif args.cmd == "lipo":
            lipo(args.out, args.thins)
        else:
            make_zip(args.tree, args.dest)
    except macho.MachOError as e:
        raise SystemExit(f"xcframework.py: {e}") from None


if __name__ == "__main__":
    main(sys.argv[1:])

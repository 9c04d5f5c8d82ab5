"""Self-test of xcframework.py and check_xcframework.py, cheap enough for every scripts/test run
(step 47): it needs no Rust build for Apple and no Xcode, only LLVM's assembler, archiver and
(Debian's `llvm` package).

It assembles, with llvm-mc, one small Mach-O object per Apple target that defines every C
function the generated headers declare (each a bare `ret`) and calls `malloc`, archives each
(llvm-ar, Darwin format), makes the simulator and macOS libraries fat (xcframework.py lipo, the one
build-xcframework.sh uses on Linux), assembles the
XCFramework with xcframework.py and zips it twice. Then:

- the check passes on it, its Info.plist equals the committed example, and both zips are the
  same bytes;
- each broken copy fails the check with the finding that names the break: a device slice of
  the wrong architecture, a simulator slice built for devices, an object needing a later OS than
  Package.swift, a missing checksum function, an undefined non-system symbol, a missing plist
  key, a module map without one of the C modules, a truncated library.

LLVM 14's assembler has no name for the iOS-simulator platform in `.build_version`, so the
simulator objects are assembled as `ios` and their LC_BUILD_VERSION platform field is then set
to 7 (PLATFORM_IOSSIMULATOR, <mach-o/loader.h>), the only byte the test writes itself.

    test_xcframework.py --root REPO --mc LLVM_MC --ar LLVM_AR
"""

import argparse
import hashlib
import io
import plistlib
import shutil
import struct
import subprocess
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

import check_xcframework
import macho
import xcframework

LIB = "libwirecontract_uniffi.a"
# (llvm-mc triple, .build_version platform, simulator?, architecture)
TARGETS = {
    "ios-arm64": ("arm64-apple-ios", "ios", False),
    "sim-arm64": ("arm64-apple-ios", "ios", True),
    "sim-x86_64": ("x86_64-apple-ios", "ios", True),
    "macos-arm64": ("arm64-apple-macos", "macos", False),
    "macos-x86_64": ("x86_64-apple-macos", "macos", False),
}


class Fixture:
    def __init__(self, args, work):
        self.args, self.work = args, work
        headers = [(args.root / "generated/swift" / h).read_text() for h in check_xcframework.HEADERS]
        self.functions = sorted(set().union(*map(check_xcframework.declared_functions, headers)))
        mins = check_xcframework.minimums((args.root / "Package.swift").read_text())
        self.mins = {"ios": mins["ios"], "macos": mins["macos"]}
        self.headers = work / "headers"
        self.headers.mkdir()
        for h in check_xcframework.HEADERS:
            shutil.copyfile(args.root / "generated/swift" / h, self.headers / h)
        mm = "".join((args.root / "generated/swift" / (m + ".modulemap")).read_text() + "\n" for m in check_xcframework.MODULES)
        (self.headers / "module.modulemap").write_text(mm)

    def archive(self, name, target, *, drop=(), extra_call=None, platform=None, minos=None):
        """One static library for `target`: every declared function, minus `drop`."""
        triple, plat, sim = TARGETS[target]
        plat = platform or plat
        major, minor = minos or self.mins[plat]
        arm = triple.startswith("arm64")
        ret, call = ("ret", "bl") if arm else ("retq", "callq")
        lines = [f".build_version {plat}, {major}, {minor}", ".text"]
        for f in self.functions:
            if f not in drop:
                lines += [f".globl _{f}", ".p2align 2", f"_{f}:", f"  {ret}"]
        lines += [".globl _wirecontract_fixture_alloc", "_wirecontract_fixture_alloc:", f"  {call} _malloc"]
        if extra_call:
            lines.append(f"  {call} _{extra_call}")
        lines.append(f"  {ret}")
        src = self.work / f"{name}.s"
        src.write_text("\n".join(lines) + "\n")
        obj = self.work / f"{name}.o"
        run(self.args.mc, f"-triple={triple}{major}.{minor}", "-filetype=obj", str(src), "-o", str(obj))
        if sim and platform is None:
            set_platform(obj, 7)
        lib = self.work / f"{name}.a"
        lib.unlink(missing_ok=True)
        run(self.args.ar, "rcs", "--format=darwin", str(lib), str(obj))
        return lib

    def fat(self, name, *libs):
        out = self.work / name / LIB
        out.parent.mkdir(exist_ok=True)
        xcframework.lipo(out, libs)
        return out

    def thin(self, name, lib):
        out = self.work / name / LIB
        out.parent.mkdir(exist_ok=True)
        shutil.copyfile(lib, out)
        return out

    def framework(self, name, libs):
        out = self.work / name / "WirecontractFFI.xcframework"
        with redirect_stdout(io.StringIO()):
            xcframework.create(out, self.headers, libs)
        return out

    def good_libs(self, tag="good", **override):
        a = {t: override.get(t) or self.archive(f"{tag}-{t}", t) for t in TARGETS}
        return [
            self.thin(f"{tag}-ios", a["ios-arm64"]),
            self.fat(f"{tag}-sim", a["sim-arm64"], a["sim-x86_64"]),
            self.fat(f"{tag}-macos", a["macos-arm64"], a["macos-x86_64"]),
        ]


def run(*cmd):
    subprocess.run(cmd, check=True)


def set_platform(obj, platform):
    data = bytearray(obj.read_bytes())
    _magic, _cpu, _sub, _ft, ncmds, _size, _flags, _res = struct.unpack_from("<8I", data, 0)
    off, done = 32, False
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<2I", data, off)
        if cmd == macho.LC_BUILD_VERSION:
            struct.pack_into("<I", data, off + 8, platform)
            done = True
        off += size
    assert done, f"{obj}: llvm-mc wrote no LC_BUILD_VERSION"
    obj.write_bytes(bytes(data))


def check(args, fw):
    out = io.StringIO()
    with redirect_stdout(out):
        code = check_xcframework.main([str(fw), "--root", str(args.root)])
    return code, out.getvalue()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--mc", required=True)
    ap.add_argument("--ar", required=True)
    args = ap.parse_args(argv)
    failures = []
    with tempfile.TemporaryDirectory(prefix="xcframework-test-") as tmp:
        fx = Fixture(args, Path(tmp))
        good = fx.good_libs()
        fw = fx.framework("good", good)
        code, out = check(args, fw)
        if code != 0:
            failures.append(f"the good framework fails the check:\n{out}")
        with open(fw / "Info.plist", "rb") as f, open(Path(__file__).parent / "xcframework-Info.plist.example", "rb") as g:
            if plistlib.load(f) != plistlib.load(g):
                failures.append("xcframework.py's Info.plist differs from the committed example")
        z1, z2 = Path(tmp) / "1.zip", Path(tmp) / "2.zip"
        xcframework.make_zip(fw, z1)
        (fw / "Info.plist").touch()  # a later mtime must not change the zip
        xcframework.make_zip(fw, z2)
        if hashlib.sha256(z1.read_bytes()).digest() != hashlib.sha256(z2.read_bytes()).digest():
            failures.append("two zips of the same tree differ")

        def broken(name, expect, libs=None, edit=None):
            bad = fx.framework(name, libs or good)
            if edit:
                edit(bad)
            code, out = check(args, bad)
            if code != 1 or expect not in out:
                failures.append(f"{name}: expected exit 1 and {expect!r}, got exit {code}:\n{out}")
            else:
                print(f"  fails as it should: {name}: {next(l for l in out.splitlines() if expect in l)}")

        def swap_device_slice(bad):
            shutil.copyfile(fx.archive("wrong-arch", "sim-x86_64", platform="ios"), bad / "ios-arm64" / LIB)

        broken("wrong-arch", "ios-arm64: slices ['x86_64'], the plist declares ['arm64']", edit=swap_device_slice)
        sim_as_device = fx.archive("sim-as-device", "sim-arm64", platform="ios")

        def swap_sim(bad):
            shutil.copyfile(fx.fat("sim-as-device-fat", sim_as_device, fx.archive("x", "sim-x86_64")), bad / "ios-arm64_x86_64-simulator" / LIB)

        broken("device-object-in-simulator-slice", "is built for ios, the plist says ios-simulator", edit=swap_sim)
        later = fx.archive("later-os", "ios-arm64", minos=(fx.mins["ios"][0] + 1, 0))
        broken("later-min-os", "later than Package.swift's", libs=[fx.thin("later", later), *good[1:]])
        checksum = next(f for f in fx.functions if "_checksum_" in f)
        no_sum = fx.archive("no-checksum", "macos-arm64", drop={checksum})
        broken("missing-checksum-function", f"[arm64]: {checksum} not defined", libs=[*good[:2], fx.fat("nosum", no_sum, fx.archive("y", "macos-x86_64"))])
        foreign = fx.archive("foreign", "sim-x86_64", extra_call="wirecontract_private_helper")
        broken("foreign-undefined", "_wirecontract_private_helper undefined and not a system symbol",
               libs=[good[0], fx.fat("foreign-sim", fx.archive("z", "sim-arm64"), foreign), good[2]])

        def drop_key(bad):
            with open(bad / "Info.plist", "rb") as f:
                pl = plistlib.load(f)
            del pl["AvailableLibraries"][0]["HeadersPath"]
            with open(bad / "Info.plist", "wb") as f:
                plistlib.dump(pl, f)

        broken("missing-plist-key", "key HeadersPath missing", edit=drop_key)

        def one_module(bad):
            mm = bad / "macos-arm64_x86_64" / "Headers" / "module.modulemap"
            mm.write_text(mm.read_text().split("module WirecontractGraphorinFFI")[0])

        broken("module-map-without-graphorin", "declares no module WirecontractGraphorinFFI", edit=one_module)

        def truncate(bad):
            lib = bad / "ios-arm64" / LIB
            lib.write_bytes(lib.read_bytes()[:1000])

        broken("truncated-library", "ios-arm64: ", edit=truncate)
    for f in failures:
        print("FAILED:", f)
    if failures:
        return 1
    print(f"xcframework self-test: ok ({len(fx.functions)} C functions per fixture slice; 8 broken copies each refused)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

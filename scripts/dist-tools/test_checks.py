"""Shows that each check of check_dist.py can fail: takes the good artifacts in the given
directories, checks that they pass, then makes broken copies of each (one fault each) and checks
that the checker reports that fault.

    test_checks.py --root REPO --zig-libc DIR --glibc-libs ARCH=DIR,... --auditwheel BIN DIR ...

Faults, per kind of artifact found:
  every wheel   file name tag not the WHEEL file's; a platform tag of the other architecture;
                PyInit__native renamed (not exported); a Python symbol renamed (undefined
                non-system symbol); the native file truncated (unreadable)
  ELF wheel     NEEDED libc.so.6 renamed (not a system library); for manylinux a GLIBC_x
                requirement made GLIBC_9.99 (newer than the tag allows; auditwheel refuses too);
                a musllinux wheel tagged manylinux (glibc expected); for musllinux
                __cxa_thread_atexit_impl bound strong (allowed undefined only while weak)
  Mach-O wheel  minimum macOS raised past the tag's, in each of LC_BUILD_VERSION and
                LC_VERSION_MIN_MACOSX the wheel has; libSystem renamed (not a system library); a
                universal2 wheel tagged arm64 only (a slice the tag does not name)
  PE wheel      tagged win_arm64 (PE machine differs); KERNEL32.dll renamed in the import table
                (not a Windows system DLL). (A PE import names its DLL, so the "Python symbol
                renamed" fault of ELF and Mach-O has no PE counterpart: the DLL check covers it.)
  jar           a JNI function renamed (not exported)
  Node          a platform package's cpu changed (architecture differs); one left out of the
                main package's optionalDependencies
  any           a required artifact missing
Prints one line per case; exits 1 if any broken copy passes or a good artifact fails.
"""

import argparse
import io
import json
import re
import shutil
import struct
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import lief

import check_dist
import native_check

failures = []


def run(args, paths, require=()):
    ns = argparse.Namespace(root=args.root, glibc_libs=args.glibc_libs, auditwheel=args.auditwheel, require=list(require))
    c = check_dist.Checker(ns)
    tarballs = []
    for p in paths:
        if p.suffix == ".whl":
            c.wheel(p)
        elif p.suffix == ".jar":
            c.jar(p)
        elif p.name.endswith(".tgz"):
            tarballs.append(p)
        elif p.name.endswith(".tar.gz"):
            c.sdist(p)
    if tarballs:
        c.node(tarballs)
    for kind in require:
        if kind not in c.found:
            c.problems.append(f"missing artifact: {kind}")
    return c.problems


def expect(label, problems, pattern):
    hit = [p for p in problems if re.search(pattern, p)]
    if hit:
        print(f"refused  {label}: {hit[0][:160]}")
    else:
        failures.append(label)
        print(f"PASSED?  {label}: expected a finding matching {pattern!r}, got {problems[:3]}")


def rewrite_zip(src, dst, edit):
    """Copies a zip, passing each member through edit(name, data) -> (name, data) or None."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            got = edit(info.filename, zin.read(info.filename))
            if got is not None:
                zout.writestr(got[0], got[1])


def patch_native(old, new):
    assert len(old) == len(new)

    def edit(name, data):
        if re.search(r"(_native[^/]*\.(so|pyd)|\.(so|dylib|dll))$", name):
            assert old in data, f"{old!r} not in {name}"
            data = data.replace(old, new)
        return name, data
    return edit


LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX = 0x32, 0x24


def has_load_command(data, which):
    """Whether a (thin or fat) Mach-O holds load command `which`."""
    found = []
    raise_minos(which, found.append)("x.so", data)
    return bool(found)


def raise_minos(which, seen=None):
    """A zip edit setting the minimum macOS of every load command `which` (LC_BUILD_VERSION or
    LC_VERSION_MIN_MACOSX) of a (thin or fat) Mach-O to 99.0; `seen` is called for each."""
    def edit(name, data):
        if not name.endswith(".so"):
            return name, data
        return name, _raise_minos(bytearray(data), which, seen or (lambda _: None))
    return edit


def _raise_minos(data, which, seen):
    """`raise_minos` on one file's bytes, every slice of a fat file."""
    def thin(base):
        ncmds, sizeofcmds = struct.unpack_from("<2I", data, base + 16)
        off = base + 32
        for _ in range(ncmds):
            cmd, size = struct.unpack_from("<2I", data, off)
            if cmd == which:
                seen(cmd)
                # LC_BUILD_VERSION: cmd, cmdsize, platform, minos; LC_VERSION_MIN_MACOSX: cmd,
                # cmdsize, version.
                struct.pack_into("<I", data, off + (12 if cmd == LC_BUILD_VERSION else 8), 99 << 16)
            off += size
    magic = struct.unpack_from(">I", data, 0)[0]
    if magic == 0xCAFEBABE:
        n = struct.unpack_from(">I", data, 4)[0]
        for i in range(n):
            thin(struct.unpack_from(">5I", data, 8 + 20 * i)[2])
    else:
        thin(0)
    return bytes(data)


def python_import(so):
    """The name of one Python C API function the library leaves undefined (as the string table
    spells it: with Mach-O's leading underscore)."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(so)
        f.flush()
        b = lief.parse(f.name)
        syms = native_check.elf_undefined(b) if isinstance(b, lief.ELF.Binary) else list(b.imported_symbols)
        names = [s.name for s in syms if s.name.lstrip("_").startswith("Py")]
    return sorted(names)[0].encode()


def pe_import_name(dll, lower):
    """The name of an imported DLL as the PE import table spells it (KERNEL32.dll): the library
    may carry the name in another case elsewhere (a string it looks modules up by), which a
    search by name alone could hit instead of the import."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(dll)
        f.flush()
        b = lief.parse(f.name)
        return next(i.name for i in b.imports if i.name.lower() == lower).encode()


def strong_symbol(so, name):
    """The ELF library with the undefined dynamic symbol `name` bound GLOBAL instead of WEAK."""
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "in.so", Path(d) / "out.so"
        src.write_bytes(so)
        b = lief.parse(str(src))
        sym = next(s for s in b.dynamic_symbols if s.name == name)
        sym.binding = lief.ELF.Symbol.BINDING.GLOBAL
        b.write(str(out))
        return out.read_bytes()


def retag(path, tmp, old, new):
    """A copy of the wheel with `old` replaced by `new` in its platform tags, in its name and WHEEL."""
    dst = tmp / path.name.replace(old, new)

    def edit(name, data):
        if name.endswith(".dist-info/WHEEL"):
            data = data.replace(old.encode(), new.encode())
        return name, data
    rewrite_zip(path, dst, edit)
    return dst


def wheels(args, tmp, wheel):
    plat = check_dist.WHEEL_RE.match(wheel.name)["plat"]
    first = check_dist.canonical(plat)
    label = first
    expect(f"{label}: good", [f"unexpected: {p}" for p in run(args, [wheel])] or ["unexpected: none"], r"^unexpected: none$")

    dst = tmp / wheel.name
    rewrite_zip(wheel, dst, lambda n, d: (n, d.replace(b"Tag: ", b"Tag: x", 1)) if n.endswith("WHEEL") else (n, d))
    expect(f"{label}: WHEEL tag differs", run(args, [dst]), r"WHEEL tags .* differ")
    dst.unlink()

    other = {"x86_64": "aarch64", "aarch64": "x86_64", "arm64": "x86_64", "amd64": "arm64"}
    arch = re.search(r"(x86_64|aarch64|arm64|amd64|universal2)$", first).group(1)
    if arch != "universal2":
        dst = retag(wheel, tmp, "_" + arch, "_" + other[arch])
        expect(f"{label}: tagged {other[arch]}", run(args, [dst]), r"(ELF machine|Mach-O CPU|PE machine) ")
        dst.unlink()

    with zipfile.ZipFile(wheel) as z:
        so = next(z.read(n) for n in z.namelist() if n.startswith("wirecontract/_native"))
    # A Python C API function the library imports, renamed in place in the string tables.
    faults = [("entry symbol renamed", b"PyInit__native", b"PyInit__nativX", r"entry symbol PyInit__native is not exported")]
    if first.startswith("win"):
        dll = pe_import_name(so, "kernel32.dll") + b"\0"
        faults.append(("KERNEL32.dll renamed", dll, b"X" + dll[1:], r"(?i)imports Xernel32\.dll, not a Windows system DLL"))
    else:
        py = python_import(so)
        faults.append((f"Python symbol {py.decode()} renamed", b"\0" + py + b"\0", b"\0X" + py[1:] + b"\0", r"undefined symbol X" + py[1:].decode()))
    for what, old, new, pattern in faults:
        dst = tmp / wheel.name
        rewrite_zip(wheel, dst, patch_native(old, new))
        expect(f"{label}: {what}", run(args, [dst]), pattern)
        dst.unlink()

    dst = tmp / wheel.name
    rewrite_zip(wheel, dst, lambda n, d: (n, d[: len(d) // 3]) if n.startswith("wirecontract/_native") else (n, d))
    expect(f"{label}: native file truncated", run(args, [dst]), r"cannot read|not an? (ELF|Mach-O|PE)|no LC_|expected|is not exported")
    dst.unlink()

    if first.startswith(("manylinux", "musllinux")):
        libc = b"libc.so.6" if first.startswith("manylinux") else None
        if libc:
            dst = tmp / wheel.name
            rewrite_zip(wheel, dst, patch_native(b"libc.so.6\0", b"libz.so.6\0"))
            expect(f"{label}: NEEDED renamed", run(args, [dst]), r"NEEDED libz\.so\.6 is not a glibc system library")
            dst.unlink()
            # The first GLIBC_ version the library requires, every digit made 9 (same length).
            old = re.search(rb"GLIBC_2\.[0-9.]+\0", so).group(0)
            new = re.sub(rb"[0-9]", b"9", old)
            dst = tmp / wheel.name
            rewrite_zip(wheel, dst, patch_native(old, new))
            problems = run(args, [dst])
            expect(f"{label}: {new[:-1].decode()} required", problems, r"newer than glibc 2\.17")
            expect(f"{label}: {new[:-1].decode()} required, auditwheel", problems, r"auditwheel show does not give")
            dst.unlink()
        else:
            dst = retag(wheel, tmp, "musllinux_1_2", "manylinux_2_17")
            expect(f"{label}: tagged manylinux", run(args, [dst]), r"NEEDED .* is not a glibc system library|NEEDED lacks libc\.so\.6")
            dst.unlink()
            if b"__cxa_thread_atexit_impl\0" in so:
                dst = tmp / wheel.name
                rewrite_zip(wheel, dst, lambda n, d: (n, strong_symbol(d, "__cxa_thread_atexit_impl")) if n.endswith(".so") else (n, d))
                expect(f"{label}: __cxa_thread_atexit_impl made strong", run(args, [dst]), r"undefined symbol __cxa_thread_atexit_impl is not in the musl")
                dst.unlink()
    if first.startswith("macosx"):
        # Each load command that can carry the minimum, raised alone (a universal2 wheel's
        # x86-64 slice, built for 10.12, has LC_VERSION_MIN_MACOSX; arm64 has LC_BUILD_VERSION).
        for which, command in ((LC_BUILD_VERSION, "LC_BUILD_VERSION"), (LC_VERSION_MIN_MACOSX, "LC_VERSION_MIN_MACOSX")):
            if not has_load_command(so, which):
                continue
            dst = tmp / wheel.name
            rewrite_zip(wheel, dst, raise_minos(which))
            expect(f"{label}: {command} minimum macOS 99.0", run(args, [dst]), rf"{command} minimum macOS 99\.0 is later than")
            dst.unlink()
        if arch == "universal2":
            # Declared arm64 only: the x86-64 slice is one the tag does not name.
            dst = retag(wheel, tmp, plat, "macosx_11_0_arm64")
            expect(f"{label}: tagged arm64 only", run(args, [dst]), r"Mach-O CPU X86_64, expected ARM64")
            dst.unlink()
        dst = tmp / wheel.name
        rewrite_zip(wheel, dst, patch_native(b"/usr/lib/libSystem.B.dylib", b"/usr/lib/libSystem.X.dylib"))
        expect(f"{label}: libSystem renamed", run(args, [dst]), r"links /usr/lib/libSystem\.X\.dylib, not a system library")
        dst.unlink()


def jar(args, tmp, path):
    expect("jar: good", [f"unexpected: {p}" for p in run(args, [path])] or ["unexpected: none"], r"^unexpected: none$")
    dst = tmp / path.name
    rewrite_zip(path, dst, patch_native(b"Java_dev_wirecontract_graphmind_jvm_Native_parse", b"Java_dev_wirecontract_graphmind_jvm_Native_parsX"))
    expect("jar: JNI function renamed", run(args, [dst]), r"entry symbol _?Java_dev_wirecontract_graphmind_jvm_Native_parse is not exported")
    dst.unlink()


def rewrite_tgz(src, dst, edit, rename=None):
    """A copy of the tarball with each file's data through `edit(name, data)` and the members
    named in `rename` renamed."""
    with tarfile.open(src) as tin, tarfile.open(dst, "w:gz") as tout:
        for m in tin.getmembers():
            data = tin.extractfile(m).read() if m.isfile() else None
            m.name = (rename or {}).get(m.name, m.name)
            if data is not None:
                data = edit(m.name, data)
                m.size = len(data)
                tout.addfile(m, io.BytesIO(data))
            else:
                tout.addfile(m)


def node(args, tmp, tarballs):
    expect("node: good", [f"unexpected: {p}" for p in run(args, tarballs)] or ["unexpected: none"], r"^unexpected: none$")
    main = next(p for p in tarballs if json.loads(tarfile.open(p).extractfile("package/package.json").read())["name"] == "@wirecontract/node")
    sub = next(p for p in tarballs if "linux-x64-gnu" in p.name)
    rest = [p for p in tarballs if p not in (main, sub)]
    d = tmp / "node-cpu"
    d.mkdir()
    dst = d / sub.name

    # The package declares arm64, and its addon file and `main` are named for arm64 too, so the
    # checker reaches the binary (an x86-64 one).
    x64, arm64 = "wirecontract.linux-x64-gnu.node", "wirecontract.linux-arm64-gnu.node"

    def cpu(name, data):
        if name != "package/package.json":
            return data
        return data.replace(b'"x64"', b'"arm64"').replace(x64.encode(), arm64.encode())
    rewrite_tgz(sub, dst, cpu, {f"package/{x64}": f"package/{arm64}"})
    expect("node: linux-x64-gnu package says cpu arm64", run(args, [main, dst] + rest), r"ELF machine X86_64, expected AARCH64")
    d2 = tmp / "node-opt"
    d2.mkdir()
    dst = d2 / main.name

    def drop(name, data):
        if name != "package/package.json":
            return data
        pkg = json.loads(data)
        pkg["optionalDependencies"].pop(json.loads(tarfile.open(sub).extractfile("package/package.json").read())["name"])
        return json.dumps(pkg).encode()
    rewrite_tgz(main, dst, drop)
    expect("node: a platform package left out of optionalDependencies", run(args, [dst, sub] + rest), r"optionalDependencies has .*linux-x64-gnu@None")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--zig-libc", required=True)
    ap.add_argument("--glibc-libs", default="")
    ap.add_argument("--auditwheel")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    native_check.ZIG_LIBC = args.zig_libc
    files = sorted(f for d in args.dirs for f in Path(d).rglob("*") if f.is_file())
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for f in files:
            if f.suffix == ".whl":
                wheels(args, tmp, f)
            elif f.suffix == ".jar":
                jar(args, tmp, f)
        tarballs = [f for f in files if f.name.endswith(".tgz")]
        if tarballs:
            node(args, tmp, tarballs)
        expect("missing artifact", run(args, [], require=["wheel:manylinux_aarch64"]), r"missing artifact: wheel:manylinux_aarch64")
    if failures:
        print(f"test_checks: {len(failures)} case(s) not refused: {', '.join(failures)}")
        return 1
    print("test_checks: every broken copy refused, every good artifact passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

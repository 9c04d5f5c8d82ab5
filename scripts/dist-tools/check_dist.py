"""Checks the artifacts scripts/dist wrote, without running them (native_check.py reads each
binary):

    check_dist.py --root REPO --zig-libc DIR [--glibc-libs x86_64=DIR,... ] [--auditwheel BIN]
                  [--require KIND ...] FILE_OR_DIR ...

Wheels (wirecontract-<v>-cp310-abi3-<platform>.whl): the tags of the file name equal the WHEEL
file's Tag lines; one native extension, whose format, architecture and C library follow from
the platform tag (manylinux_2_17: glibc <= 2.17; musllinux_1_2: musl; macosx_X_Y: Mach-O with
LC_BUILD_VERSION minimum no later than X.Y, each architecture of universal2; win_amd64: PE
AMD64); PyInit__native exported; nothing undefined beyond the system libraries and Python's C API;
for manylinux, `auditwheel show` names the wheel's own platform tag (musllinux: see wheel()).
The jar (wirecontract-graphmind-kotlin-<v>.jar): each `<jna platform>/<library>` entry is that
platform's library exporting the JNI functions Native.kt declares
(Java_dev_wirecontract_graphmind_jvm_Native_<name>) and every uniffi function the generated Kotlin
binds through JNA.
Node (npm pack tarballs): each per-platform package's package.json `os`/`cpu`/`libc` match its
addon (napi_register_module_v1 exported), and the main package lists every per-platform package
present, at its own version, in optionalDependencies.
The sdist: holds the Cargo workspace, the Python binding and pyproject.toml.

`--require` names kinds that must be present (wheel:<platform>, jar:<jna platform>,
node:<platform>, sdist), so a missing artifact is a finding too. Prints one line per finding;
exits 1 if there is any, 0 with a summary otherwise.
"""

import argparse
import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import native_check

WHEEL_RE = re.compile(r"^wirecontract-(?P<v>[^-]+)-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")
JNA_PLATFORMS = {
    "linux-x86-64": ("elf", "x86_64", "libwirecontract_uniffi.so"),
    "linux-aarch64": ("elf", "aarch64", "libwirecontract_uniffi.so"),
    "darwin-x86-64": ("macho", "x86_64", "libwirecontract_uniffi.dylib"),
    "darwin-aarch64": ("macho", "aarch64", "libwirecontract_uniffi.dylib"),
    "win32-x86-64": ("pe", "x86_64", "wirecontract_uniffi.dll"),
}
NODE_CPU = {"x64": "x86_64", "arm64": "aarch64"}
NODE_OS = {"linux": "elf", "darwin": "macho", "win32": "pe"}
# The oldest macOS the jar's and the Node packages' libraries declare, per architecture: the
# wheels' (macosx_10_12_x86_64, macosx_11_0_arm64; arm64 macOS begins at 11.0). scripts/lib/dist.sh
# builds with the same MACOSX_DEPLOYMENT_TARGET.
MACOS_MIN = {"x86_64": (10, 12), "aarch64": (11, 0)}
# The first macOS of each architecture (arm64 Macs began with 11.0): pip reads an arm64 wheel's
# older macOS tag as 11.0.
FIRST_MACOS = {"x86_64": (10, 0), "aarch64": (11, 0)}


def wheel_spec(plat):
    """(spec, [(arch, spec)...]) from a platform tag; raises ValueError for an unknown tag."""
    first = canonical(plat)
    base = {"exports": ["PyInit__native"], "host": native_check.PYTHON}
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_(x86_64|aarch64)", first)
    if m:
        return [{**base, "format": "elf", "libc": "glibc", "arch": m.group(3), "glibc_max": (int(m.group(1)), int(m.group(2)))}]
    m = re.fullmatch(r"musllinux_(\d+)_(\d+)_(x86_64|aarch64)", first)
    if m:
        return [{**base, "format": "elf", "libc": "musl", "arch": m.group(3)}]
    if first.startswith("macosx_"):
        # Every macosx tag of a compound tag names architectures and the oldest macOS each runs:
        # universal2 both, each no older than what that architecture exists on (arm64: 11.0);
        # an architecture named twice takes the older version (pip installs it there).
        minimum = {}
        for tag in plat.split("."):
            t = re.fullmatch(r"macosx_(\d+)_(\d+)_(x86_64|arm64|universal2)", tag)
            if not t:
                raise ValueError(f"unknown platform tag {plat}")
            version = (int(t.group(1)), int(t.group(2)))
            for a in {"x86_64": ["x86_64"], "arm64": ["aarch64"], "universal2": ["x86_64", "aarch64"]}[t.group(3)]:
                v = max(version, FIRST_MACOS[a])
                minimum[a] = min(minimum.get(a, v), v)
        arches = sorted(minimum)
        return [{**base, "format": "macho", "arch": a, "macos_min": minimum[a], "arches": arches} for a in arches]
    if first in ("win_amd64", "win_arm64"):
        return [{**base, "format": "pe", "arch": {"win_amd64": "x86_64", "win_arm64": "aarch64"}[first]}]
    raise ValueError(f"unknown platform tag {plat}")


def canonical(plat):
    """The first tag of a compound platform tag, manylinux2014 spelled manylinux_2_17."""
    return re.sub(r"^manylinux2014_", "manylinux_2_17_", plat.split(".")[0])


def kind_of_wheel(plat):
    first = canonical(plat)
    return "wheel:" + re.sub(r"^(manylinux|musllinux)_\d+_\d+_", r"\1_", re.sub(r"^macosx_\d+_\d+_", "macosx_", first))


class Checker:
    def __init__(self, args):
        self.args = args
        self.problems = []
        self.found = set()
        self.checked = []
        self.root = Path(args.root)
        self.glibc = dict(kv.split("=", 1) for kv in (args.glibc_libs or "").split(",") if kv)

    def native(self, data, name, spec):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / Path(name).name
            path.write_bytes(data)
            if spec.get("libc") == "glibc":
                d = self.glibc.get(spec["arch"])
                if not d:
                    self.problems.append(f"{name}: no glibc libraries given for {spec['arch']} (--glibc-libs): undefined symbols not checked")
                spec = {**spec, "glibc_libs": d.split(":") if d else []}
            try:
                found = native_check.check(path, spec)
            except Exception as e:  # a malformed binary is a finding, not a crash
                found = [f"cannot read: {e}"]
            self.problems += [f"{name}: {f.replace(str(path), '').lstrip(': ')}" if str(path) in f else f"{name}: {f}" for f in found]

    def wheel(self, path):
        m = WHEEL_RE.match(path.name)
        if not m:
            self.problems.append(f"{path.name}: not a wheel name wirecontract-<v>-<py>-<abi>-<platform>.whl")
            return
        if (m["py"], m["abi"]) != ("cp310", "abi3"):
            self.problems.append(f"{path.name}: tags {m['py']}-{m['abi']}, expected cp310-abi3")
        try:
            specs = wheel_spec(m["plat"])
        except ValueError as e:
            self.problems.append(f"{path.name}: {e}")
            return
        self.found.add(kind_of_wheel(m["plat"]))
        try:
            z = zipfile.ZipFile(path)
        except zipfile.BadZipFile as e:
            self.problems.append(f"{path.name}: {e}")
            return
        with z:
            names = z.namelist()
            wheel_meta = [n for n in names if n.endswith(".dist-info/WHEEL")]
            if len(wheel_meta) != 1:
                self.problems.append(f"{path.name}: {len(wheel_meta)} WHEEL files")
                return
            declared = {line.split(":", 1)[1].strip() for line in z.read(wheel_meta[0]).decode().splitlines() if line.startswith("Tag:")}
            expected = {f"{m['py']}-{m['abi']}-{p}" for p in m["plat"].split(".")}
            if declared != expected:
                self.problems.append(f"{path.name}: WHEEL tags {sorted(declared)} differ from the file name's {sorted(expected)}")
            natives = [n for n in names if re.fullmatch(r"wirecontract/_native(\.abi3\.so|\.pyd|\.[^/]*\.so)", n)]
            if len(natives) != 1:
                self.problems.append(f"{path.name}: expected one native extension, found {natives}")
                return
            data = z.read(natives[0])
        for spec in specs:
            self.native(data, f"{path.name}:{natives[0]}", spec)
        # manylinux only: on a glibc machine auditwheel resolves a musl library's NEEDED
        # `libc.so` to glibc's libc.so, a linker script, and stops (ELFError); the checks above
        # hold the musllinux wheels to musl's C library.
        if m["plat"].startswith("manylinux") and self.args.auditwheel:
            self.auditwheel(path, canonical(m["plat"]))
        self.checked.append(path.name)

    def auditwheel(self, path, tag):
        r = subprocess.run([self.args.auditwheel, "show", str(path)], capture_output=True, text=True)
        text = r.stdout + r.stderr
        m = re.search(r'consistent with the following platform tag:\s*"([^"]+)"', text)
        if r.returncode != 0 or not m or m.group(1) != tag:
            self.problems.append(f"{path.name}: auditwheel show does not give {tag}: " + " ".join(text.split())[:300])

    def jar(self, path):
        kotlin = self.root / "bindings/uniffi/kotlin/src/main/kotlin/dev/wirecontract/graphmind/jvm/Native.kt"
        # The JVM binds each `external fun` to its Java_<class>_<name> export (the library has no
        # JNI_OnLoad: nothing is registered by hand).
        jni = [f"Java_dev_wirecontract_graphmind_jvm_Native_{n}" for n in re.findall(r"external fun (\w+)", kotlin.read_text())]
        uniffi = set()
        for kt in (self.root / "generated/kotlin").rglob("*.kt"):
            uniffi |= set(re.findall(r"external fun ((?:uniffi|ffi)_\w+)", kt.read_text()))
        if not jni or not uniffi:
            self.problems.append(f"{path.name}: found no JNI or uniffi declarations in the Kotlin sources")
        try:
            z = zipfile.ZipFile(path)
        except zipfile.BadZipFile as e:
            self.problems.append(f"{path.name}: {e}")
            return
        with z:
            names = set(z.namelist())
            for plat, (fmt, arch, lib) in JNA_PLATFORMS.items():
                entry = f"{plat}/{lib}"
                if entry not in names:
                    continue
                self.found.add(f"jar:{plat}")
                spec = {"format": fmt, "arch": arch, "exports": jni + sorted(uniffi), "libc": "glibc", "macos_min": MACOS_MIN[arch]}
                self.native(z.read(entry), f"{path.name}:{entry}", spec)
            strays = [n for n in names if re.search(r"\.(so|dylib|dll)$", n) and n.split("/")[0] not in JNA_PLATFORMS]
            for n in strays:
                self.problems.append(f"{path.name}: native library {n} outside a JNA platform directory")
        self.checked.append(path.name)

    def npm(self, path):
        try:
            with tarfile.open(path) as t:
                members = {m.name: m for m in t.getmembers() if m.isfile()}
                pkg = json.loads(t.extractfile(members["package/package.json"]).read())
                files = {n: t.extractfile(m).read() for n, m in members.items() if n.endswith(".node")}
        except (tarfile.TarError, KeyError, ValueError) as e:
            self.problems.append(f"{path.name}: not an npm package tarball ({e})")
            return None
        self.checked.append(path.name)
        return pkg, files

    def node(self, tarballs):
        packages = {}
        main = None
        for path in tarballs:
            got = self.npm(path)
            if got is None:
                continue
            pkg, files = got
            if pkg.get("name") == "@wirecontract/node":
                main = (path, pkg)
                continue
            packages[pkg.get("name")] = (path, pkg, files)
            os_, cpu, libc = pkg.get("os", []), pkg.get("cpu", []), pkg.get("libc", [])
            if len(os_) != 1 or len(cpu) != 1 or os_[0] not in NODE_OS or cpu[0] not in NODE_CPU:
                self.problems.append(f"{path.name}: os {os_} cpu {cpu}: expected one known os and cpu")
                continue
            if os_[0] == "linux" and (len(libc) != 1 or libc[0] not in ("glibc", "musl")):
                self.problems.append(f"{path.name}: a linux package needs libc [glibc] or [musl], has {libc}")
                continue
            plat = f"{os_[0]}-{cpu[0]}" + (f"-{'gnu' if libc[0] == 'glibc' else 'musl'}" if os_[0] == "linux" else "")
            self.found.add(f"node:{plat}")
            want = f"wirecontract.{plat}.node"
            if pkg.get("main") != want or f"package/{want}" not in files or len(files) != 1:
                self.problems.append(f"{path.name}: expected exactly package/{want} as main, has main {pkg.get('main')} and {sorted(files)}")
                continue
            spec = {"format": NODE_OS[os_[0]], "arch": NODE_CPU[cpu[0]], "libc": libc[0] if libc else None,
                    "exports": ["napi_register_module_v1"], "macos_min": MACOS_MIN[NODE_CPU[cpu[0]]], "host": native_check.NODE}
            self.native(files[f"package/{want}"], f"{path.name}:{want}", spec)
        if main is None:
            if tarballs:
                self.problems.append("node: no main package @wirecontract/node")
            return
        path, pkg = main
        opt = pkg.get("optionalDependencies", {})
        for name, (p, sub, _) in packages.items():
            if opt.get(name) != pkg.get("version") or sub.get("version") != pkg.get("version"):
                self.problems.append(f"{path.name}: optionalDependencies has {name}@{opt.get(name)}, the package is {sub.get('version')}, main {pkg.get('version')}")
        for name in opt:
            if name not in packages:
                self.problems.append(f"{path.name}: optionalDependencies names {name}, which was not built")


    def sdist(self, path):
        try:
            with tarfile.open(path) as t:
                names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
        except tarfile.TarError as e:
            self.problems.append(f"{path.name}: {e}")
            return
        for need in ("pyproject.toml", "Cargo.toml", "Cargo.lock", "contract/Cargo.toml", "bindings/python/Cargo.toml"):
            if need not in names:
                self.problems.append(f"{path.name}: lacks {need}")
        self.found.add("sdist")
        self.checked.append(path.name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--zig-libc", required=True)
    ap.add_argument("--glibc-libs", default="")
    ap.add_argument("--auditwheel")
    ap.add_argument("--require", action="append", default=[])
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    native_check.ZIG_LIBC = args.zig_libc
    c = Checker(args)
    files = []
    for p in map(Path, args.paths):
        files += sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
    tarballs = []
    for f in files:
        if f.suffix == ".whl":
            c.wheel(f)
        elif f.suffix == ".jar" and "sources" not in f.name:
            c.jar(f)
        elif f.name.endswith(".tgz"):
            tarballs.append(f)
        elif f.name.endswith(".tar.gz"):
            c.sdist(f)
    c.node(tarballs)
    for kind in args.require:
        if kind not in c.found:
            c.problems.append(f"missing artifact: {kind}")
    for p in c.problems:
        print(p)
    if c.problems:
        print(f"check_dist: {len(c.problems)} problem(s)")
        return 1
    print(f"check_dist: {len(c.checked)} artifacts pass: {', '.join(c.checked)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

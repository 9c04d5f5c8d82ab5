"""Structural checks of one native library (ELF, Mach-O or PE), for the artifacts of scripts/dist
that cannot run on this machine and, as a second look, for those that can. Binaries are read
with LIEF; the system libraries' symbol lists come from what zig ships (musl's libc.S, macOS's
libSystem.tbd: maturin --zig links against exactly these) and, for glibc, from the libraries of
a root of the target architecture (this machine's own for x86-64, the arm64 root for aarch64).

    check(path, spec) -> [problem, ...]

`spec` says what the library must be:
    format    "elf" | "macho" | "pe"
    arch      "x86_64" | "aarch64"
    libc      "glibc" | "musl" (ELF only)
    glibc_max (2, 17): the newest GLIBC_x symbol version allowed (manylinux2014)
    glibc_libs  directories holding the target's libc.so.6, libm.so.6, ... (glibc only)
    macos_min (10, 12): the newest minimum macOS allowed, from LC_BUILD_VERSION or (for targets
              before 10.14) LC_VERSION_MIN_MACOSX (a wheel's tag; check_dist.MACOS_MIN for the
              jar and the Node packages)
    arches    ["x86_64", "aarch64"]: every architecture a Mach-O file may hold (default: `arch`
              alone); a universal file is checked slice by slice, `arch`'s slice against this spec
    exports   names that must be exported (PyInit__native, napi_register_module_v1, the JNI functions)
    host      (prefixes, dll): symbols of the loading process that may stay undefined, found at
              load time (on macOS by dynamic lookup, flat namespace), and on Windows the DLL
              they are imported from: PYTHON (Py*, _Py*; python3.dll) or NODE (napi_*, uv_*;
              node.exe)
"""

import re
from pathlib import Path

import lief

lief.logging.disable()

ZIG_LIBC = None  # set by callers: ziglang's lib/libc directory

ELF_MACHINE = {"x86_64": "X86_64", "aarch64": "AARCH64"}
MACHO_CPU = {"x86_64": "X86_64", "aarch64": "ARM64"}
PE_MACHINE = {"x86_64": "AMD64", "aarch64": "ARM64"}

# NEEDED entries a Linux library may name: the C library and what it is split into.
GLIBC_NEEDED = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libgcc_s.so.1",
                "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}
MUSL_NEEDED = {"libc.so", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libgcc_s.so.1"}
GLIBC_LIBS = ("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libgcc_s.so.1",
              "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1")
# macOS: libSystem (dyld, libc, libm, pthread, compiler-rt, unwind are all re-exported by it),
# and libiconv/libcharset, which Rust's standard library links on Apple targets (every macOS has
# them in /usr/lib). Symbols must come from libSystem (below) or the host.
MACHO_LIBS = {"/usr/lib/libSystem.B.dylib", "/usr/lib/libiconv.2.dylib", "/usr/lib/libcharset.1.dylib"}
# dyld's lazy-binding helper: bound by dyld itself, not listed in libSystem.tbd.
MACHO_DYLD = {"dyld_stub_binder", "_dyld_stub_binder"}
# Windows: the DLLs every Windows ships (Rust's std on windows-gnu needs these: bcryptprimitives
# for ProcessPrng, Windows 10's random source), and python3.dll, the stable-ABI forwarder of abi3
# extensions.
PE_DLLS = {"kernel32.dll", "ntdll.dll", "bcrypt.dll", "bcryptprimitives.dll", "advapi32.dll", "ws2_32.dll",
           "userenv.dll", "msvcrt.dll", "ucrtbase.dll", "shell32.dll", "ole32.dll", "synchronization.dll"}
PE_DLL_PREFIXES = ("api-ms-win-",)
# Weak references the C runtime's startup code carries; left unresolved they are null.
WEAK_OK = {"__gmon_start__", "_ITM_registerTMCloneTable", "_ITM_deregisterTMCloneTable", "__cxa_finalize"}
# Weak references Rust's standard library makes to a glibc function it does without when absent
# (thread-local destructors); musl has none. Allowed only while weak.
WEAK_ONLY_OK = {"__cxa_thread_atexit_impl"}


PYTHON = (("Py", "_Py"), "python3.dll")
NODE = (("napi_", "node_api_", "uv_"), "node.exe")


def is_host(spec, name):
    return bool(spec.get("host")) and name.startswith(tuple(spec["host"][0]))


_cache = {}


def musl_symbols():
    if "musl" not in _cache:
        text = (Path(ZIG_LIBC) / "musl/libc.S").read_text()
        _cache["musl"] = set(re.findall(r"^\.(?:globl|weak)\s+(\S+)", text, re.M)) | set(
            re.findall(r"^(?:WEAK64|WEAKTIME64)\s+(\S+)", text, re.M))
    return _cache["musl"]


def libsystem_symbols():
    if "libsystem" not in _cache:
        text = (Path(ZIG_LIBC) / "darwin/libSystem.tbd").read_text()
        _cache["libsystem"] = set(re.findall(r"'(_[^']+)'", text)) | set(re.findall(r"[\s\[,](_[A-Za-z0-9_$.]+)", text))
    return _cache["libsystem"]


def glibc_symbols(dirs):
    key = ("glibc", tuple(dirs))
    if key not in _cache:
        names = set()
        found = False
        for d in dirs:
            for lib in GLIBC_LIBS:
                p = Path(d) / lib
                if not p.exists():
                    continue
                found = True
                b = lief.ELF.parse(str(p))
                names |= {s.name for s in b.dynamic_symbols if s.exported}
        if not found:
            raise FileNotFoundError(f"no glibc libraries in {', '.join(map(str, dirs))}")
        _cache[key] = names
    return _cache[key]


def check(path, spec):
    path = str(path)
    fmt = spec["format"]
    if fmt == "macho":
        fat = lief.MachO.parse(path)
        if fat is None or fat.size == 0:
            return [f"{path}: not a Mach-O file"]
        # Each spec names one architecture, whose slice it checks; the others are checked
        # against their own spec. A slice of an architecture the artifact does not declare, or
        # no slice of `arch`, is a problem.
        cpus = [str(b.header.cpu_type).split(".")[-1] for b in fat]
        allowed = [MACHO_CPU[a] for a in spec.get("arches", [spec["arch"]])]
        problems = [f"{path}: Mach-O CPU {cpu}, expected {' or '.join(allowed)}" for cpu in cpus if cpu not in allowed]
        slices = [b for b, cpu in zip(fat, cpus) if cpu == MACHO_CPU[spec["arch"]]]
        if not slices and not problems:
            problems.append(f"{path}: Mach-O CPU {', '.join(cpus)}, expected {MACHO_CPU[spec['arch']]}")
        for b in slices:
            problems += _check_macho(path, b, MACHO_CPU[spec["arch"]], spec)
        return problems
    b = lief.parse(path)
    if fmt == "elf":
        if not isinstance(b, lief.ELF.Binary):
            return [f"{path}: not an ELF file"]
        return _check_elf(path, b, spec)
    if fmt == "pe":
        if not isinstance(b, lief.PE.Binary):
            return [f"{path}: not a PE file"]
        return _check_pe(path, b, spec)
    raise ValueError(fmt)


def _exports(path, exported, spec, problems):
    for name in spec.get("exports", ()):
        if name not in exported:
            problems.append(f"{path}: entry symbol {name} is not exported")


def elf_undefined(b):
    """The undefined dynamic symbols (section index SHN_UNDEF; LIEF's `imported` leaves out
    unversioned ones)."""
    return [s for s in b.dynamic_symbols if s.shndx == 0 and s.name]


def _check_elf(path, b, spec):
    p = []
    machine = b.header.machine_type.__name__ if hasattr(b.header.machine_type, "__name__") else str(b.header.machine_type).split(".")[-1]
    if machine != ELF_MACHINE[spec["arch"]]:
        p.append(f"{path}: ELF machine {machine}, expected {ELF_MACHINE[spec['arch']]}")
    if b.has_interpreter:
        p.append(f"{path}: a shared library with an ELF interpreter ({b.interpreter})")
    allowed = GLIBC_NEEDED if spec["libc"] == "glibc" else MUSL_NEEDED
    for lib in b.libraries:
        if lib not in allowed:
            p.append(f"{path}: NEEDED {lib} is not a {spec['libc']} system library")
    if spec["libc"] == "musl" and not any(lib in MUSL_NEEDED - {"libgcc_s.so.1"} for lib in b.libraries):
        p.append(f"{path}: NEEDED names no musl C library ({', '.join(b.libraries) or 'nothing'})")
    if spec["libc"] == "glibc" and "libc.so.6" not in b.libraries:
        p.append(f"{path}: NEEDED lacks libc.so.6 ({', '.join(b.libraries) or 'nothing'})")
    exported = {s.name for s in b.dynamic_symbols if s.exported}
    _exports(path, exported, spec, p)
    if spec["libc"] == "glibc" and not spec["glibc_libs"]:
        return p  # no glibc of this architecture to resolve against: the caller reports that
    system = musl_symbols() if spec["libc"] == "musl" else glibc_symbols(spec["glibc_libs"])
    for s in elf_undefined(b):
        version = str(s.symbol_version.symbol_version_auxiliary.name) if s.has_version and s.symbol_version.has_auxiliary_version else ""
        if version.startswith("GLIBC_"):
            if spec["libc"] == "musl":
                p.append(f"{path}: {s.name}@{version} is a glibc symbol in a musl library")
            else:
                got = tuple(int(x) for x in re.findall(r"\d+", version))
                if got > tuple(spec.get("glibc_max", (99,))):
                    p.append(f"{path}: {s.name}@{version} is newer than glibc {'.'.join(map(str, spec['glibc_max']))}")
        weak = str(s.binding).endswith("WEAK")
        if s.name in system or is_host(spec, s.name) or s.name in WEAK_OK or (weak and s.name in WEAK_ONLY_OK):
            continue
        p.append(f"{path}: undefined symbol {s.name} is not in the {spec['libc']} system libraries")
    return p


def _check_macho(path, b, cpu, spec):
    p = []
    label = f"{path}[{cpu}]"
    # The minimum macOS: LC_BUILD_VERSION, or LC_VERSION_MIN_MACOSX, which the linker writes
    # instead for a deployment target before 10.14.
    minos = None
    if b.has_build_version:
        bv = b.build_version
        platform = str(bv.platform).split(".")[-1]
        if platform != "MACOS":
            p.append(f"{label}: LC_BUILD_VERSION platform {platform}, expected MACOS")
        minos, command = tuple(bv.minos[:2]), "LC_BUILD_VERSION"
    elif b.has_version_min and "MACOSX" in str(b.version_min.command):
        minos, command = tuple(b.version_min.version[:2]), "LC_VERSION_MIN_MACOSX"
    else:
        p.append(f"{label}: neither LC_BUILD_VERSION nor LC_VERSION_MIN_MACOSX")
    if minos is not None and minos > tuple(spec["macos_min"]):
        p.append(f"{label}: {command} minimum macOS {minos[0]}.{minos[1]} is later than the "
                 f"declared {spec['macos_min'][0]}.{spec['macos_min'][1]}")
    for lib in b.libraries:
        if "ID_DYLIB" in str(lib.command):
            continue  # the library's own install name
        if lib.name not in MACHO_LIBS:
            p.append(f"{label}: links {lib.name}, not a system library")
    exported = {s.name for s in b.exported_symbols}
    _exports(label, {n[1:] if n.startswith("_") else n for n in exported}, spec, p)
    system = libsystem_symbols()
    for s in b.imported_symbols:
        name = s.name
        bare = name[1:] if name.startswith("_") else name
        lib = s.library.name if s.library is not None else None
        if is_host(spec, bare):
            if lib is not None:
                p.append(f"{label}: host symbol {name} is bound to {lib}, not looked up dynamically")
            continue
        if (name in system and (lib is None or lib == "/usr/lib/libSystem.B.dylib")) or name in MACHO_DYLD:
            continue
        p.append(f"{label}: undefined symbol {name} is not a libSystem symbol")
    return p


def _check_pe(path, b, spec):
    p = []
    machine = str(b.header.machine).split(".")[-1]
    if machine != PE_MACHINE[spec["arch"]]:
        p.append(f"{path}: PE machine {machine}, expected {PE_MACHINE[spec['arch']]}")
    exported = {e.name for e in b.get_export().entries} if b.has_exports else set()
    _exports(path, exported, spec, p)
    for imp in b.imports:
        dll = imp.name.lower()
        if dll in PE_DLLS or dll.startswith(PE_DLL_PREFIXES):
            continue
        if spec.get("host") and dll == spec["host"][1]:
            continue
        p.append(f"{path}: imports {imp.name}, not a Windows system DLL")
    return p

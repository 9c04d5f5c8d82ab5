"""Reads what check_xcframework.py needs from a Mach-O static library, with no tool beyond Python:
the slices of a fat (universal) file, the members of each `ar` archive (BSD and GNU name
forms), and for each Mach-O object its CPU type, its platform and minimum OS
(LC_BUILD_VERSION, or the older LC_VERSION_MIN_* commands) and its external symbols, defined or
undefined. The same code runs on Linux and macOS, so the check needs neither Xcode's `otool`/`nm`
nor LLVM's. Layouts: <mach-o/fat.h>, <mach-o/loader.h>, <mach-o/nlist.h>, <ar.h>.
"""

import struct
from dataclasses import dataclass, field

FAT_MAGIC = 0xCAFEBABE
FAT_MAGIC_64 = 0xCAFEBABF
MH_MAGIC_64 = 0xFEEDFACF
AR_MAGIC = b"!<arch>\n"

CPU_TYPES = {0x01000007: "x86_64", 0x0100000C: "arm64"}
# LC_BUILD_VERSION platforms (<mach-o/loader.h> PLATFORM_*): the ones this project ships.
PLATFORMS = {1: "macos", 2: "ios", 7: "ios-simulator"}
LC_SYMTAB = 0x2
LC_VERSION_MIN_MACOSX = 0x24
LC_VERSION_MIN_IPHONEOS = 0x25
LC_BUILD_VERSION = 0x32
N_STAB = 0xE0
N_TYPE = 0x0E
N_EXT = 0x01
N_UNDF = 0x0


class MachOError(Exception):
    """The file is not the Mach-O static library this reader understands."""


@dataclass
class MachObject:
    name: str
    arch: str
    cpusubtype: int
    # (platform name, minimum OS as a tuple) of every LC_BUILD_VERSION / LC_VERSION_MIN_*.
    builds: list = field(default_factory=list)
    defined: set = field(default_factory=set)
    undefined: set = field(default_factory=set)


@dataclass
class Slice:
    arch: str  # from the fat header, or from the objects of a thin archive
    objects: list  # [MachObject]
    others: list  # names of members that are neither a symbol table nor a Mach-O object


def version(v):
    """xxxx.yy.zz nibbles (<mach-o/loader.h>) as a tuple (major, minor, patch)."""
    return (v >> 16, (v >> 8) & 0xFF, v & 0xFF)


def parse_object(name, data):
    if len(data) < 32:
        raise MachOError(f"{name}: too short for a Mach-O header")
    magic, cputype, subtype, _filetype, ncmds, sizeofcmds, _flags, _res = struct.unpack_from("<8I", data, 0)
    if magic != MH_MAGIC_64:
        raise MachOError(f"{name}: not a 64-bit little-endian Mach-O object (magic {magic:#x})")
    obj = MachObject(name, CPU_TYPES.get(cputype, f"cputype {cputype:#x}"), subtype)
    off = 32
    end = 32 + sizeofcmds
    if end > len(data):
        raise MachOError(f"{name}: load commands run past the object")
    for _ in range(ncmds):
        if off + 8 > end:
            raise MachOError(f"{name}: load command outside the header")
        cmd, size = struct.unpack_from("<2I", data, off)
        if size < 8 or off + size > end:
            raise MachOError(f"{name}: load command {cmd:#x} has size {size}")
        if cmd == LC_BUILD_VERSION:
            platform, minos = struct.unpack_from("<2I", data, off + 8)
            obj.builds.append((PLATFORMS.get(platform, f"platform {platform}"), version(minos)))
        elif cmd in (LC_VERSION_MIN_MACOSX, LC_VERSION_MIN_IPHONEOS):
            (minos,) = struct.unpack_from("<I", data, off + 8)
            # The old commands cannot say "simulator": an x86_64 iOS object is one by definition.
            platform = "macos" if cmd == LC_VERSION_MIN_MACOSX else "ios"
            obj.builds.append((platform, version(minos)))
        elif cmd == LC_SYMTAB:
            symoff, nsyms, stroff, strsize = struct.unpack_from("<4I", data, off + 8)
            if symoff + 16 * nsyms > len(data) or stroff + strsize > len(data):
                raise MachOError(f"{name}: symbol table outside the object")
            strtab = data[stroff : stroff + strsize]
            for i in range(nsyms):
                strx, ntype, _sect, _desc, value = struct.unpack_from("<IBBHQ", data, symoff + 16 * i)
                if ntype & N_STAB or not ntype & N_EXT:
                    continue
                if strx >= len(strtab):
                    raise MachOError(f"{name}: symbol {i} names byte {strx} of a {len(strtab)}-byte string table")
                stop = strtab.find(b"\0", strx)
                sym = strtab[strx : stop if stop >= 0 else len(strtab)].decode("utf-8", "replace")
                # An undefined external with a value is a common symbol: defined by the link.
                if ntype & N_TYPE == N_UNDF and value == 0:
                    obj.undefined.add(sym)
                else:
                    obj.defined.add(sym)
        off += size
    return obj


def archive_members(name, data):
    """(member name, bytes) of an `ar` archive, BSD (#1/len) and GNU (/, //, /offset) names."""
    if not data.startswith(AR_MAGIC):
        raise MachOError(f"{name}: not an ar archive")
    off = len(AR_MAGIC)
    gnu_names = b""
    while off < len(data):
        if off + 60 > len(data):
            raise MachOError(f"{name}: truncated member header at byte {off}")
        header = data[off : off + 60]
        if header[58:60] != b"`\n":
            raise MachOError(f"{name}: bad member header at byte {off}")
        raw = header[:16].decode("ascii", "replace").rstrip()
        try:
            size = int(header[48:58].decode("ascii").strip())
        except ValueError:
            raise MachOError(f"{name}: bad member size at byte {off}") from None
        body = data[off + 60 : off + 60 + size]
        if len(body) != size:
            raise MachOError(f"{name}: member at byte {off} runs past the archive")
        if raw.startswith("#1/"):
            n = int(raw[3:])
            member, body = body[:n].rstrip(b"\0").decode("utf-8", "replace"), body[n:]
        elif raw == "//":
            gnu_names = body
            member = raw
        elif raw.startswith("/") and raw[1:].isdigit():
            start = int(raw[1:])
            stop = gnu_names.find(b"\n", start)
            member = gnu_names[start : stop if stop >= 0 else len(gnu_names)].decode("utf-8", "replace").rstrip("/")
        else:
            member = raw if raw in ("/", "/SYM64/") else raw.rstrip("/")
        yield member, body
        off += 60 + size + (size & 1)


SYMBOL_TABLES = {"/", "//", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED", "__.SYMDEF_64", "__.SYMDEF_64 SORTED"}


def parse_archive(name, data, arch=None):
    objects, others = [], []
    for member, body in archive_members(name, data):
        if member in SYMBOL_TABLES:
            continue
        if body[:4] == struct.pack("<I", MH_MAGIC_64):
            objects.append(parse_object(f"{name}({member})", body))
        else:
            others.append(member)
    if arch is None:
        archs = sorted({o.arch for o in objects})
        arch = archs[0] if len(archs) == 1 else "+".join(archs) or "none"
    return Slice(arch, objects, others)


def read_library(path, label=None):
    """The slices of a static library: one for a thin archive, one per architecture for a fat one.
    `label` names the file in messages (default: its path)."""
    with open(path, "rb") as f:
        data = f.read()
    path = label or str(path)
    if len(data) >= 8 and struct.unpack_from(">I", data, 0)[0] in (FAT_MAGIC, FAT_MAGIC_64):
        magic, n = struct.unpack_from(">2I", data, 0)
        wide = magic == FAT_MAGIC_64
        entry = 32 if wide else 20
        slices = []
        for i in range(n):
            at = 8 + i * entry
            if at + entry > len(data):
                raise MachOError(f"{path}: fat header names {n} slices, the file holds fewer")
            if wide:
                cputype, _sub, offset, size, _align, _res = struct.unpack_from(">2I2Q2I", data, at)
            else:
                cputype, _sub, offset, size, _align = struct.unpack_from(">5I", data, at)
            if offset + size > len(data):
                raise MachOError(f"{path}: slice {i} lies outside the file")
            arch = CPU_TYPES.get(cputype, f"cputype {cputype:#x}")
            slices.append(parse_archive(f"{path}[{arch}]", data[offset : offset + size], arch))
        return slices
    return [parse_archive(str(path), data)]

"""Checks that shared libraries load on Android devices with 16 KB pages (Google Play requires it of
64-bit libraries since November 2025): every PT_LOAD segment of each ELF file aligned to at least
16384 bytes, which `-C link-arg=-Wl,-z,max-page-size=16384` gives. With `--abi`, the file's ELF
machine and class must also be that Android ABI's. Reads the ELF header itself (no readelf).

    elf_align.py [--abi ABI] [--min 16384] LIB.so [LIB.so ...]

Prints one line per file (its PT_LOAD alignments) and exits 1 if any file fails.
"""

import argparse
import struct
import sys

PT_LOAD = 1
# Android ABI -> (ELF class, e_machine): EM_AARCH64 183, EM_ARM 40, EM_X86_64 62, EM_386 3.
ABIS = {"arm64-v8a": (64, 183), "armeabi-v7a": (32, 40), "x86_64": (64, 62), "x86": (32, 3)}
MACHINES = {183: "aarch64", 40: "arm", 62: "x86-64", 3: "x86"}


class ElfError(Exception):
    pass


def load_segments(data, name):
    """(ELF class, machine, [p_align of each PT_LOAD])."""
    if data[:4] != b"\x7fELF":
        raise ElfError(f"{name}: not an ELF file")
    if len(data) < 52:
        raise ElfError(f"{name}: truncated ELF header")
    cls = {1: 32, 2: 64}.get(data[4])
    order = {1: "<", 2: ">"}.get(data[5])
    if cls is None or order is None:
        raise ElfError(f"{name}: unknown ELF class {data[4]} or byte order {data[5]}")
    (machine,) = struct.unpack_from(order + "H", data, 18)
    if cls == 64:
        if len(data) < 64:
            raise ElfError(f"{name}: truncated ELF header")
        phoff, = struct.unpack_from(order + "Q", data, 32)
        phentsize, phnum = struct.unpack_from(order + "HH", data, 54)
        fmt, align_at = order + "I", 48
    else:
        phoff, = struct.unpack_from(order + "I", data, 28)
        phentsize, phnum = struct.unpack_from(order + "HH", data, 42)
        fmt, align_at = order + "I", 28
    aligns = []
    for i in range(phnum):
        at = phoff + i * phentsize
        if at + phentsize > len(data) or phentsize < align_at + (8 if cls == 64 else 4):
            raise ElfError(f"{name}: program header {i} lies outside the file")
        (ptype,) = struct.unpack_from(fmt, data, at)
        if ptype == PT_LOAD:
            (align,) = struct.unpack_from(order + ("Q" if cls == 64 else "I"), data, at + align_at)
            aligns.append(align)
    return cls, machine, aligns


def check(path, minimum, abi):
    with open(path, "rb") as f:
        data = f.read()
    cls, machine, aligns = load_segments(data, path)
    problems = []
    if not aligns:
        problems.append("no PT_LOAD segment")
    low = [a for a in aligns if a < minimum]
    if low:
        problems.append(f"{len(low)} PT_LOAD segment(s) aligned below {minimum}: {', '.join(hex(a) for a in low)}")
    if abi and ABIS[abi] != (cls, machine):
        problems.append(f"ELF{cls} {MACHINES.get(machine, machine)}, not {abi}'s ELF{ABIS[abi][0]} {MACHINES[ABIS[abi][1]]}")
    what = f"ELF{cls} {MACHINES.get(machine, machine)}, PT_LOAD p_align {', '.join(hex(a) for a in aligns)}"
    return problems, what


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--abi", choices=sorted(ABIS))
    ap.add_argument("--min", type=int, default=16384)
    ap.add_argument("libs", nargs="+")
    args = ap.parse_args(argv)
    bad = 0
    for lib in args.libs:
        try:
            problems, what = check(lib, args.min, args.abi)
        except (OSError, ElfError) as e:
            problems, what = [str(e)], "unreadable"
        print(f"{lib}: {'FAIL' if problems else 'ok'}: {what}" + "".join(f"; {p}" for p in problems))
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

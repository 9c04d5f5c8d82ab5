"""Packages and checks the Android library (AAR) of the uniffi bindings.

    aar.py pack OUT.aar --jni DIR --classes CLASSES.jar --manifest AndroidManifest.xml --proguard FILE
    aar.py check OUT.aar --listing aar-layout.txt --pom AAR_POM --kotlin-pom KOTLIN_POM [--stand-in]

`pack` writes the AAR (a zip) with sorted entries, fixed times and modes, so the same inputs give
the same bytes: AndroidManifest.xml, classes.jar, proguard.txt (consumer rules), R.txt (empty: no
resources) and jni/<abi>/libwirecontract_uniffi.so for every ABI directory under --jni.

`check` compares the AAR's entries with the committed listing (aar-layout.txt, one path a line),
checks that classes.jar holds the classes of both generated Kotlin packages
(dev.wirecontract.graphmind and dev.wirecontract.graphorin, their uniffi entry classes among
them) and nothing outside dev/wirecontract/ and META-INF/, that every jni library is an ELF
shared library of its ABI with every PT_LOAD aligned to 16 KB (elf_align.py), and that the POM
published beside the AAR declares JNA as an AAR dependency
(net.java.dev.jna:jna:<version>@aar) at the version the JVM jar uses (kotlin/pom.xml).
`--stand-in` is the test mode of build-aar.sh: one Linux x86-64 library stands in for every ABI,
so the machine check expects x86-64 everywhere and says so; the alignment and layout checks are
the same.
"""

import argparse
import io
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import elf_align

LIB = "libwirecontract_uniffi.so"
NS = {"m": "http://maven.apache.org/POM/4.0.0"}
ENTRY_CLASSES = (
    "dev/wirecontract/graphmind/Wirecontract_uniffiKt.class",
    "dev/wirecontract/graphorin/Wirecontract_uniffi_graphorinKt.class",
)


def pack(out, jni, classes, manifest, proguard):
    files = {
        "AndroidManifest.xml": Path(manifest).read_bytes(),
        "classes.jar": Path(classes).read_bytes(),
        "proguard.txt": Path(proguard).read_bytes(),
        "R.txt": b"",
    }
    abis = sorted(p.name for p in Path(jni).iterdir() if p.is_dir())
    if not abis:
        raise SystemExit(f"aar.py: no ABI directories under {jni}")
    for abi in abis:
        files[f"jni/{abi}/{LIB}"] = (Path(jni) / abi / LIB).read_bytes()
    dirs = sorted({"/".join(name.split("/")[:i]) + "/" for name in files for i in range(1, name.count("/") + 1)})
    with zipfile.ZipFile(out, "w") as z:
        for name in sorted([*dirs, *files]):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3
            if name.endswith("/"):
                info.external_attr = (0o40755 << 16) | 0x10
                z.writestr(info, b"")
            else:
                info.external_attr = 0o100644 << 16
                z.writestr(info, files[name], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


def pom_jna(pom):
    root = ET.parse(pom).getroot()
    section = root.find("m:properties", NS)
    props = {c.tag.split("}")[1]: (c.text or "").strip() for c in (section if section is not None else [])}
    found = []
    for dep in root.iterfind("m:dependencies/m:dependency", NS):
        get = lambda k: (dep.findtext(f"m:{k}", "", NS) or "").strip()
        if (get("groupId"), get("artifactId")) == ("net.java.dev.jna", "jna"):
            version = get("version")
            if version.startswith("${") and version.endswith("}"):
                version = props.get(version[2:-1], version)
            found.append((version, get("type") or "jar"))
    return found


def check(aar, listing, pom, kotlin_pom, stand_in):
    problems = []
    want = [l.strip() for l in Path(listing).read_text().splitlines() if l.strip() and not l.startswith("#")]
    with zipfile.ZipFile(aar) as z:
        names = sorted(z.namelist())
        for n in sorted(set(want) - set(names)):
            problems.append(f"missing entry {n}")
        for n in sorted(set(names) - set(want)):
            problems.append(f"entry {n} is not in {Path(listing).name}")
        if "classes.jar" in names:
            with zipfile.ZipFile(io.BytesIO(z.read("classes.jar"))) as jar:
                classes = set(jar.namelist())
            for c in ENTRY_CLASSES:
                if c not in classes:
                    problems.append(f"classes.jar: no {c}")
            for pkg in ("graphmind", "graphorin"):
                n = sum(1 for c in classes if c.startswith(f"dev/wirecontract/{pkg}/") and c.endswith(".class"))
                if n < 50:
                    problems.append(f"classes.jar: only {n} classes of dev.wirecontract.{pkg}")
            stray = sorted(c for c in classes if not c.endswith("/") and not c.startswith(("dev/wirecontract/", "META-INF/")))
            if stray:
                problems.append(f"classes.jar: classes outside dev/wirecontract: {', '.join(stray[:5])}")
            jvm_only = sorted(c for c in classes if c.startswith(("dev/wirecontract/graphmind/jvm/Native", "dev/wirecontract/graphmind/jvm/GraphMind")) or "SessionHost" in c)
            if jvm_only:
                problems.append(f"classes.jar: JVM-only classes (java.net.http, the JNI fast path): {', '.join(jvm_only[:3])}")
        for n in names:
            parts = n.split("/")
            if len(parts) == 3 and parts[0] == "jni" and parts[2]:
                abi = parts[1]
                if abi not in elf_align.ABIS:
                    problems.append(f"{n}: {abi} is not an Android ABI")
                    continue
                data = z.read(n)
                try:
                    cls, machine, aligns = elf_align.load_segments(data, n)
                except elf_align.ElfError as e:
                    problems.append(str(e))
                    continue
                low = [hex(a) for a in aligns if a < 16384]
                if not aligns or low:
                    problems.append(f"{n}: PT_LOAD aligned below 16384: {', '.join(low) or 'no PT_LOAD'}")
                expect = (64, 62) if stand_in else elf_align.ABIS[abi]
                if (cls, machine) != expect:
                    problems.append(f"{n}: ELF{cls} {elf_align.MACHINES.get(machine, machine)}, expected ELF{expect[0]} {elf_align.MACHINES[expect[1]]}")
    jna = pom_jna(pom)
    jvm = pom_jna(kotlin_pom)
    if not jna:
        problems.append(f"{Path(pom).name}: no net.java.dev.jna:jna dependency")
    for version, kind in jna:
        if kind != "aar":
            problems.append(f"{Path(pom).name}: JNA is a {kind} dependency, not aar (Android needs the AAR's native libraries)")
        if jvm and version != jvm[0][0]:
            problems.append(f"{Path(pom).name}: JNA {version}, the JVM jar uses {jvm[0][0]}")
    for p in problems:
        print(f"{aar}: {p}")
    if problems:
        return 1
    note = " (TEST MODE: the Linux x86-64 library stands in for every ABI)" if stand_in else ""
    print(f"{aar}: ok: {len(names)} entries as {Path(listing).name}, every jni library 16 KB aligned, JNA {jna[0][0]}@aar{note}")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack")
    p.add_argument("out")
    for k in ("jni", "classes", "manifest", "proguard"):
        p.add_argument(f"--{k}", required=True)
    c = sub.add_parser("check")
    c.add_argument("aar")
    for k in ("listing", "pom", "kotlin-pom"):
        c.add_argument(f"--{k}", required=True)
    c.add_argument("--stand-in", action="store_true")
    args = ap.parse_args(argv)
    if args.cmd == "pack":
        pack(args.out, args.jni, args.classes, args.manifest, args.proguard)
        return 0
    return check(args.aar, args.listing, args.pom, args.kotlin_pom, args.stand_in)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

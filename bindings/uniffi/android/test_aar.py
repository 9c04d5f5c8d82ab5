"""Self-test of aar.py check and elf_align.py (scripts/steps/48-android.sh): given the AAR that
build-aar.sh --linux-stand-in made (which must pass) and a default-linked library, every broken
copy must fail with the finding that names the break: a library with 4 KB PT_LOAD alignment in
jni/x86/, a missing entry (jni/armeabi-v7a/), an entry not in the listing, a POM declaring the
JNA jar instead of its AAR, a POM with another JNA version than the JVM jar, and elf_align.py on
the default-linked library itself.

    test_aar.py GOOD.aar GOOD.pom DEFAULT.so --root REPO
"""

import argparse
import io
import sys
import tempfile
import zipfile
from contextlib import redirect_stdout
from pathlib import Path

import aar
import elf_align

HERE = Path(__file__).resolve().parent


def rewrite(src, dest, drop=(), replace=None, add=None):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w") as zout:
        for info in zin.infolist():
            if info.filename.startswith(drop) if drop else False:
                continue
            data = zin.read(info.filename)
            if replace and info.filename in replace:
                data = replace[info.filename]
            zout.writestr(info, data)
        for name, data in (add or {}).items():
            zout.writestr(name, data)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("aar", type=Path)
    ap.add_argument("pom", type=Path)
    ap.add_argument("default_so", type=Path)
    ap.add_argument("--root", type=Path, required=True)
    args = ap.parse_args(argv)
    kotlin_pom = args.root / "bindings/uniffi/kotlin/pom.xml"
    listing = HERE / "aar-layout.txt"
    failures = []

    def run_check(path, pom=args.pom):
        out = io.StringIO()
        with redirect_stdout(out):
            code = aar.check(str(path), listing, pom, kotlin_pom, True)
        return code, out.getvalue()

    code, out = run_check(args.aar)
    if code != 0:
        failures.append(f"the good AAR fails:\n{out}")
    with tempfile.TemporaryDirectory(prefix="aar-test-") as tmp:
        tmp = Path(tmp)

        def broken(name, expect, pom=None, **edit):
            bad = tmp / f"{name}.aar"
            rewrite(args.aar, bad, **edit)
            code, out = run_check(bad, pom or args.pom)
            if code != 1 or expect not in out:
                failures.append(f"{name}: expected exit 1 and {expect!r}, got {code}:\n{out}")
            else:
                print(f"  fails as it should: {name}: {next(l for l in out.splitlines() if expect in l).split(': ', 1)[1]}")

        default = args.default_so.read_bytes()
        broken("4k-aligned-library", "jni/x86/libwirecontract_uniffi.so: PT_LOAD aligned below 16384",
               replace={"jni/x86/libwirecontract_uniffi.so": default})
        broken("missing-abi", "missing entry jni/armeabi-v7a/libwirecontract_uniffi.so", drop=("jni/armeabi-v7a/",))
        broken("extra-entry", "entry jni/mips/libwirecontract_uniffi.so is not in aar-layout.txt",
               add={"jni/mips/libwirecontract_uniffi.so": default})
        pom_text = args.pom.read_text()
        jar_pom = tmp / "jar.pom"
        jar_pom.write_text(pom_text.replace("<type>aar</type>", ""))
        broken("jna-jar-not-aar", "JNA is a jar dependency, not aar", pom=jar_pom)
        old_pom = tmp / "old.pom"
        version = aar.pom_jna(args.pom)[0][0]
        old_pom.write_text(pom_text.replace(f"<version>{version}</version>", "<version>5.0.0</version>"))
        broken("jna-version", f"JNA 5.0.0, the JVM jar uses {version}", pom=old_pom)
    out = io.StringIO()
    with redirect_stdout(out):
        code = elf_align.main([str(args.default_so)])
    if code != 1 or "aligned below 16384" not in out.getvalue():
        failures.append(f"elf_align.py passes the default-linked library:\n{out.getvalue()}")
    else:
        print(f"  fails as it should: default-linked library: {out.getvalue().strip().split(': ', 1)[1]}")
    for f in failures:
        print("FAILED:", f)
    if failures:
        return 1
    print("AAR self-test: ok (the stand-in AAR passes; 6 broken inputs each refused)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

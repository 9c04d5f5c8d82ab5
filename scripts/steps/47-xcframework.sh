# The XCFramework's assembly and checks, without building for Apple (that is
# bindings/uniffi/swift/build-xcframework.sh, minutes of release builds for five targets, run by
# hand): test_xcframework.py assembles small Mach-O libraries with LLVM (llvm-mc, llvm-ar:
# Debian's `llvm`, installed here when missing) that define every C function of the generated
# headers, makes the fat ones with xcframework.py lipo, assembles the XCFramework with xcframework.py, and shows that
# check_xcframework.py passes it and refuses each of eight broken copies (wrong architecture,
# device object in the simulator slice, later minimum OS, missing checksum function, undefined
# non-system symbol, missing Info.plist key, incomplete module map, truncated library); two zips
# of one tree are the same bytes. About two seconds.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
source scripts/lib/llvm-tools.sh
MC="$(llvm_tool llvm-mc)"
AR="$(llvm_tool llvm-ar)"
cd bindings/uniffi/swift
"$(python_bin)" -B test_xcframework.py --root "$ROOT" --mc "$MC" --ar "$AR"

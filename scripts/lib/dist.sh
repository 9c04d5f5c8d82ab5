# The builds and checks of scripts/dist and its scripts/test step. Sourced after common.sh, with
# ROOT set.
#
# Every native library is built with the release profile of the root Cargo.toml (opt-level 3,
# fat LTO, one codegen unit, panic = unwind) and its symbol table stripped (`-C strip=symbols`:
# the dynamic exports stay), cross-compiled by cargo through zig (maturin --zig for the wheels,
# cargo-zigbuild for the JVM and Node libraries), linked against glibc 2.17 on Linux gnu
# targets, musl 1.2 on musl targets, and macOS's libSystem on Apple targets, for macOS 10.12 on
# x86-64 and 11.0 on arm64 (maturin's wheel tags; dist_cdylib sets MACOSX_DEPLOYMENT_TARGET to the
# same, without which cargo-zigbuild's libraries declared macOS 15.0).

# A virtual environment with maturin, ziglang, cargo-zigbuild, auditwheel and LIEF (the binary
# reader of scripts/dist-tools), made once under target/.
dist_venv() {
    local venv="${WIRECONTRACT_DIST_VENV:-$ROOT/target/dist-venv}"
    if ! "$venv/bin/python" -c 'import ziglang, lief' 2>/dev/null || [ ! -x "$venv/bin/maturin" ] ||
        [ ! -x "$venv/bin/cargo-zigbuild" ] || [ ! -x "$venv/bin/auditwheel" ]; then
        [ -x "$venv/bin/python" ] || "$(python_bin)" -m venv "$venv"
        "$venv/bin/pip" install --quiet --upgrade pip
        "$venv/bin/pip" install --quiet "maturin>=1.8,<2" "ziglang==0.17.*" "cargo-zigbuild>=0.24,<0.25" "auditwheel>=6,<7" "lief==1.0.*"
    fi
    echo "$venv"
}

# zig's libc directory (musl's symbol list, macOS's libSystem.tbd) inside the venv's ziglang.
dist_zig_libc() {
    "$(dist_venv)/bin/python" -c 'import pathlib, ziglang; print(pathlib.Path(ziglang.__file__).parent / "lib/libc")'
}

# The Rust targets a build needs, added with rustup when missing.
dist_rust_target() {
    local t
    for t in "$@"; do
        rustup target list --installed | grep -qx "$t" || rustup target add "$t" >&2
    done
}

# dist_wheel RUST_TARGET COMPATIBILITY OUT_DIR: one release abi3 wheel (maturin --zig --strip;
# Windows: maturin with Debian's MinGW-w64, below). RUST_TARGET universal2-apple-darwin builds
# both Apple architectures into one fat library. DIST_PROFILE names another cargo profile (step
# 32-dist: `ci`, the release code without LTO).
dist_wheel() {
    local target="$1" compat="$2" out="$3" venv
    venv="$(dist_venv)"
    case "$target" in
        universal2-apple-darwin) dist_rust_target x86_64-apple-darwin aarch64-apple-darwin ;;
        *) dist_rust_target "$target" ;;
    esac
    local profile=(--release)
    [ "${DIST_PROFILE:-release}" = release ] || profile=(--profile "$DIST_PROFILE")
    local args=(build --quiet "${profile[@]}" --locked --strip --target "$target" -m "$ROOT/bindings/python/Cargo.toml" --out "$out")
    [ -n "$compat" ] && args+=(--compatibility "$compat")
    local cflags=()
    if [[ "$target" == *-windows-gnu ]]; then
        # Windows: linked by Debian's MinGW-w64 (cargo's default linker for windows-gnu), not
        # zig: for zig, maturin 1.16 writes a .def file exporting PyInit_wirecontract._native
        # (the dotted module name), which pyo3 does not define, and lld-link stops on it. pyo3
        # writes python3.dll's import library (no Windows Python here).
        arm64_need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64 || return 1
        args+=(--features windows-import-lib)
    else
        # maturin finds zig through `python -m ziglang` of the first python on PATH (an
        # absolute path: the C compiler wrappers run in other directories).
        args+=(--zig)
        mapfile -t cflags < <(dist_cflags "$target")
    fi
    env "${cflags[@]}" PATH="$venv/bin:$PATH" nice -n 10 "$venv/bin/maturin" "${args[@]}" 2>&1 | grep -v '^📦\|^🛠\|^🔗\|^🍹' >&2 || true
}

# dist_cflags RUST_TARGET: NAME=VALUE settings for the C code a zig build compiles (cc-rs reads
# CFLAGS_<target>). zig's clang makes `__DATE__`/`__TIME__` an error for Windows targets
# (-Werror=date-time); mimalloc prints them in its verbose banner. None on other targets.
dist_cflags() {
    [[ "$1" == *-windows-* ]] && echo "CFLAGS_${1//-/_}=-Wno-error=date-time"
    return 0
}

# dist_cdylib CRATE RUST_TARGET: builds CRATE's cdylib (only: not its other crate types) for
# RUST_TARGET (cargo-zigbuild; a `.2.17` glibc suffix on gnu targets) and prints its path.
# DIST_PROFILE names another cargo profile, as for dist_wheel (`dev`: a debug build, in
# target/<triple>/debug, whose build scripts and proc macros are the host's debug ones).
dist_cdylib() {
    local crate="$1" target="$2" profile="${DIST_PROFILE:-release}" venv zt lib dir
    venv="$(dist_venv)"
    case "$target" in
        universal2-apple-darwin) dist_rust_target x86_64-apple-darwin aarch64-apple-darwin ;;
        *) dist_rust_target "$target" ;;
    esac
    zt="$target"
    local flags=()
    case "$target" in
        *-linux-gnu) zt="$target.2.17" ;;
        # Linked against musl's shared C library (libc.so), as a library loaded into a musl
        # process must be: Rust's musl targets default to a static C runtime.
        *-linux-musl) flags=("CARGO_TARGET_$(echo "$target" | tr 'a-z-' 'A-Z_')_RUSTFLAGS=-C target-feature=-crt-static") ;;
        # The oldest macOS each architecture runs, as the wheels declare (check_dist.py MACOS_MIN).
        x86_64-apple-darwin) flags=(MACOSX_DEPLOYMENT_TARGET=10.12) ;;
        aarch64-apple-darwin) flags=(MACOSX_DEPLOYMENT_TARGET=11.0) ;;
    esac
    # Stripped by the final rustc only (`-- -C strip=symbols`, as maturin does): a profile
    # setting would change the profile of every crate, the host's build scripts and proc macros
    # too, and rebuild what steps 10-40 compiled.
    env "${flags[@]}" $(dist_cflags "$target") PATH="$venv/bin:$PATH" nice -n 10 \
        "$venv/bin/cargo-zigbuild" rustc --quiet --profile "$profile" --locked --lib --crate-type cdylib -p "$crate" --target "$zt" -- -C strip=symbols >&2 || return 1
    lib="${crate//-/_}"
    dir="$(cargo metadata --no-deps --format-version 1 --locked | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/$target/${profile/#dev/debug}"
    case "$target" in
        *-apple-darwin) echo "$dir/lib$lib.dylib" ;;
        *-windows-*) echo "$dir/$lib.dll" ;;
        *) echo "$dir/lib$lib.so" ;;
    esac
}

# dist_check ARGS...: scripts/dist-tools/check_dist.py with zig's libc lists, auditwheel and the
# glibc libraries of this machine (x86-64) and of the arm64 root (aarch64) when it exists.
dist_check() {
    local venv glibc="x86_64=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu"
    venv="$(dist_venv)"
    [ -n "${DIST_ARM64_ROOT:-}" ] && glibc="$glibc,aarch64=$DIST_ARM64_ROOT/lib/aarch64-linux-gnu:$DIST_ARM64_ROOT/usr/lib/aarch64-linux-gnu"
    "$venv/bin/python" -B "$ROOT/scripts/dist-tools/check_dist.py" --root "$ROOT" --zig-libc "$(dist_zig_libc)" \
        --glibc-libs "$glibc" --auditwheel "$venv/bin/auditwheel" "$@"
}

# dist_python_smoke WHEEL PLATFORM RUNNER...: installs WHEEL for PLATFORM (a pip --platform tag)
# into a fresh directory with the host's pip (which refuses a wheel whose tags do not fit that
# platform and CPython 3.10+), then runs the smoke suite with RUNNER (a Python command, possibly
# under qemu) with that directory on its path.
dist_python_smoke() {
    local wheel="$1" platform="$2" site shared
    shift 2
    shared="$(dist_shared)" || return 1
    site="$ROOT/target/dist-smoke/python-$platform"
    rm -rf "$site"
    "$(dist_venv)/bin/pip" install --quiet --no-deps --no-compile --only-binary=:all: --platform "$platform" \
        --python-version 3.11 --implementation cp --target "$site" "$wheel"
    WIRECONTRACT_SHARED="$shared" PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 \
        "$@" "$ROOT/scripts/dist-tools/smoke.py" "$ROOT"
}

# The shared conformance material (WIRECONTRACT_SHARED, default ../shared beside the repository).
dist_shared() {
    local d="${WIRECONTRACT_SHARED:-$ROOT/../shared}"
    [ -f "$d/vectors/graphmind/conformance.jsonl" ] || { echo "dist: no shared vectors in $d (set WIRECONTRACT_SHARED)" >&2; return 1; }
    (cd "$d" && pwd)
}

# Size of each file, one line each.
dist_sizes() {
    local f
    for f in "$@"; do
        printf '%10s  %s\n' "$(numfmt --to=iec --suffix=B "$(stat -c %s "$f")")" "${f#"$ROOT"/}"
    done
}

# The arm64 root of scripts/dist and of scripts/test's steps 32 and 42 (one root, made once):
# Debian's arm64 CPython, OpenJDK 17 and Node (scripts/lib/arm64-root.sh, sourced by the caller).
dist_arm64_root() {
    arm64_root_ensure full "python3 openjdk-17-jre-headless nodejs"
}

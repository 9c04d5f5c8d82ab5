# An arm64 Debian root to run aarch64 artifacts on an x86-64 machine through qemu user-mode
# emulation (binfmt_misc may be absent, so binaries are started as `qemu-aarch64-static -L
# ROOT ROOT/usr/bin/...`). Sourced, not run; needs root for apt-get the first time.
#
#   arm64_root_ensure NAME PACKAGES   a root holding Debian bookworm's arm64 PACKAGES (and their
#                                     dependencies), made when missing or half made; prints its path
#   arm64_run ROOT BINARY ARGS...     BINARY (a path inside ROOT, like /usr/bin/python3) under qemu;
#                                     a process it starts runs natively (no binfmt_misc)
#
# debootstrap --foreign resolves the packages' dependencies and downloads them; every .deb is
# then unpacked with `dpkg -x` (no maintainer scripts run: nothing here needs them, the programs
# are started by their full paths). The root lives in
# ${XDG_CACHE_HOME:-$HOME/.cache}/wirecontract/arm64-root-NAME, is built in "<root>.partial" and
# renamed into place after its marker file (written last, once the root's dpkg runs
# under qemu) exists, so an interrupted build is started over by the next run. The Debian mirror
# is the machine's own (swift_root_mirror reads it from the apt sources).
#
# What qemu emulates: qemu-aarch64-static's default CPU model, `max`, an Armv8 processor with
# Advanced SIMD (NEON) and the later extensions qemu implements (SVE among them).

source "$(dirname "${BASH_SOURCE[0]}")/swift-root.sh"

ARM64_ROOT_SUITE=bookworm
ARM64_ROOT_MARKER=.wirecontract-arm64-root

# Installs Debian packages (by program name -> package) when a program is missing.
arm64_need() {
    local missing=() prog pkg
    while [ $# -gt 0 ]; do
        prog="$1" pkg="$2"
        shift 2
        command -v "$prog" >/dev/null || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "arm64-root: installing ${missing[*]}" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null
}

arm64_root_ensure() {
    local name="$1" packages="$2" dir partial mirror start=$SECONDS deb
    dir="${XDG_CACHE_HOME:-$HOME/.cache}/wirecontract/arm64-root-$name"
    partial="$dir.partial"
    arm64_need qemu-aarch64-static qemu-user-static debootstrap debootstrap dpkg-deb dpkg >&2 || return 1
    if [ -f "$dir/$ARM64_ROOT_MARKER" ] && [ "$(head -n1 "$dir/$ARM64_ROOT_MARKER")" = "$packages" ]; then
        echo "$dir"
        return 0
    fi
    rm -rf "$dir" "$partial"
    mkdir -p "$(dirname "$dir")"
    mirror="$(swift_root_mirror)" || return 1
    echo "arm64-root: debootstrap --foreign --arch arm64 $ARM64_ROOT_SUITE ($packages) into $partial" >&2
    debootstrap --foreign --arch arm64 --variant=minbase --include="${packages// /,}" \
        "$ARM64_ROOT_SUITE" "$partial" "$mirror" >"$partial.log" 2>&1 || { tail -20 "$partial.log" >&2; return 1; }
    for deb in "$partial"/var/cache/apt/archives/*.deb; do
        dpkg -x "$deb" "$partial" || { echo "arm64-root: cannot unpack $deb" >&2; return 1; }
    done
    rm -f "$partial"/var/cache/apt/archives/*.deb
    # The marker, last: the package list, then the root's own dpkg's architecture, under qemu.
    # (A program run under qemu that starts another, like sh running uname, starts it natively:
    # without binfmt_misc the kernel runs the x86-64 file of the same path outside the root.)
    {
        echo "$packages"
        qemu-aarch64-static -L "$partial" "$partial/usr/bin/dpkg" --print-architecture
    } >"$partial/$ARM64_ROOT_MARKER.new" 2>>"$partial.log" &&
        mv "$partial/$ARM64_ROOT_MARKER.new" "$partial/$ARM64_ROOT_MARKER" ||
        { tail -20 "$partial.log" >&2; echo "arm64-root: qemu cannot run the root's /bin/sh" >&2; return 1; }
    mv "$partial" "$dir"
    rm -f "$partial.log"
    echo "arm64-root: ready in $((SECONDS - start)) s: $dir" >&2
    echo "$dir"
}

arm64_run() {
    local root="$1" bin="$2"
    shift 2
    qemu-aarch64-static -L "$root" "$root$bin" "$@"
}

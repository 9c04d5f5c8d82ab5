# The Swift toolchain root: Debian trixie's `swiftlang` (Swift 6.0.3) in a debootstrap root,
# run through chroot. Sourced, not run; needs root (debootstrap, mount, chroot).
#
#   swift_root_ensure          create the root when it is missing or half made; reuse it otherwise
#   swift_root_run DIR CMD...  run CMD inside the root, with DIR bind-mounted at the same path
#                              (so paths printed inside and outside agree) and cwd DIR; each
#                              directory in SWIFT_ROOT_BINDS (space-separated) is bind-mounted at
#                              its own path too, read-only. The environment is cleared: pass
#                              variables as `env NAME=VALUE cmd`.
#
# The root lives in ${WIRECONTRACT_SWIFT_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/wirecontract/swift-root}.
# It is built in "<root>.partial" and renamed into place only after its marker file (written
# last) exists, so an interrupted run leaves a .partial that the next run removes and rebuilds.
# The Debian mirror is the machine's own, read from its apt sources at run time.
# Mounts are made in a private mount namespace (unshare -m), so they vanish with the command and
# never outlive it (a leftover bind mount would make removing a half-made root dangerous).

SWIFT_ROOT_SUITE=trixie
SWIFT_ROOT_PACKAGES="swiftlang libc6-dev"
SWIFT_ROOT_MARKER=.wirecontract-swift-root

swift_root_dir() {
    echo "${WIRECONTRACT_SWIFT_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/wirecontract/swift-root}"
}

# The first Debian archive URI of this machine's apt sources (deb822 `URIs:` or one-line `deb`
# entries), skipping the security archive.
swift_root_mirror() {
    local f uri
    for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        while read -r uri; do
            case "$uri" in
                *security*) continue ;;
                */debian | */debian/) echo "${uri%/}"; return 0 ;;
            esac
        done < <(sed -n -e 's/^URIs:[[:space:]]*//p' -e 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p' "$f" | tr ' ' '\n')
    done
    echo "swift-root: no Debian archive found in /etc/apt sources" >&2
    return 1
}

# Refuses to go on if anything is mounted under $1 (removing it would reach into the mount).
swift_root_unmounted() {
    if awk -v d="$1" '$2 == d || index($2, d "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        echo "swift-root: something is mounted under $1; unmount it first" >&2
        return 1
    fi
}

swift_root_ensure() {
    local dir partial mirror start=$SECONDS
    dir="$(swift_root_dir)"
    partial="$dir.partial"
    [ -f "$dir/$SWIFT_ROOT_MARKER" ] && return 0
    swift_root_unmounted "$dir" && swift_root_unmounted "$partial" || return 1
    # A root without its marker, or a .partial, is an interrupted build: start over.
    rm -rf "$dir" "$partial"
    mkdir -p "$(dirname "$dir")"
    command -v debootstrap >/dev/null || {
        echo "swift-root: installing debootstrap" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
            { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
    }
    mirror="$(swift_root_mirror)"
    echo "swift-root: debootstrap $SWIFT_ROOT_SUITE from $mirror into $partial" >&2
    debootstrap --variant=minbase "$SWIFT_ROOT_SUITE" "$partial" "$mirror" >"$partial.log" 2>&1 ||
        { tail -20 "$partial.log" >&2; return 1; }
    cp /etc/resolv.conf "$partial/etc/resolv.conf"
    echo "swift-root: apt-get install $SWIFT_ROOT_PACKAGES" >&2
    swift_root_chroot "$partial" "" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $SWIFT_ROOT_PACKAGES && apt-get clean" \
        >>"$partial.log" 2>&1 || { tail -20 "$partial.log" >&2; return 1; }
    # The marker, last: the toolchain's version line, once swift runs.
    swift_root_chroot "$partial" "" swift --version >"$partial/$SWIFT_ROOT_MARKER.new" 2>>"$partial.log" &&
        mv "$partial/$SWIFT_ROOT_MARKER.new" "$partial/$SWIFT_ROOT_MARKER" ||
        { tail -20 "$partial.log" >&2; echo "swift-root: swift does not run in $partial" >&2; return 1; }
    mv "$partial" "$dir"
    rm -f "$partial.log"
    echo "swift-root: ready in $((SECONDS - start)) s ($(cat "$dir/$SWIFT_ROOT_MARKER"))" >&2
}

swift_root_run() {
    local dir
    dir="$(swift_root_dir)"
    [ -f "$dir/$SWIFT_ROOT_MARKER" ] || { echo "swift-root: no root in $dir (swift_root_ensure)" >&2; return 1; }
    swift_root_chroot "$dir" "$@"
}

# swift_root_chroot ROOTDIR WORK CMD...: CMD in ROOTDIR with /proc (the toolchain finds its
# libraries through /proc/self/exe), /dev and a fresh /tmp; WORK (if not empty) and each of
# SWIFT_ROOT_BINDS bind-mounted at their own paths; cwd WORK or /. With SWIFT_ROOT_TIMEOUT
# (seconds), killed when it runs longer.
swift_root_chroot() {
    local limit=()
    [ -z "${SWIFT_ROOT_TIMEOUT:-}" ] || limit=(timeout --kill-after=10 "$SWIFT_ROOT_TIMEOUT")
    binds="${SWIFT_ROOT_BINDS:-}" "${limit[@]}" unshare -m --propagation private sh -c '
        root="$1" work="$2"; shift 2
        mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" &&
        mount -t tmpfs tmpfs "$root/tmp" || exit 1
        if [ -n "$work" ]; then
            mkdir -p "$root$work" && mount --bind "$work" "$root$work" || exit 1
        fi
        for b in $binds; do
            mkdir -p "$root$b" && mount --bind "$b" "$root$b" && mount -o remount,bind,ro "$root$b" || exit 1
        done
        exec chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root TERM=dumb LANG=C.UTF-8 sh -c "cd \"\${0:-/}\" && exec \"\$@\"" "$work" "$@"' \
        _ "$@"
}

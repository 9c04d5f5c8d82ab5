# llvm_tool NAME: the path of one of LLVM's tools (llvm-mc, llvm-ar, llvm-lipo, ...). Sourced, not
# run. Looks on PATH (NAME, then the newest NAME-<version>), then in /usr/lib/llvm-<version>/bin
# (Debian installs some tools only there or only versioned); when none is found and apt-get can
# run (CI starts as root on a fresh Debian), installs Debian's `llvm` package once and looks
# again. Prints the path, or a one-line reason on stderr and returns 1.
llvm_find() {
    local name="$1" t
    command -v "$name" 2>/dev/null && return 0
    t="$(compgen -c "$name-" | grep -E "^$name-[0-9]+\$" | sort -t- -k3 -n | tail -n1 || true)"
    [ -n "$t" ] && { command -v "$t"; return 0; }
    t="$(ls -d /usr/lib/llvm-*/bin/"$name" 2>/dev/null | sort -V | tail -n1 || true)"
    [ -n "$t" ] && { echo "$t"; return 0; }
    return 1
}

llvm_tool() {
    local name="$1"
    llvm_find "$name" && return 0
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "installing Debian's llvm for $name" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq llvm; } >&2
        llvm_find "$name" && return 0
    fi
    echo "$name not found: install LLVM (Debian: apt-get install llvm; macOS: Xcode has lipo)" >&2
    return 1
}

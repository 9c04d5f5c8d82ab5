"""Syntax-check Swift files with tree-sitter-swift (no Swift toolchain needed).

Usage: python check_syntax.py FILE...   Exit status 1 if any file has a syntax error.

Only syntax: names, types and overloads are checked by `swift test` on macOS, not here.
"""

import re
import sys

import tree_sitter_swift as tss
from tree_sitter import Language, Parser

PARSER = Parser(Language(tss.language()))

# tree-sitter-swift 0.7.4 cannot parse an attribute wrapped alone in #if/#endif, which uniffi
# emits many times: `#if swift(>=5.8)` / `@_documentation(visibility: private)` / `#endif`.
# Blank those three lines (line numbers stay stable); everything else is parsed as written.
DOC_ATTR = re.compile(
    rb"^[ \t]*#if swift\(>=5\.8\)\n[ \t]*@_documentation\(visibility: private\)\n[ \t]*#endif$",
    re.M,
)


def syntax_errors(src: bytes) -> list[tuple[int, int, str]]:
    """(line, column, node type) of every ERROR or MISSING node, 1-based."""
    root = PARSER.parse(DOC_ATTR.sub(b"\n\n", src)).root_node
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append((node.start_point.row + 1, node.start_point.column + 1, node.type))
        elif node.has_error:
            stack.extend(node.children)
    if root.has_error and not found:
        found.append((1, 1, "error somewhere in the tree"))
    return sorted(found)


def main(paths: list[str]) -> int:
    if not paths:
        print("check_syntax.py: no files given", file=sys.stderr)
        return 2
    failed = 0
    for path in paths:
        with open(path, "rb") as f:
            src = f.read()
        errors = syntax_errors(src)
        if errors:
            failed += 1
            lines = src.decode("utf-8", "replace").splitlines()
            print(f"{path}: {len(errors)} syntax error(s)")
            for line, col, kind in errors[:10]:
                text = lines[line - 1].strip() if line - 1 < len(lines) else ""
                print(f"  {path}:{line}:{col}: {kind}: {text[:120]}")
        else:
            print(f"{path}: ok ({len(src.splitlines())} lines)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env bash
# Builds Kiln (release) and installs it for the current user: kiln and kiln-bench into
# $PREFIX/bin, the man page into $PREFIX/share/man/man1 (PREFIX defaults to ~/.local; use
# PREFIX=/usr/local, as root, for every user). Installs the Debian packages Kiln needs first.
# The binaries are copied, so the checkout may move or be rebuilt afterwards.
source "$(dirname "$0")/common.sh"
PREFIX="${PREFIX:-$HOME/.local}"
bash scripts/install-deps.sh
kiln_build --product kiln
kiln_build --product kiln-bench
bin="$(swift build "${KILN_SWIFT_FLAGS[@]}" --show-bin-path)"
install -d "$PREFIX/bin" "$PREFIX/share/man/man1"
install -m 0755 "$bin/kiln" "$bin/kiln-bench" "$PREFIX/bin/"
install -m 0644 docs/kiln.1 "$PREFIX/share/man/man1/kiln.1"
echo "installed kiln and kiln-bench in $PREFIX/bin, the man page in $PREFIX/share/man/man1"
case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "note: $PREFIX/bin is not on your PATH; add it, e.g. echo 'export PATH=\"$PREFIX/bin:\$PATH\"' >> ~/.bashrc" ;;
esac

#!/bin/sh
# Screenshots of every demo in a real X11 window (not headless mode), for the README's
# gallery: installs Xvfb and the screenshot tools (Debian), starts a virtual display, runs
# each demo in a window for a few seconds and captures the screen.
#
#   sh scripts/gallery.sh [OUT_DIR]      (default docs/gallery; run from the repository)
set -eu
out=${1:-docs/gallery}
need=""
command -v Xvfb >/dev/null || need="$need xvfb"
command -v xwd >/dev/null || need="$need x11-apps"
command -v pnmtopng >/dev/null || need="$need netpbm"
if [ -n "$need" ]; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
fi
cargo build --release -p glemu-demos
bin=target/release/glemu-demos
mkdir -p "$out"
display=:57
Xvfb "$display" -screen 0 640x480x24 -nolisten tcp &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
for demo in $("$bin" --help 2>&1 | awk '/^demos:/ { on = 1; next } on && NF { print $1 }'); do
	# No window manager: the 640x480 window fills the screen at (0, 0).
	DISPLAY=$display "$bin" "$demo" --size 640x480 --frames 1000000 &
	pid=$!
	# Long enough for the first frames of the slowest demo, and for animation.
	sleep "${GALLERY_SECONDS:-4}"
	xwd -root -silent -display "$display" | xwdtopnm 2>/dev/null | pnmtopng >"$out/$demo.png"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	echo "$out/$demo.png: glemu-demos $demo"
done

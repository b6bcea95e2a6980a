#!/bin/bash
# glemu against Mesa llvmpipe (the oracle's `render --bench`), interleaved, on every bench
# scene: the oracle's bench_scenes/ and bench/scenes/ (NAME.nv.shader_test runs against its
# GLSL twin NAME.glsl.shader_test on the oracle; other scenes run as they are on both).
#
# Usage: bench/compare.sh [-k FRAMES] [-w WARMUP] [-t THREADS] [-r ROUNDS] [SCENE...]
#   -k  timed frames per measurement (default 4)     -w  warm-up frames (default 1)
#   -t  threads for both renderers (default 2)       -r  rounds per scene (default 3)
#   SCENE: paths, or names matched against the scene directories (default: all).
# Env: GLEMU (default target/release/glemu), ORACLE_DIR (default ../shared/oracle).
#
# CPU time per frame: each renderer runs twice under `perf stat -e task-clock` (all
# threads), with 1 and with 1+K timed frames after the same warm-up; the difference / K
# is the CPU time of one frame with start-up, parsing, JIT compiles and uploads cancelled
# out. It survives other load on a shared machine far better than wall time. Wall fps is
# the renderer's own 1000 / median frame time of the longer run. Peak RSS is
# /usr/bin/time's maximum resident set size of the longer run. Each figure is the median
# over the rounds; runs alternate glemu, llvmpipe, glemu, llvmpipe.
# "speed" columns are glemu ÷ llvmpipe speed: > 1 means glemu is faster.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
K=4 W=1 T=2 ROUNDS=3
while getopts "k:w:t:r:" o; do
	case $o in
	k) K=$OPTARG ;; w) W=$OPTARG ;; t) T=$OPTARG ;; r) ROUNDS=$OPTARG ;;
	*) sed -n '5,9p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
GLEMU=${GLEMU:-$ROOT/target/release/glemu}
if [ -z "${ORACLE_DIR:-}" ]; then
	for d in "$ROOT/../shared/oracle" "$ROOT/../../shared/oracle"; do
		[ -f "$d/where.sh" ] && ORACLE_DIR=$(cd "$d" && pwd) && break
	done
fi
[ -x "$GLEMU" ] || { echo "no glemu at $GLEMU: cargo build --release" >&2; exit 2; }
[ -n "${ORACLE_DIR:-}" ] || { echo "no oracle: set ORACLE_DIR" >&2; exit 2; }
ORACLE=$(sh "$ORACLE_DIR/where.sh")
[ -x "$ORACLE" ] || { echo "oracle render not built: sh $ORACLE_DIR/setup.sh" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is needed (linux-perf / linux-tools)" >&2; exit 2; }

DIRS=("$ORACLE_DIR/bench_scenes" "$HERE/scenes")
SCENES=()
if [ $# -eq 0 ]; then
	for d in "${DIRS[@]}"; do
		for f in "$d"/*.shader_test; do
			case $f in *.glsl.shader_test) ;; *) SCENES+=("$f") ;; esac
		done
	done
else
	for a in "$@"; do
		if [ -f "$a" ]; then SCENES+=("$a"); continue; fi
		found=
		for d in "${DIRS[@]}"; do
			for f in "$d/$a.shader_test" "$d/$a.nv.shader_test"; do
				[ -f "$f" ] && SCENES+=("$f") && found=1 && break 2
			done
		done
		[ -n "$found" ] || { echo "no scene '$a'" >&2; exit 2; }
	done
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LOG=$TMP/log

# measure FRAMES CMD...: prints "task_ms rss_kb" and leaves the BENCH line in $TMP/line.
measure() {
	perf stat -x, -e task-clock -o "$TMP/perf" -- /usr/bin/time -f %M -o "$TMP/rss" \
		"$@" >"$TMP/out" 2>&1
	grep -m1 '^BENCH' "$TMP/out" >"$TMP/line" || { tail -1 "$TMP/out" >"$TMP/line"; return 1; }
	printf '%s %s\n' "$(awk -F, '/task-clock/ {print $1; exit}' "$TMP/perf")" "$(tail -1 "$TMP/rss")"
}
field() { sed -n "s/.*[ ]$1=\([0-9.]*\).*/\1/p" <<<" $2"; }
median() { sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "nan"}'; }

# run ENGINE SCENE ROUND: one pair of measurements; appends "engine cpu_ms fps rss_kb pixels".
run() {
	local engine=$1 scene=$2 lo hi line
	local cmd
	if [ "$engine" = glemu ]; then
		cmd=("$GLEMU" bench "$scene" --warmup "$W" --threads "$T" --frames)
	else
		cmd=(env LP_NUM_THREADS="$T" "$ORACLE" -q --no-png --warmup "$W" --bench)
	fi
	local tail=()
	[ "$engine" = glemu ] || tail=("$scene")
	lo=$(measure "${cmd[@]}" 1 "${tail[@]}") || { echo "$engine failed: $(cat "$TMP/line")"; return 1; }
	hi=$(measure "${cmd[@]}" $((1 + K)) "${tail[@]}") || { echo "$engine failed: $(cat "$TMP/line")"; return 1; }
	line=$(cat "$TMP/line")
	echo "$engine $(basename "$scene") load=$(cut -d' ' -f1 /proc/loadavg) task_ms=${lo% *}/${hi% *} $line" >>"$LOG"
	awk -v lo="${lo% *}" -v hi="${hi% *}" -v k="$K" -v fps="$(field fps "$line")" \
		-v rss="${hi#* }" -v px="$(field covered_pixels_per_frame "$line")" \
		-v e="$engine" 'BEGIN {printf "%s %.3f %s %s %s\n", e, (hi - lo) / k, fps, rss, px}'
}

echo "glemu $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) vs $("$ORACLE" --info 2>/dev/null | grep -m1 -i 'renderer' | sed 's/^[^:=]*[:=] *//')"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; load at start $(cut -d' ' -f1-3 /proc/loadavg); threads=$T frames=$K warmup=$W rounds=$ROUNDS"
echo
echo "| scene | glemu CPU ms/frame | llvmpipe CPU ms/frame | speed (CPU) | glemu ns/pixel | glemu fps | llvmpipe fps | speed (fps) | glemu peak RSS MB | llvmpipe peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for scene in "${SCENES[@]}"; do
	twin=$scene
	case $scene in *.nv.shader_test) twin=${scene%.nv.shader_test}.glsl.shader_test ;; esac
	name=$(basename "$scene" .shader_test)
	: >"$TMP/res"
	fail=
	for ((r = 0; r < ROUNDS; r++)); do
		run glemu "$scene" >>"$TMP/res" || { fail=$(tail -1 "$TMP/res"); break; }
		run oracle "$twin" >>"$TMP/res" || { fail=$(tail -1 "$TMP/res"); break; }
	done
	if [ -n "$fail" ]; then
		echo "| $name | $fail |"
		continue
	fi
	col() { awk -v e="$1" -v c="$2" '$1 == e {print $c}' "$TMP/res" | median; }
	gc=$(col glemu 2) oc=$(col oracle 2) gf=$(col glemu 3) of=$(col oracle 3)
	gr=$(col glemu 4) orr=$(col oracle 4) px=$(col glemu 5)
	awk -v n="$name" -v gc="$gc" -v oc="$oc" -v gf="$gf" -v of="$of" -v gr="$gr" -v orr="$orr" -v px="$px" 'BEGIN {
		printf "| %s | %.1f | %.1f | %.2f | %.1f | %.2f | %.2f | %.2f | %.0f | %.0f |\n",
			n, gc, oc, (gc > 0 ? oc / gc : 0), (px > 0 ? gc * 1e6 / px : 0), gf, of,
			(of > 0 ? gf / of : 0), gr / 1024, orr / 1024 }'
done
echo
echo "load at end $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo '```'
cat "$LOG"
echo '```'

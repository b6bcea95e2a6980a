#!/bin/sh
# Re-render every reference image of the reftest suite with the oracle (Mesa
# llvmpipe, ../../shared/oracle) and check that every oracle twin's probes pass
# on llvmpipe.  glemu never renders a reference.
#
#   sh reftests/regen.sh                 all scenes
#   sh reftests/regen.sh textures/ cube  only scenes whose folder/name contains a word
#
# For each scene NAME.shader_test (the glemu side) the twin is
# NAME.glsl.shader_test, or the scene itself for plain ARB scenes whose header
# says they are their own twin.  The twin is rendered with
# `render -q --ref TWIN NAME.png`, then run again without --ref so its probes
# (including `probe png NAME.png`) are checked.  Exit status 1 if any twin
# fails.  ORACLE_BIN=/path/to/render overrides the oracle location.
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=$(cd "$HERE/../../shared" 2>/dev/null && pwd)
ORACLE=${ORACLE_BIN:-$(sh "$SHARED/oracle/where.sh")}
if [ ! -x "$ORACLE" ]; then
	echo "oracle not built: run sh $SHARED/oracle/setup.sh, or set ORACLE_BIN" >&2
	exit 2
fi
LOG=${TMPDIR:-/tmp}/reftests-regen
mkdir -p "$LOG"
cd "$HERE/scenes" || exit 2
fail=0
count=0
for scene in $(find . -name '*.shader_test' ! -name '*.glsl.shader_test' | sed 's|^\./||' | sort); do
	name=${scene%.shader_test}
	if [ $# -gt 0 ]; then
		keep=0
		for word in "$@"; do
			case "$name" in *"$word"*) keep=1 ;; esac
		done
		[ $keep = 1 ] || continue
	fi
	dir=$(dirname "$scene")
	base=$(basename "$name")
	twin="$base.glsl.shader_test"
	[ -f "$dir/$twin" ] || twin="$base.shader_test"
	err="$LOG/$(echo "$name" | tr / _).err"
	(cd "$dir" && "$ORACLE" -q --ref "$twin" "$base.png") >/dev/null 2>"$err"
	res=$(cd "$dir" && "$ORACLE" -q --no-png "$twin" 2>>"$err" | tail -1)
	count=$((count + 1))
	if [ "$res" != PASS ]; then
		fail=1
		printf '%-48s %s\n' "$name" "${res:-ERROR} (see $err)"
	fi
done
echo "$count scenes re-rendered; $( [ $fail = 0 ] && echo 'all twins PASS on llvmpipe' || echo 'some twins FAILED')"
exit $fail

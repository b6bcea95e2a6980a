#!/bin/bash
# Renders every reftest scene (reftests/scenes, the oracle's examples are not glemu's) with
# two glemu binaries and compares the PNG bytes: a speed change must not move one bit.
# Usage: bench/same_images.sh OLD_GLEMU NEW_GLEMU [THREADS...]   (default threads: 1 2)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
[ $# -ge 2 ] || { sed -n '2,4p' "$0" >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
THREADS=("$@")
[ ${#THREADS[@]} -gt 0 ] || THREADS=(1 2)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
same=0 differ=0 failed=0 unrendered=0
while IFS= read -r scene; do
	for t in "${THREADS[@]}"; do
		# Both run with the same thread count through the environment rayon reads.
		RAYON_NUM_THREADS=$t "$OLD" render "$scene" -o "$TMP/old.png" >/dev/null 2>&1
		a=$?
		RAYON_NUM_THREADS=$t "$NEW" render "$scene" -o "$TMP/new.png" >/dev/null 2>&1
		b=$?
		if [ $a -ne 0 ] || [ $b -ne 0 ]; then
			if [ $a -ne $b ]; then
				echo "EXIT $scene threads=$t: $a vs $b"
				failed=$((failed + 1))
			else
				unrendered=$((unrendered + 1))
			fi
			continue
		fi
		if cmp -s "$TMP/old.png" "$TMP/new.png"; then
			same=$((same + 1))
		else
			echo "DIFFER $scene threads=$t"
			differ=$((differ + 1))
		fi
		rm -f "$TMP/old.png" "$TMP/new.png"
	done
done < <(find "$ROOT/reftests/scenes" -name '*.shader_test' ! -name '*.glsl.shader_test' | sort)
echo "identical: $same, different: $differ, exit status differs: $failed, neither renders: $unrendered"
[ $differ -eq 0 ] && [ $failed -eq 0 ]

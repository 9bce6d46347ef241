#!/usr/bin/env bash
# The image's call graph between source files, and its layers.
#
#   tools/fw-layers.sh [OBJDIR]      (default build/obj/virt)
#
# From the symbols of each object (nm: what it defines, what it uses), an
# edge A -> B for every symbol A uses that B defines.  Layer 0 is the files
# that use no other; layer k the files whose uses all lie in layers < k.
# Files left over are in a dependency cycle and are listed as such (exit 1).
# The entry stubs (firmware/start.S, platform/common/trap_*.S) are the
# image's entry points (they call rvm_entry / rvm_trap) and are left out.
set -euo pipefail
dir=${1:-build/obj/virt}
dir=${dir%/}
NM=${NM:-riscv64-unknown-elf-nm}
[ -d "$dir" ] || { echo "fw-layers: no objects in $dir (run make first)" >&2; exit 2; }

find "$dir" -name '*.o' | sort | while read -r o; do
	src=${o#"$dir"/}
	src=${src%.o}
	case $src in firmware/start.S | platform/common/trap_*.S) continue ;; esac
	"$NM" "$o" | awk -v f="$src" '
		$1 == "U" { print "U", f, $2; next }
		NF == 3 && $2 ~ /^[TDBRCGS]$/ { print "D", f, $3 }'
done | awk '
	$1 == "D" { def[$3] = $2; files[$2] = 1; next }
	{ use[++n] = $2 " " $3; files[$2] = 1 }
	function sorted(s,   a, n, i, j, t, r) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		for (i = 1; i <= n; i++) r = r " " a[i]
		return r
	}
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (u[2] in def && def[u[2]] != u[1])
				dep[u[1] "|" def[u[2]]] = 1
		}
		for (e in dep) {
			split(e, p, "|")
			print "edge " p[1] " -> " p[2] | "sort"
		}
		close("sort")
		left = 0
		for (f in files) left++
		for (k = 0; left > 0; k++) {
			line = ""
			for (f in files) {
				if (f in layer) continue
				ok = 1
				for (e in dep) {
					split(e, p, "|")
					if (p[1] == f && !(p[2] in layer && layer[p[2]] < k)) { ok = 0; break }
				}
				if (ok) { now[f] = k; line = line " " f }
			}
			if (line == "") break
			for (f in now) { layer[f] = now[f]; left-- }
			delete now
			print "layer " k ":" sorted(line)
		}
		if (left > 0) {
			line = ""
			for (f in files) if (!(f in layer)) line = line " " f
			print "in or above a cycle:" sorted(line)
			exit 1
		}
	}'


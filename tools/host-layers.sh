#!/usr/bin/env bash
# Host layering check (docs/architecture.md; the image's is tools/fw-layers.sh):
# every .c/.h file of hostsim/sim and hostsim/cli (subfolders included:
# hostsim/cli/cmd/) sits in one layer of
# tools/host-layers.txt (a name there may be a glob: memmodel_*.c), and each
# `#include "..."` runs down or sideways:
# to a file of the same folder in the same or a lower layer, or to what the
# folder's `allow` line names (so hostsim/sim never includes hostsim/cli,
# and the other way round).  Prints the layers, one line each, and the
# wrong-way includes; exit 1 when there is one or a file has no layer.
#
#   tools/host-layers.sh [ROOT]     (ROOT: the tree to check, default this
#                                    checkout; the rules are this checkout's)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$here/..}
rules=$here/host-layers.txt
cd "$root" || exit 2
awk -v rules="$rules" '
BEGIN {
	while ((getline l < rules) > 0) {
		if (l ~ /^[ \t]*(#|$)/) continue
		n = split(l, w, /[ \t]+/)
		if (w[1] == "allow") { d = w[2]; sub(":", "", d); for (i = 3; i <= n; i++) allow[d] = allow[d] " " w[i]; continue }
		d = w[1]; lay = w[2]; name = w[3]; sub(":", "", name)
		dirs[d] = 1; lname[d, lay] = name; if (lay + 0 > top[d]) top[d] = lay + 0
		for (i = 4; i <= n; i++) {
			f = d "/" w[i]
			files[d, lay] = files[d, lay] " " w[i]
			if (w[i] ~ /\*/) { /* a glob: matched by name below */
				g = f; gsub(/\./, "\\.", g); gsub(/\*/, "[^/]*", g)
				globs[++nglob] = "^" g "$"; globlay[nglob] = lay + 0
				continue
			}
			if (f in layer) { printf "host-layers: %s listed twice (%s)\n", f, rules; bad = 1 }
			layer[f] = lay + 0
		}
	}
	for (d in dirs) {
		cmd = "find " d " -name \"*.[ch]\" 2>/dev/null | sort"
		while ((cmd | getline f) > 0) {
			if (!(f in layer))
				for (i = 1; i <= nglob; i++)
					if (f ~ globs[i]) { layer[f] = globlay[i]; globbed[f] = 1; break }
			if (!(f in layer)) { printf "host-layers: %s is in no layer (add it to %s)\n", f, rules; bad = 1; continue }
			seen[f] = 1
			while ((getline l < f) > 0) {
				if (l !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
				h = l; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
				top_dir = d; sub(/^hostsim\//, "", top_dir)
				if (index(h, top_dir "/") == 1) {
					hf = "hostsim/" h
					if (!(hf in layer))
						for (i = 1; i <= nglob; i++)
							if (hf ~ globs[i]) { layer[hf] = globlay[i]; globbed[hf] = 1; break }
					if (!(hf in layer)) { printf "host-layers: %s includes %s, which is in no layer\n", f, h; bad = 1; continue }
					if (layer[hf] > layer[f]) {
						printf "host-layers: wrong way: %s (layer %d %s) includes %s (layer %d %s)\n", f, layer[f], lname[d, layer[f]], h, layer[hf], lname[d, layer[hf]]
						bad = 1
					}
					continue
				}
				ok = 0; na = split(allow[d], a, " ")
				for (i = 1; i <= na; i++)
					if (a[i] ~ /\/$/ ? index(h, a[i]) == 1 : h == a[i]) ok = 1
				if (!ok) { printf "host-layers: wrong way: %s includes %s (%s may include only its own files and%s)\n", f, h, d, allow[d]; bad = 1 }
			}
			close(f)
		}
		close(cmd)
		for (lay = 0; lay <= top[d]; lay++) printf "layer %s %d %s:%s\n", d, lay, lname[d, lay], files[d, lay]
	}
	for (f in layer) if (!(f in seen) && !(f in globbed)) printf "note: %s is listed but does not exist\n", f
	exit bad
}'

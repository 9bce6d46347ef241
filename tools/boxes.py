#!/usr/bin/env python3
"""Boxes and arrows as SVG, from a small text source (docs/pictures/*.txt).

    python3 tools/boxes.py SOURCE.txt > PICTURE.svg     (tools/gen-docs.sh runs it)

Source lines ('#' starts a comment):
    title TEXT                     the picture's title, at the top
    lane ROW TEXT                  a lane heading left of grid row ROW
    box ID COL ROW "LABEL" "NOTE"  a box at grid column COL, row ROW (numbers,
                                   may be fractional); NOTE (optional) is the
                                   small second line, e.g. the files
    arrow FROM TO ["LABEL"]        an arrow between two boxes, from the side
                                   facing the other box
The output depends only on the source (no dates, no random ids), so the
committed SVG can be checked against it (tools/gen-docs.sh --check).
"""
import shlex
import sys

W, H = 190, 58          # box size
GX, GY = 235, 100       # grid pitch
LEFT, TOP = 150, 60     # room for lane headings and the title


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def main(path):
    title, lanes, boxes, arrows = "", [], {}, []
    order = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("title") else line.strip()
            if not line:
                continue
            w = shlex.split(line)
            try:
                if w[0] == "title":
                    title = line[len("title"):].strip()
                elif w[0] == "lane":
                    lanes.append((float(w[1]), " ".join(w[2:])))
                elif w[0] == "box":
                    boxes[w[1]] = (float(w[2]), float(w[3]), w[4], w[5] if len(w) > 5 else "")
                    order.append(w[1])
                elif w[0] == "arrow":
                    if w[1] not in boxes or w[2] not in boxes:
                        raise KeyError(w[1] if w[1] not in boxes else w[2])
                    arrows.append((w[1], w[2], w[3] if len(w) > 3 else ""))
                else:
                    raise ValueError("unknown word " + w[0])
            except (IndexError, ValueError, KeyError) as e:
                sys.exit("%s:%d: %s" % (path, n, e))
    cols = max(b[0] for b in boxes.values()) + 1
    rows = max(b[1] for b in boxes.values()) + 1
    width = int(LEFT + cols * GX)
    height = int(TOP + rows * GY)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif">' % (width, height, width, height),
           '<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>',
           '<rect width="100%" height="100%" fill="white"/>']
    if title:
        out.append('<text x="%d" y="28" font-size="17" font-weight="bold">%s</text>' % (12, esc(title)))

    def pos(b):
        c, r = boxes[b][0], boxes[b][1]
        return LEFT + c * GX, TOP + r * GY

    for r, text in lanes:
        y = TOP + r * GY + H / 2
        out.append('<text x="12" y="%.0f" font-size="13" font-weight="bold" fill="#555">%s</text>' % (y + 4, esc(text)))
    for a, b, label in arrows:
        (ax, ay), (bx, by) = pos(a), pos(b)
        if abs(bx - ax) >= abs(by - ay):   # side by side: right edge to left edge
            x1, y1 = (ax + W, ay + H / 2) if bx > ax else (ax, ay + H / 2)
            x2, y2 = (bx, by + H / 2) if bx > ax else (bx + W, by + H / 2)
        else:                              # above/below: bottom edge to top edge
            x1, y1 = (ax + W / 2, ay + H) if by > ay else (ax + W / 2, ay)
            x2, y2 = (bx + W / 2, by) if by > ay else (bx + W / 2, by + H)
        out.append('<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#444" stroke-width="1.5" '
                   'marker-end="url(#a)"/>' % (x1, y1, x2, y2))
        if label:
            out.append('<text x="%.0f" y="%.0f" font-size="11" fill="#444" text-anchor="middle">%s</text>'
                       % ((x1 + x2) / 2, (y1 + y2) / 2 - 5, esc(label)))
    for b in order:
        x, y = pos(b)
        _, _, label, note = boxes[b]
        out.append('<rect x="%.0f" y="%.0f" width="%d" height="%d" rx="6" fill="#eef3fb" stroke="#3a5f9a"/>'
                   % (x, y, W, H))
        out.append('<text x="%.0f" y="%.0f" font-size="14" text-anchor="middle">%s</text>'
                   % (x + W / 2, y + (24 if note else 34), esc(label)))
        if note:
            out.append('<text x="%.0f" y="%.0f" font-size="10.5" fill="#333" text-anchor="middle" '
                       'font-family="monospace">%s</text>' % (x + W / 2, y + 43, esc(note)))
    out.append("</svg>")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tools/boxes.py SOURCE.txt > PICTURE.svg")
    main(sys.argv[1])

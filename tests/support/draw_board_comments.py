#!/usr/bin/python3
"""Expands board placeholders in scenario tests into drawn boards (STYLE.md: scenario tests draw
the board above each case).

A line such as
    //@DRAW W24:14,13:1 B12:15
(White's and Black's point:count lists; unlisted checkers are borne off) becomes a comment with
points 13..24 on top and 12..1 below, as in core/pos_text.h draw_board(), plus the off counts.

Usage: /usr/bin/python3 tests/support/draw_board_comments.py tests/core/some_test.cpp ...
"""
import re, sys
def cell(v):
    if v == 0: return '.'.rjust(4)
    return (('W' if v > 0 else 'B') + str(abs(v))).rjust(4)
def draw(spec, indent):
    pts = [0]*25
    off = {'W': 15, 'B': 15}
    for part in spec.split():
        if part[0] in 'WB':
            side = part[0]
            for item in part[1:].split(','):
                if not item: continue
                p, n = item.split(':')
                pts[int(p)] += int(n) if side == 'W' else -int(n)
                off[side] -= int(n)
    top = ''.join(str(p).rjust(4) + ('  |' if p == 18 else '') for p in range(13, 25))
    topc = ''.join(cell(pts[p]) + ('  |' if p == 18 else '') for p in range(13, 25))
    botc = ''.join(cell(pts[p]) + ('  |' if p == 7 else '') for p in range(12, 0, -1))
    bot = ''.join(str(p).rjust(4) + ('  |' if p == 7 else '') for p in range(12, 0, -1))
    pre = indent + '//'
    lines = [pre + top, pre + topc, pre + '  ' + '-' * (len(top) - 1), pre + botc, pre + bot,
             pre + '   off: White %d, Black %d' % (off['W'], off['B'])]
    return '\n'.join(l.rstrip() for l in lines)
for path in sys.argv[1:]:
    src = open(path).read()
    out = re.sub(r'^([ \t]*)//@DRAW (.*)$', lambda m: draw(m.group(2), m.group(1)), src, flags=re.M)
    open(path, 'w').write(out)

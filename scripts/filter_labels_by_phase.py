#!/usr/bin/env python3
"""Copies label files keeping only the positions of some phases (nardy.phase_of: opening,
contact, race, bearoff), for fitting a net to one phase of the game.

    PYTHONPATH=build/python /usr/bin/python3 scripts/filter_labels_by_phase.py \\
        --phases contact --out-dir runs/contact runs/strong/gen-007/labels-*.lbl

Each output file has its input's name, header (plus a `phases` line) and games; a sibling group
(`nardy label --top`: records of kind 2 after their first) is kept or dropped whole, by the phase
of its first position, so the fit's sibling term sees whole groups. `--exact-races` also gives
every kept position the race table covers the table's exact odds under the file's rules
(nardy.race_odds: the process's table, `NARDY_BEAROFF=FILE` for a larger one; source byte "race
table") and adds an
`exact_races` line naming the table's points. Records after the last end of
game (a partial game) are dropped, as readers drop them. Format: selfplay/training/label_file.h.
Used for docs/results.md, "One net or one per phase".
"""
import argparse
import collections
import pathlib
import struct
import sys

import nardy

RECORD_BYTES = 36
KIND_POSITION, KIND_END, KIND_SIBLING = 0, 1, 2
SOURCE_RACE_TABLE = 0x20  # LabelSource::RaceTable (selfplay/training/label_file.h)
PHASES = ("opening", "contact", "race", "bearoff")


def split_header(data: bytes, path: pathlib.Path) -> tuple[bytes, bytes]:
    if not data.startswith(b"nardy-labels 1\n"):
        sys.exit(f"{path}: not a label file of format 1 (selfplay/training/label_file.h)")
    end = data.find(b"\nend\n")
    if end < 0:
        sys.exit(f"{path}: no 'end' line after the header")
    return data[: end + 1], data[end + 5 :]


def header_rules(header: bytes) -> str | None:
    """The header's `rules` value (the rules the file was labelled under), None without one."""
    for line in header.decode().splitlines():
        if line.startswith("rules "):
            return line[len("rules "):]
    return None


def exact_record(record: bytes, rules: str | None, counts: collections.Counter) -> bytes:
    """The record with the race table's exact odds under `rules` as its target, if the table
    covers it."""
    odds = nardy.race_odds(nardy.Position.from_id(record[:14].decode()), rules=rules)
    if odds is None:
        return record
    counts["exact"] += 1
    target = struct.pack("<4f", odds["win"], odds["win_mars"], odds["lose_mars"], odds["draw"])
    return record[:15] + bytes([SOURCE_RACE_TABLE]) + record[16:20] + target


def filter_file(src: pathlib.Path, dst: pathlib.Path, phases: set[str],
                exact_points: int | None = None) -> collections.Counter:
    """Copies src to dst keeping the phases; with exact_points (the race table's points, from
    table_points()) the kept races get the table's odds."""
    header, body = split_header(src.read_bytes(), src)
    if len(body) % RECORD_BYTES:
        body = body[: len(body) - len(body) % RECORD_BYTES]
    rules = header_rules(header)
    exact = exact_points is not None
    lines = b"phases " + ",".join(sorted(phases)).encode() + b"\n"
    if exact_points is not None:
        lines += b"exact_races table_points=%d\n" % exact_points
    out = bytearray(header + lines + b"end\n")
    counts: collections.Counter = collections.Counter()
    group: list[bytes] = []  # the records of the sibling group being read
    pending = bytearray()  # the kept records of the game being read

    def close_group() -> None:
        if group:
            phase = nardy.phase_of(nardy.Position.from_id(group[0][:14].decode()))
            counts[phase] += len(group)
            if phase in phases:
                for record in group:
                    pending.extend(exact_record(record, rules, counts) if exact else record)
            group.clear()

    for i in range(0, len(body), RECORD_BYTES):
        record = body[i : i + RECORD_BYTES]
        kind = record[14]
        if kind == KIND_SIBLING:
            if not group:
                sys.exit(f"{src}: record {i // RECORD_BYTES} is a sibling with no record before it")
            group.append(record)
            continue
        close_group()
        if kind == KIND_POSITION:
            group.append(record)
        elif kind == KIND_END:
            out.extend(pending)
            out.extend(record)
            pending.clear()
            counts["games"] += 1
        else:
            sys.exit(f"{src}: record {i // RECORD_BYTES} has unknown kind {kind}")
    dst.write_bytes(bytes(out))  # a partial last game (no end record) is left out
    return counts


def table_points() -> int:
    """The points of the process's race table; exits when there is none."""
    try:  # a race every table covers: one checker of each side on its last point
        odds = nardy.race_odds(",".join(["1"] + ["0"] * 11 + ["-1"] + ["0"] * 11) + " w")
    except nardy.NardyError as e:
        sys.exit(f"--exact-races: {e}")
    return odds["table_points"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=pathlib.Path, help="label files")
    parser.add_argument("--phases", required=True,
                        help="comma-separated phases to keep: " + ", ".join(PHASES))
    parser.add_argument("--out-dir", required=True, type=pathlib.Path)
    parser.add_argument("--exact-races", action="store_true",
                        help="give kept positions the race table covers its exact odds")
    args = parser.parse_args()
    phases = set(args.phases.split(","))
    if not phases <= set(PHASES):
        sys.exit(f"--phases: unknown phase(s) {sorted(phases - set(PHASES))}; "
                 f"phases are {', '.join(PHASES)}")
    names = [src.name for src in args.files]
    if len(set(names)) < len(names):
        sys.exit("files: two inputs have the same name; their outputs would collide in --out-dir")
    exact_points = table_points() if args.exact_races else None  # before writing anything
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for src in args.files:
        dst = args.out_dir / src.name
        if dst.resolve() == src.resolve():
            sys.exit(f"{dst}: would overwrite its input")
        counts = filter_file(src, dst, phases, exact_points)
        kept = sum(n for p, n in counts.items() if p in phases)
        total = sum(n for p, n in counts.items() if p in PHASES)
        by_phase = ", ".join(f"{p} {counts[p]}" for p in PHASES)
        exact = f", {counts['exact']} given exact race odds" if args.exact_races else ""
        print(f"{src} -> {dst}: kept {kept} of {total} positions ({by_phase}), "
              f"{counts['games']} games{exact}")


if __name__ == "__main__":
    main()

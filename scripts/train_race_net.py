#!/usr/bin/env python3
"""Fits the one-sided race net (selfplay/tables/race_net.h) to a race table.

    /usr/bin/python3 scripts/train_race_net.py TABLE.nbt --out models/race-net.nrn [options]

TABLE.nbt is a one-sided race table (`nardy bearoff build --points 12 --out TABLE.nbt`,
selfplay/tables/bearoff_table.h): for every arrangement of up to 15 checkers on a side's last
N points, the exact distributions of its turns to finish and to its first checker off. The net
learns both distributions from the arrangement (cross-entropy against the table's, every
arrangement once per epoch in a seeded order), so that races beyond the table the build ships
(8 points) can be valued from two such distributions as race_odds.h values covered ones.

The output file is the format race_net.h documents (little-endian; header, then float32
weights). Each epoch trains on --epoch-size arrangements drawn from a seeded shuffle (2% held out),
at --lr for --hold epochs and then halved every --halve-every epochs; the epoch with the lowest
held-out loss is the one written. Progress is a live line per epoch on stderr. After every epoch
the whole state goes to OUT.ckpt, so a killed run started again with the same arguments loses at
most the running epoch (the checkpoint is removed at the end). The same table, arguments and
torch thread count give the same file.
"""
import argparse
import math
import os
import pathlib
import struct
import sys
import time
import zlib

import numpy as np
import torch

MAGIC_TABLE = b"NARDYBO1"
MAGIC_NET = b"NARDYRN1"
NET_VERSION = 1
MAX_CHECKERS = 15


def read_table(path):
    """The table's points, records (offset, first, len, first, len) and probabilities."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:8] != MAGIC_TABLE:
        sys.exit(f"{path}: not a race table (bad magic)")
    _version, points, positions, floats, crc, _ = struct.unpack_from("<6I", raw, 8)
    if zlib.crc32(raw[32:]) != crc:
        sys.exit(f"{path}: checksum mismatch (damaged file)")
    rec = np.frombuffer(raw, dtype=np.dtype([("offset", "<u4"), ("f_first", "u1"),
                                             ("f_len", "u1"), ("o_first", "u1"),
                                             ("o_len", "u1")]), count=positions, offset=32)
    data = np.frombuffer(raw, dtype="<f4", count=floats, offset=32 + 8 * positions)
    return points, rec, data


def arrangements(points):
    """Every arrangement (counts on route points 1..points, sum <= 15) in the table's index
    order: lexicographic in (c[0], c[1], ...) (bearoff_index.h)."""
    # by_sum[k]: the arrangements of the last n points with sum <= k, in lexicographic order.
    by_sum = [np.arange(k + 1, dtype=np.uint8).reshape(-1, 1) for k in range(MAX_CHECKERS + 1)]
    for _ in range(points - 1):
        by_sum = [np.concatenate([np.concatenate([np.full((len(by_sum[k - c]), 1), c, np.uint8),
                                                  by_sum[k - c]], axis=1)
                                  for c in range(k + 1)]) for k in range(MAX_CHECKERS + 1)]
    return by_sum[MAX_CHECKERS]


def dense(rec, data, first_key, len_key, idx, bins):
    """The distributions of records `idx` as [len(idx), bins] (mass beyond the last bin in it)."""
    out = np.zeros((len(idx), bins), dtype=np.float32)
    r = rec[idx]
    first = r[first_key].astype(np.int64)
    length = r[len_key].astype(np.int64)
    offset = r["offset"].astype(np.int64) + (0 if first_key == "f_first" else r["f_len"])
    rows = np.arange(len(idx))
    for j in range(int(length.max())):
        m = j < length
        np.add.at(out, (rows[m], np.minimum(first[m] + j, bins - 1)), data[offset[m] + j])
    return out


def features(a):
    """The net's inputs (race_net.h): per point 1..12, [c >= 1, c >= 2, c >= 3, (c - 3) / 4
    if c > 3], then pips / 100, checkers on the board / 15, checkers off / 15."""
    a = a.float()
    per_point = torch.stack([(a >= 1).float(), (a >= 2).float(), (a >= 3).float(),
                             torch.clamp(a - 3, min=0) / 4], dim=2).flatten(1)
    r = torch.arange(1, a.shape[1] + 1, dtype=torch.float32)
    pips = (a * r).sum(1, keepdim=True) / 100
    on = a.sum(1, keepdim=True)
    return torch.cat([per_point, pips, on / 15, (15 - on) / 15], dim=1)


class RaceNet(torch.nn.Module):
    def __init__(self, inputs, hidden, finish_bins, first_off_bins):
        super().__init__()
        self.finish_bins = finish_bins
        layers, width = [], inputs
        for h in hidden:
            layers.append(torch.nn.Linear(width, h))
            width = h
        self.hidden = torch.nn.ModuleList(layers)
        self.out = torch.nn.Linear(width, finish_bins + first_off_bins)

    def forward(self, x):
        for layer in self.hidden:
            x = torch.relu(layer(x))
        z = self.out(x)
        return z[:, :self.finish_bins], z[:, self.finish_bins:]


def save(net, points, path):
    layers = list(net.hidden) + [net.out]
    body = bytearray()
    for layer in layers:
        body += layer.weight.detach().to(torch.float32).contiguous().numpy().tobytes()
        body += layer.bias.detach().to(torch.float32).contiguous().numpy().tobytes()
    widths = [layers[0].in_features] + [layer.out_features for layer in layers[:-1]]
    first_off_bins = net.out.out_features - net.finish_bins
    header = MAGIC_NET + struct.pack("<7I", NET_VERSION, points, len(widths), net.finish_bins,
                                     first_off_bins, zlib.crc32(body), 0)
    header += struct.pack(f"<{len(widths)}I", *widths)
    write_atomic(path, lambda tmp: pathlib.Path(tmp).write_bytes(header + body))


def write_atomic(path, write):
    """write(PATH.tmp), then PATH.tmp renamed onto PATH; on any failure (a full disk) the
    temporary file is removed, PATH keeps what it held, and the error names the file."""
    tmp = path + ".tmp"
    try:
        write(tmp)
        os.replace(tmp, path)
    except (OSError, RuntimeError) as e:  # torch.save raises RuntimeError on a failed write
        if os.path.exists(tmp):
            os.remove(tmp)
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e).splitlines()[0]
        sys.exit(f"train_race_net: cannot write {path!r}: {reason}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table")
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", default="256,256", help="hidden widths, comma-separated")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--hold", type=int, default=4, help="epochs at --lr before it is halved")
    ap.add_argument("--halve-every", type=int, default=2, help="epochs between halvings")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--holdout", type=float, default=0.02)
    ap.add_argument("--mean-weight", type=float, default=1.0,
                    help="weight of the squared error of the mean turns to finish in the loss")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--epoch-size", type=int, default=4000000,
                    help="training arrangements per epoch, drawn from a seeded shuffle of all "
                         "of them (0: all)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    points, rec, data = read_table(args.table)
    arr = arrangements(points)
    assert len(arr) == len(rec), (len(arr), len(rec))
    # Bins: turns 0 .. last where any distribution keeps more than 1e-7 (the rest is folded into
    # the last bin).
    f_last = (rec["f_first"].astype(int) + rec["f_len"]).max()
    o_last = (rec["o_first"].astype(int) + rec["o_len"]).max()
    finish_bins, first_off_bins = int(min(f_last, 48)), int(min(o_last, 24))
    print(f"{args.table}: {points} points, {len(rec):,} arrangements; bins {finish_bins} finish, "
          f"{first_off_bins} first off", file=sys.stderr)

    order = rng.permutation(len(rec))
    n_hold = max(1, int(len(order) * args.holdout))
    hold, train = order[:n_hold], order[n_hold:]
    hidden = [int(h) for h in args.hidden.split(",")]
    net = RaceNet(features(torch.from_numpy(arr[:1])).shape[1], hidden, finish_bins,
                  first_off_bins)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    turns_f = torch.arange(finish_bins, dtype=torch.float32)

    def loss_of(idx):
        x = features(torch.from_numpy(arr[idx]))
        tf = torch.from_numpy(dense(rec, data, "f_first", "f_len", idx, finish_bins))
        to = torch.from_numpy(dense(rec, data, "o_first", "o_len", idx, first_off_bins))
        zf, zo = net(x)
        lf, lo = torch.log_softmax(zf, 1), torch.log_softmax(zo, 1)
        ce = -(tf * lf).sum(1).mean() - (to * lo).sum(1).mean()
        mean_err = ((lf.exp() * turns_f).sum(1) - (tf * turns_f).sum(1))
        return ce + args.mean_weight * (mean_err ** 2).mean(), mean_err

    def held_out():
        with torch.no_grad():
            ces, errs = [], []
            for s in range(0, len(hold), 8192):
                ce, err = loss_of(hold[s:s + 8192])
                ces.append(ce.item() * len(err))
                errs.append(err.abs())
            errs = torch.cat(errs)
            return sum(ces) / len(hold), errs.mean().item(), errs.max().item()

    # The step size: --lr for the first --hold epochs, then halved every --halve-every epochs.
    def lr_of(epoch):
        return args.lr * 0.5 ** max(0, (epoch - 1 - args.hold) // args.halve_every + 1)

    # Resumable: after every epoch the state (weights, optimizer, generator, best so far) goes to
    # OUT.ckpt; a run with the same arguments continues from it.
    ckpt_path = args.out + ".ckpt"
    best, first_epoch = math.inf, 1
    if os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path)
        if ck["args"] != vars(args):
            sys.exit(f"{ckpt_path}: made with other arguments ({ck['args']}); remove it to start "
                     f"over")
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        rng.bit_generator.state = ck["rng"]
        torch.set_rng_state(ck["torch_rng"])
        best, first_epoch = ck["best"], ck["epoch"] + 1
        print(f"resumed from {ckpt_path} after epoch {ck['epoch']}", file=sys.stderr)
    for epoch in range(first_epoch, args.epochs + 1):
        t0 = time.time()
        for g in opt.param_groups:
            g["lr"] = lr_of(epoch)
        perm = train[rng.permutation(len(train))][:args.epoch_size or len(train)]
        for s in range(0, len(perm), args.batch):
            ce, _ = loss_of(perm[s:s + args.batch])
            opt.zero_grad()
            ce.backward()
            opt.step()
            if s // args.batch % 200 == 0 and s:
                rate = s / (time.time() - t0)
                print(f"\repoch {epoch}/{args.epochs}: {s / len(perm):5.1%}, loss {ce.item():.6f}, "
                      f"{rate:,.0f}/s, ETA {(len(perm) - s) / rate:.0f} s   ", end="",
                      file=sys.stderr, flush=True)
        loss, mean_abs, max_abs = held_out()
        print(f"\repoch {epoch}/{args.epochs} (lr {lr_of(epoch):.2g}): held-out loss {loss:.6f}, "
              f"mean turns to finish off by {mean_abs:.4f} on average, {max_abs:.3f} at most "
              f"({time.time() - t0:.0f} s)", file=sys.stderr)
        if loss < best:
            best = loss
            save(net, points, args.out)
        state = {"args": vars(args), "net": net.state_dict(), "opt": opt.state_dict(),
                 "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                 "best": best, "epoch": epoch}
        write_atomic(ckpt_path, lambda tmp: torch.save(state, tmp))
    os.remove(ckpt_path)
    print(f"wrote {args.out} (held-out loss {best:.6f})", file=sys.stderr)


if __name__ == "__main__":
    main()

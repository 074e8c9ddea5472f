"""Where the match score changes a net's move: score-aware against score-blind choices.

    PYTHONPATH=build/python /usr/bin/python3 bench/where_score_matters.py [--games 300] [--seed 1]

Positions: every turn with two or more legal results of `--games` games of 0-ply self-play of
the shipped model (`default`). Each result is valued once by the model at 0-ply (win, win mars,
lose mars for the mover). At each listed score the score-blind choice is the result with the
best equity (what `default:match=off` plays), the score-aware choice the one with the best match
winning chance, sum over outcomes of P(outcome) * MWC(score after it) with MWC from the match
equity table (nardy.match_winning_chance, core/match_equity.h; the next game's White by
previous_black). For each score: how often the two differ, and the MWC the aware choice gains
over the blind one by the model's own 0-ply estimate (per decision, and per decision where they
differ; biased upwards, since the choice maximises that same estimate), and, where they differ,
by the model's 1-ply value of the two results (`default:ply=1`, a less self-serving judge).
Prints a Markdown table.
"""
import argparse

import numpy as np

import nardy

# (label, match length, mover's points, opponent's points)
SCORES = [
    ("to 3, 0-0", 3, 0, 0),
    ("to 3, 1-1 (2-away / 2-away)", 3, 1, 1),
    ("to 3, 2-2 (1-away / 1-away)", 3, 2, 2),
    ("to 3, 1-2 (mover 2-away, opponent 1-away)", 3, 1, 2),
    ("to 3, 2-1 (mover 1-away, opponent 2-away)", 3, 2, 1),
    ("to 3, 0-2 (mover 3-away, opponent 1-away)", 3, 0, 2),
    ("to 3, 2-0 (mover 1-away, opponent 3-away)", 3, 2, 0),
    ("to 5, 0-0", 5, 0, 0),
    ("to 5, 3-3 (2-away / 2-away)", 5, 3, 3),
    ("to 5, 3-4 (mover 2-away, opponent 1-away)", 5, 3, 4),
]


def decisions(games, seed):
    """(mover is White, [n, 3] mover-view win, win_mars, lose_mars, [n] equity) per decision."""
    net = nardy.load_model()
    out = []
    for game in nardy.play("default", "default", games=games, seed=seed):
        for turn in game.history:
            results = turn.before.legal(*turn.dice)
            if len(results) < 2:
                continue
            ev = np.asarray(net.evaluate([r.position for r in results]), dtype=np.float64)
            # Rows are from the opponent's view (to move after the result): flip them.
            win = 1.0 - ev[:, 0] - ev[:, 3]
            probs = np.stack([win, ev[:, 2], ev[:, 1]], axis=1)
            out.append((turn.mover == nardy.Side.White, probs, -ev[:, 4], results))
    return out


def outcome_values(to, me, opp, mover_white):
    """MWC of the mover (player 0) after win oin, win mars, lose oin, lose mars."""
    next_white = 1 if mover_white else 0  # previous_black: this game's Black is White next
    mwc = lambda a, b: nardy.match_winning_chance(to, a, b, white=next_white)
    return mwc(me + 1, opp), mwc(me + 2, opp), mwc(me, opp + 1), mwc(me, opp + 2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    ds = decisions(args.games, args.seed)
    judge = nardy.make_agent("default:ply=1")
    cache = {}

    def one_ply(position):  # mover's win, win mars, lose mars after the result, at 1-ply
        key = position.id
        if key not in cache:
            e = judge.evaluate(position).flipped()
            cache[key] = (e.win, e.win_mars, e.lose_mars)
        return cache[key]

    print(f"{len(ds)} decisions (two or more legal results) from {args.games} games, seed "
          f"{args.seed}\n")
    print("| score (mover first) | decisions where the choice differs | MWC gained per decision "
          "(0-ply) | MWC gained where it differs (0-ply) | the same by 1-ply values, ± s.e. |")
    print("|---|---|---|---|---|")
    for label, to, me, opp in SCORES:
        differ, gain, gains1 = 0, 0.0, []
        for mover_white, p, equity, results in ds:
            wo, wm, lo, lm = outcome_values(to, me, opp, mover_white)
            mwc = lambda w, w2, l2: (w - w2) * wo + w2 * wm + (1 - w - l2) * lo + l2 * lm
            value = mwc(p[:, 0], p[:, 1], p[:, 2])
            blind, aware = int(np.argmax(equity)), int(np.argmax(value))
            if value[aware] > value[blind]:
                differ += 1
                gain += value[aware] - value[blind]
                gains1.append(mwc(*one_ply(results[aware].position)) -
                              mwc(*one_ply(results[blind].position)))
        n = len(ds)
        g1 = np.asarray(gains1)
        se = g1.std(ddof=1) / np.sqrt(len(g1)) if len(g1) > 1 else 0.0
        print(f"| {label} | {differ / n:.1%} ({differ} of {n}) | {gain / n:.5f} | "
              f"{(gain / differ if differ else 0):.4f} | "
              f"{(g1.mean() if len(g1) else 0):.4f} ± {se:.4f} |", flush=True)


if __name__ == "__main__":
    main()

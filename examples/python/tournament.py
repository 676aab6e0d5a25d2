"""A tournament of three agents on Hnefatafl, then the win rates of two
policies on the same deals of Fenrir's Path, both run in Rust."""

import norn

summary = norn.tournament(
    "hnefatafl",
    ["random", "greedy", "alphabeta:depth=2"],
    games=4,
    seed=7,
    rules="ply-limit=120",
    threads=2,
)
for agent in summary["agents"]:
    print(f"{agent['spec']:>20}: {agent['score']:.0%} of {agent['games']} games, Elo {agent['elo']:+.0f}")

rates = norn.winrate("fenrir-path", ["greedy", "exact"], deals=200, seed=1, threads=2)
for row in rates["policies"]:
    print(f"{row['policy']:>8}: {row['win_rate']:.1%} [{row['ci_low']:.1%}, {row['ci_high']:.1%}]")

"""Screen settings of the greedy policy against greedy itself, one side at a time.

For each variant spec and each side, plays game indices 0..N-1 of master seed SEED with the
variant in that seat against ``greedy`` in the other, and the same indices with ``greedy`` in
both seats (the baseline, cached in /tmp/exp), and prints the paired gain of the side's VP
margin with a rough 95 % interval (mean +- 2 standard errors) and the share of games that
differ at all. This is how the candidate plans of the ``lookahead`` policies (``PLANS`` in
``policies/gwe/lookahead.py`` and ``policies/kb/lookahead.py``) were chosen; the figures are
in results/lookahead_plans.md.

Usage (from the project root; SIDES=0 or SIDES=1 for one side only):

    SIDES=0 python3 scripts/screen_plans.py brusilov/historical 40 1 "greedy:aggression=3"
"""
import sys, json, math, os
import numpy as np
from multiprocessing import Pool
from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy

SCEN = sys.argv[1]; N = int(sys.argv[2]); SEED = int(sys.argv[3]); variants = sys.argv[4:]
_sc = None
def play(args):
    global _sc
    a, c, i = args
    if _sc is None: _sc = load_scenario(SCEN)
    d = driver(_sc.game)
    g = d.new_game(_sc, SEED, i, policies={0: make_policy(a), 1: make_policy(c)})
    try:
        return float(d.play(g).vp)
    except Exception as e:
        return float("nan")

if __name__ == "__main__":
    os.makedirs("/tmp/exp", exist_ok=True)
    cache = f"/tmp/exp/base_{SCEN.replace('/','_')}_{SEED}.json"
    base = json.load(open(cache)) if os.path.exists(cache) else {}
    with Pool(2) as pool:
        need = [i for i in range(N) if str(i) not in base]
        for i, v in zip(need, pool.map(play, [("greedy", "greedy", i) for i in need])):
            base[str(i)] = v
        json.dump(base, open(cache, "w"))
        b = np.array([base[str(i)] for i in range(N)])
        sign = 1 if SCEN.startswith("brusilov") else -1     # VP for allied (GWE) / central (KB)
        for v in variants:
            for side in [int(x) for x in os.environ.get("SIDES", "0,1").split(",")]:
                tasks = [((v, "greedy", i) if side == 0 else ("greedy", v, i)) for i in range(N)]
                r = np.array(pool.map(play, tasks))
                s = (sign if side == 0 else -sign)
                d = s * (r - b)
                m, sd = np.nanmean(d), np.nanstd(d, ddof=1)
                h = 2.0 * sd / math.sqrt(N)
                print(f"{v:60s} side {side}: gain {m:+.1f} [{m-h:+.1f}, {m+h:+.1f}] ({np.mean(d!=0):.0%} differ)", flush=True)

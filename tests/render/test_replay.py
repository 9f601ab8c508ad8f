"""`gwe replay`: one game replayed from a results row or from its seeds, drawn into a
self-contained HTML page (checked as text and, when Chromium is installed, in a real headless
browser), PNG frames, and one-sentence errors for bad input."""

import base64
import doctest
import html
import io
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image  # Pillow comes with matplotlib, a test dependency
from typer.testing import CliRunner

import gwe_fast
from gwe_fast import __version__
from gwe_fast.cli import app
from gwe_fast.policies.base import Policy
from gwe_fast.render import replay as rp_mod
from gwe_fast.render.replay import (
    GameSpec,
    Replay,
    check_against_row,
    page_html,
    render_replay,
    replay_game,
)

runner = CliRunner()
SEED = 5                 # one Brusilov campaign, played by `gwe run` and replayed
PNG = b"\x89PNG\r\n\x1a\n"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def gwe(*args, cwd=None):
    """Run the real console entry point in a subprocess (as a user would)."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300, check=False, cwd=cwd)


@pytest.fixture(scope="module")
def scenario():
    return gwe_fast.load_scenario("brusilov/historical")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results file of one game, written by `gwe run`, and its row."""
    out = tmp_path_factory.mktemp("run") / "one.parquet"
    done = gwe("run", "brusilov/historical", "--games", "1", "--seed", str(SEED),
               "--workers", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    row = pq.read_table(out).to_pylist()[0]
    assert row["result"] not in ("error", "setup-only")
    return out, row


@pytest.fixture(scope="module")
def replayed(results, tmp_path_factory):
    """`gwe replay --from` on that row: the command's outcome, the page and its frames."""
    path, row = results
    where = tmp_path_factory.mktemp("replay")
    page, frames = where / "page.html", where / "frames"
    done = gwe("replay", "--from", str(path), "--row", "0", "--out", str(page),
               "--frames", str(frames))
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="frames">(.*?)</script>',
                                text, re.DOTALL).group(1).replace("<\\/", "</"))
    return SimpleNamespace(done=done, page=page, frames=frames, text=text, data=data, row=row)


def rewrite(path, out, **columns):
    """A copy of a results file (metadata kept) with some columns replaced."""
    table = pq.read_table(path)
    for name, values in columns.items():
        field = table.schema.field(name)
        table = table.set_column(table.schema.get_field_index(name), field,
                                 pa.array(values, type=field.type))
    writer = pq.ParquetWriter(out, table.schema)
    writer.write_table(table)
    writer.add_key_value_metadata({"gwe_fast": pq.read_metadata(path).metadata[b"gwe_fast"]})
    writer.close()
    return out


def decode(uri: str) -> np.ndarray:
    assert uri.startswith("data:image/png;base64,")
    raw = base64.b64decode(uri.split(",", 1)[1])
    assert raw.startswith(PNG)
    return np.asarray(Image.open(io.BytesIO(raw)))


class Tags(HTMLParser):
    """Every start tag with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(text):
    parser = Tags()
    parser.feed(text)
    return parser.tags


# --- the replay is the game of the row -------------------------------------------------------

def test_replay_from_a_row_ends_as_the_row_says(replayed):
    row = replayed.row
    assert "ends as row 0 of" in replayed.done.stdout
    assert f"says: {row['result']}, {row['vp']} VP" in replayed.done.stdout
    assert "warning" not in replayed.done.stderr
    header = replayed.text.split('<div id="controls">')[0]
    assert f"{row['result'].replace('_', ' ')}, {row['vp']} VP" in header
    assert f"master seed {SEED}, game index 0" in header
    assert "allied: random, central: random" in header
    assert replayed.data[-1]["vp"] == row["vp"]


def test_the_command_reports_the_time_per_frame(replayed):
    m = re.search(r"(\d+) frames: the set-up, one per Game-Turn \(\d+\) and the end of the "
                  r"game; game replayed in [\d.]+ s, frames drawn in [\d.]+ s \(([\d.]+) s "
                  r"per frame\)", replayed.done.stdout)
    assert m and int(m.group(1)) == len(replayed.data) and float(m.group(2)) > 0


# --- the page as text ------------------------------------------------------------------------

def test_page_has_one_frame_per_game_turn_and_nothing_from_the_network(replayed, scenario):
    text, data = replayed.text, replayed.data
    labels = [f["label"] for f in data]
    turns = [f"Game-Turn {t}" for t in range(scenario.first_turn, scenario.last_turn + 1)]
    assert labels[0] == "Set-up" and labels[1:1 + len(turns)] == turns
    assert labels[1 + len(turns):] in ([], ["End of the game"])
    all_tags = tags(text)
    sliders = [a for t, a in all_tags if t == "input" and a.get("type") == "range"]
    assert len(sliders) == 1 and sliders[0]["max"] == str(len(data) - 1)
    ids = {a.get("id") for _, a in all_tags}
    assert {"prev", "next", "slider", "frame-label", "log", "background", "overlay"} <= ids
    # self-contained: no URL to fetch anything, every image embedded
    bare = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", text)
    assert len(bare) < len(text) / 5                   # the images were the bulk of it
    assert not re.search(r"(?:https?:|ftp:)?//[a-z0-9]", bare, re.IGNORECASE)
    for tag, attrs in all_tags:
        assert tag not in ("link", "iframe", "object", "embed"), tag
        if tag == "script":
            assert "src" not in attrs
        if tag == "img" and attrs.get("src"):
            assert attrs["src"].startswith("data:image/png;base64,")


def test_frames_are_lossless_overlays_of_one_background(replayed):
    """Background + overlay of frame i gives exactly the PNG written for frame i."""
    text, data = replayed.text, replayed.data
    background = decode(re.search(r'id="background"[^>]*src="([^"]+)"', text).group(1))
    files = sorted(replayed.frames.glob("*.png"))
    assert [f.name for f in files][:2] == ["000-setup.png", "001-turn01.png"]
    assert len(files) == len(data)
    previous = None
    for f, frame in zip(files, data):
        whole = np.asarray(Image.open(f).convert("RGB"))
        overlay = decode(frame["overlay"])
        assert overlay.shape == whole.shape[:2] + (4,) and background.shape == whole.shape
        drawn = overlay[:, :, 3] == 255
        assert np.array_equal(np.where(drawn[:, :, None], overlay[:, :, :3], background), whole)
        assert 0.002 < drawn.mean() < 0.2          # the units, not the whole map
        if previous is not None:
            assert not np.array_equal(previous, whole)
        previous = whole


def test_the_log_names_units_and_hexes(replayed, scenario):
    units = scenario.units
    turn1 = replayed.data[1]["log"]
    names = re.findall(r'<span class="u (allied|central)" title="([^"]+)">([^<]+)</span>', turn1)
    assert len(names) > 20
    for side, uid, name in names:
        i = units.ids.index(html.unescape(uid))
        assert html.unescape(name) == units.names[i]
        assert side == ("allied" if units.side[i] == 0 else "central")
    hexes = set(re.findall(r'<span class="h">(\d{4})</span>', turn1))
    assert hexes and all(0 <= scenario.map.cell(h) < scenario.map.n_cells for h in hexes)
    assert " moves to " in turn1
    assert '<li class="phase">Game-Turn 1, allied Player-Turn: movement phase</li>' in turn1
    assert '<li class="phase">Game-Turn 1, central Player-Turn: replacement phase</li>' in turn1
    assert replayed.data[0]["log"] == '<ol class="log"></ol>'
    assert all(f["decisions"] > 0 for f in replayed.data[1:-1])


# --- the page in a real browser --------------------------------------------------------------

@pytest.fixture(scope="module")
def chromium():
    """The browser binary; the test is skipped (with the reason) when there is none."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium found (chromium or chromium-browser): the replay page is not "
                "tested in a browser; install it with apt-get install chromium")


def headless(chromium, page, fragment, tmp_path, *args):
    """Load the page in headless Chromium; its stdout (the DOM with --dump-dom)."""
    profile = tmp_path / "chromium-profile"
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--hide-scrollbars", f"--user-data-dir={profile}", "--virtual-time-budget=5000",
         *args, page.as_uri() + fragment],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def shown(dom):
    m = re.search(r'<span id="frame-label" data-frame="(\d+)">([^<]*)</span>', dom)
    first = re.search(r'<div id="log"><ol class="log">(?:<li[^>]*>(.*?)</li>)?', dom, re.DOTALL)
    return int(m.group(1)), html.unescape(m.group(2)), first.group(1)


def text_of(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment or ""))


def test_the_browser_opens_the_frame_named_in_the_url(chromium, replayed, tmp_path):
    data = replayed.data
    for i in (3, len(data) - 1):
        frame, label, first = shown(headless(chromium, replayed.page, f"#frame={i}", tmp_path,
                                             "--dump-dom"))
        assert frame == i
        assert label == f"Frame {i + 1}/{len(data)}: {data[i]['label']} (VP {data[i]['vp']})"
        expected = re.search(r"<li[^>]*>(.*?)</li>", data[i]["log"])
        assert text_of(first) == text_of(expected.group(1) if expected else "")


def test_slider_buttons_and_keys_move_the_frame_in_the_browser(chromium, replayed, tmp_path):
    """The page's #selftest drives its own controls (an input event on the slider, clicks,
    key presses) and writes what it then showed; every step must show the right frame."""
    data = replayed.data
    dom = headless(chromium, replayed.page, "#selftest", tmp_path, "--dump-dom")
    steps = json.loads(html.unescape(re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', dom,
                                               re.DOTALL).group(1)))
    assert [s["action"] for s in steps] == ["start", "slider to 2", "next button",
                                            "right arrow", "previous button", "end key"]
    last = len(data) - 1
    assert [s["frame"] for s in steps] == [0, 2, 3, 4, 3, last]
    for s in steps:
        f = data[s["frame"]]
        assert s["slider"] == s["frame"]
        assert s["label"] == f"Frame {s['frame'] + 1}/{len(data)}: {f['label']} (VP {f['vp']})"
        assert s["overlay"] == len(f["overlay"])
        assert s["log_items"] == f["log"].count("<li")
        expected = re.search(r"<li[^>]*>(.*?)</li>", f["log"])
        assert s["first_log"] == text_of(expected.group(1) if expected else "")
    assert steps[1]["first_log"] != steps[2]["first_log"] or steps[1]["log_items"] != \
        steps[2]["log_items"]


def test_a_screenshot_of_the_page_shows_the_map(chromium, replayed, tmp_path):
    from gwe_fast.render.mapplot import TERRAIN_COLOURS

    terrain = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)]
                        for c in set(TERRAIN_COLOURS.values())])
    maps = []
    for i in (0, len(replayed.data) - 2):
        shot = tmp_path / f"shot{i}.png"
        headless(chromium, replayed.page, f"#frame={i}", tmp_path, "--window-size=1200,900",
                 f"--screenshot={shot}")
        img = np.asarray(Image.open(shot).convert("RGB")).astype(int)
        assert img.shape == (900, 1200, 3)
        region = img[320:880, 0:700]               # below the heading, left of the log
        near = np.abs(region[:, :, None, :] - terrain[None, None]).max(axis=3).min(axis=2)
        assert (near <= 12).mean() > 0.5           # mostly terrain: the map is shown
        assert len(np.unique(region.reshape(-1, 3) // 8, axis=0)) > 50
        maps.append(region)
    assert (maps[0] != maps[1]).any(axis=2).mean() > 0.002    # the units moved


# --- replays by seed, per phase, stopped early --------------------------------------------------

def test_a_replay_stopped_after_turn_1_plays_turn_1_as_the_whole_game_does(scenario):
    per_phase = replay_game(scenario, SEED, 0, every="phase", last_turn=1)
    per_turn = replay_game(scenario, SEED, 0, every="turn", last_turn=2)
    assert per_phase.stopped_after == 1 and per_phase.result is None
    assert [f.label for f in per_phase.frames] == ["Set-up"] + [
        f"Game-Turn 1, {side} Player-Turn: {phase} phase" for side in ("allied", "central")
        for phase in ("movement", "withdrawal", "combat", "replacement")]
    assert [f.label for f in per_turn.frames] == ["Set-up", "Game-Turn 1", "Game-Turn 2"]
    a, b = per_phase.frames[-1].state, per_turn.frames[1].state
    for name in ("unit_cell", "unit_status", "unit_step"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert int(a.vp) == int(b.vp)
    assert [e for f in per_phase.frames for e in f.events] == per_turn.frames[1].events
    ok, sentence = check_against_row(per_phase)
    assert ok and sentence == ""


def test_replay_by_seed_per_phase_on_the_command_line(tmp_path):
    out = tmp_path / "p.html"
    done = gwe("replay", "brusilov/historical", "--seed", str(SEED), "--every", "phase",
               "--last-turn", "1", "--policy", "central=random", "--out", str(out),
               "--dpi", "20")
    assert done.returncode == 0, done.stderr
    assert "9 frames: the set-up, one per phase (8);" in done.stdout
    text = out.read_text()
    assert "stopped after Game-Turn 1 (--last-turn)" in text
    assert text.count('"label":"Game-Turn 1, ') == 8


class Stubborn(Policy):
    """Answers an option that does not exist: the game raises at its first real choice."""

    name = "stubborn"

    def choose(self, decision, game, rng):
        return len(decision.options)


def test_a_game_that_raises_is_shown_up_to_the_error(scenario):
    rp = replay_game(scenario, SEED, 0, policies={1: Stubborn()}, last_turn=2)
    assert rp.error.startswith("IllegalChoice: policy answered")
    assert rp.frames[-1].label.startswith("Error in Game-Turn 1")
    row = {"result": "error", "error": rp.error, "vp": 0}
    rp.spec = GameSpec("brusilov/historical", {}, {}, SEED, 0, "row 0 of x.parquet", row)
    assert check_against_row(rp) == (True, "raised the same error as row 0 of x.parquet")
    page = page_html(rp, render_replay(rp, dpi=20))
    assert "the game raised an error in Game-Turn 1: IllegalChoice" in page


# --- a row that does not replay --------------------------------------------------------------

def fake(scenario, level, vp, row):
    spec = GameSpec("brusilov/historical", {}, {}, 1, 2, "row 2 of r.parquet", row)
    return Replay(scenario, spec, "turn", [], result=SimpleNamespace(level=level, vp=vp))


def test_a_different_ending_names_the_versions(scenario):
    row = {"result": "russian_marginal", "vp": 12, "package_version": "0.0.1",
           "scenario_version": 1, "data_hash": "abc"}
    ok, sentence = check_against_row(fake(scenario, "central_powers_decisive", 2, row))
    assert not ok
    assert sentence == (
        f"the replay ended central_powers_decisive with 2 VP but row 2 of r.parquet says "
        f"russian_marginal with 12 VP; the row was made by gwe_fast 0.0.1, scenario version 1, "
        f"data hash abc, this is gwe_fast {__version__}, scenario version {scenario.version}, "
        f"data hash {scenario.data_hash}")
    same = dict(row, package_version=__version__, data_hash=scenario.data_hash)
    ok, sentence = check_against_row(fake(scenario, "central_powers_decisive", 2, same))
    assert not ok and "is a bug, please report it" in sentence
    ok, _ = check_against_row(fake(scenario, "russian_marginal", 12, row))
    assert ok


def test_the_command_warns_when_the_row_does_not_replay(results, tmp_path):
    path, row = results
    changed = rewrite(path, tmp_path / "changed.parquet", vp=[row["vp"] + 1],
                      package_version=["0.0.1"])
    done = gwe("replay", "--from", str(changed), "--dpi", "20",
               "--out", str(tmp_path / "w.html"))
    assert done.returncode == 0, done.stderr
    warning = [ln for ln in done.stderr.splitlines() if ln.startswith("gwe: warning:")]
    assert len(warning) == 1
    assert f"says {row['result']} with {row['vp'] + 1} VP" in warning[0]
    assert "the row was made by gwe_fast 0.0.1" in warning[0]
    assert "gwe: warning" not in (tmp_path / "w.html").read_text()
    assert 'class="warn"' in (tmp_path / "w.html").read_text()


# --- bad input ---------------------------------------------------------------------------------

@pytest.fixture
def files(results, tmp_path):
    path, _ = results
    other = tmp_path / "other.parquet"
    pq.write_table(pq.read_table(path).select(["scenario", "vp"]), other)
    bad_policy = rewrite(path, tmp_path / "bad_policy.parquet",
                         policies=[json.dumps({"allied": "random", "central": "nosuch"})])
    text = tmp_path / "notes.parquet"
    text.write_text("not parquet")
    return {"results": str(path), "other": str(other), "text": str(text),
            "bad_policy": str(bad_policy)}


@pytest.mark.parametrize("args, message", [
    (["--from", "{results}", "--row", "5"],
     "--row 5 is out of range: {results} holds 1 row (0 to 0)"),
    (["--from", "{results}", "--game-index", "7"], "{results} holds no game with game index 7"),
    (["--from", "{results}", "--row", "0", "--game-index", "0"], "give --row or --game-index"),
    (["--from", "{other}"], ("{other} is not a gwe_fast results file (written by gwe run): it "
                             "lacks the columns options, policies, master_seed")),
    (["--from", "{text}"], "{text} is not a Parquet file"),
    (["--from", "nowhere.parquet"], "results file nowhere.parquet not found"),
    (["--from", "{bad_policy}"], ("policy 'nosuch' for the central side in row 0 of "
                                  "{bad_policy}: unknown policy 'nosuch'")),
    (["--from", "{results}", "brusilov/historical"], "give either --from"),
    (["no/such"], "scenario no/such does not load"),
    (["brusilov/historical", "--policy", "central=nosuch"], "unknown policy 'nosuch'"),
    (["brusilov/historical", "--policy", "axis=random"], "unknown side 'axis'"),
    (["brusilov/historical", "--policy", "random"], "must look like SIDE=SPEC"),
    (["brusilov/historical", "--last-turn", "15"], "--last-turn 15 is not a Game-Turn"),
    (["brusilov/historical", "--row", "1"], "--row needs --from"),
    ([], "give a scenario to replay, or a results file with --from"),
])
def test_bad_input_gives_one_sentence_and_exit_2(files, tmp_path, args, message):
    args = [a.format(**files) for a in args]
    result = runner.invoke(app, ["replay", *args, "--out", str(tmp_path / "x.html")])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)         # no traceback
    lines = result.stderr.strip().splitlines()
    assert message.format(**files) in lines[-1]
    assert lines[-1].startswith("gwe: ")
    assert not (tmp_path / "x.html").exists()


def test_an_unwritable_page_is_one_sentence_and_exit_1(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    result = runner.invoke(app, ["replay", "brusilov/historical", "--out",
                                 str(blocker / "page.html")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.stderr.strip() == (f"gwe: cannot write {blocker}: File exists; nothing was "
                                     f"replayed")


def test_help_has_an_example():
    result = runner.invoke(app, ["replay", "--help"])
    assert result.exit_code == 0 and "Example:" in result.output


def test_docstring_examples_run():
    assert doctest.testmod(rp_mod, optionflags=doctest.ELLIPSIS).failed == 0


def test_kaisers_battle_replays_when_its_engine_exists(tmp_path):
    try:
        from gwe_fast.games import driver
        driver("kb")
    except ImportError:
        pytest.skip("The Kaiser's Battle has no rules engine yet (gwe_fast.games.kb.driver)")
    sc = gwe_fast.load_scenario("kaisers_battle/historical")
    rp = replay_game(sc, 1, 0, every="phase", last_turn=1)
    assert rp.error == "" and rp.stopped_after == 1
    assert len(rp.frames) > 2 and all(f.label.startswith("Game-Turn 1: ")
                                      for f in rp.frames[1:])
    assert sum(len(f.events) for f in rp.frames) > 0
    page = page_html(rp, render_replay(rp, dpi=20, frames_dir=tmp_path))
    assert page.count('"label":"Game-Turn 1: ') == len(rp.frames) - 1
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert names[0] == "000-setup.png" and names[1].startswith("001-turn01-")


# --- the frames the header counts, the points of the last one (item 16) -----------------------

def test_item_16_replay_frames_match_turns(replayed, scenario):
    data = replayed.data
    turns = scenario.last_turn - scenario.first_turn + 1
    header = replayed.text.split('<div id="controls">')[0]
    said = html.unescape(re.search(r"<th>Frames</th><td>([^<]*)</td>", header).group(1))
    end = data[-1]["label"] == "End of the game"
    assert len(data) == 1 + turns + end
    want = (f"{len(data)}: the set-up, one per Game-Turn ({turns})"
            + (" and the end of the game" if end else ""))
    assert said == want
    assert f"{len(data)} frames: the set-up, one per Game-Turn ({turns})" in replayed.done.stdout


def test_item_16_the_last_frame_explains_the_end_of_game_points(replayed):
    last = replayed.data[-1]
    assert last["label"] == "End of the game" and last["vp"] != last["vp_before"]
    scores = re.findall(r'<li class="ev score">(.*?)</li>', last["log"])
    assert scores, last["log"]
    points = [int(m) for s in scores for m in re.findall(r"<b>([+-]\d+) VP</b>", s)]
    assert len(points) == len(scores) and sum(points) == last["vp"] - last["vp_before"]
    assert any("25.11" in s and "towns" in s.lower() for s in scores)
    assert all(re.search(r'<span class="h">\d{4}</span>', s) for s in scores if "towns" in s)


def test_item_16_kaisers_battle_end_of_game_points_are_events():
    sc = gwe_fast.load_scenario("kaisers_battle/historical")
    rp = replay_game(sc, seed=1, game_index=0)
    last = rp.frames[-1]
    assert last.label == "End of the game"
    scores = [e for e in last.events if e[0] == "score"]
    assert sum(e[2]["vp"] for e in scores) == last.vp - rp.frames[-2].vp
    assert {e[2]["cause"] for e in scores} <= {"towns", "allied_in_trenches"}

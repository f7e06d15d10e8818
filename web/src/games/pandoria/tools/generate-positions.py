#!/usr/bin/env python3
"""Writes ../testdata/positions.json: real positions for the table's tests, beyond the shared
web/fixtures. It plays random games with `tabletop engine` (fixed seeds, every mode and
player count) and keeps the first position of each kind: phase, spell step and the set of
legal action types, plus Market payments and dwarves holding two tiles. Each entry has the
view of the seat to move, its legal actions and the events that led there. To keep the file
small, each view's cells are stored as rows [terrain, symbols, castle, figure, closed] in cell
order (testdata/positions.ts expands them back to the exact CellView JSON), and the legal
actions without their English descriptions. Regenerated, never edited: python3 web/src/games/pandoria/tools/generate-positions.py [path/to/tabletop]"""
import json
import pathlib
import random
import subprocess
import sys

here = pathlib.Path(__file__).resolve().parent
root = here.parents[4]
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / "target/release/tabletop")
engine = subprocess.Popen([binary, "engine", "--no-data-files"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)


def ask(request):
    engine.stdin.write(json.dumps(request) + "\n")
    engine.stdin.flush()
    reply = json.loads(engine.stdout.readline())
    if "error" in reply:
        raise SystemExit(f"{request}: {reply}")
    return reply


CONFIGS = [
    {"players": 4, "mode": "full"},
    {"players": 3, "mode": "beginner"},
    {"players": 2, "mode": "full"},
    {"players": 4, "mode": "full", "teams": True},
]

positions = {}
for game in range(60):
    config = CONFIGS[game % len(CONFIGS)]
    rng = random.Random(game)
    game_id = ask({"cmd": "new", "game": "pandoria", "config": config, "seed": 1000 + game})["id"]
    events = []
    while True:
        legal = ask({"cmd": "legal", "id": game_id})
        seat = legal["to_move"]
        if seat is None:
            break
        view = ask({"cmd": "view", "id": game_id, "seat": seat})["view"]
        types = sorted({a["type"] for a in legal["actions"]})
        kind = f"{view['phase']}/{view['pending']['step']}/{'+'.join(types)}"
        if any(a.get("pay") for a in legal["actions"]):
            kind += "/market-pay"
        if len(view["players"][seat]["tiles"] or []) > 1 and view["phase"] == "place":
            kind += "/two-tiles"
        if view["pending"]["step"] == "terrain_place":
            kind += "/single" if view["pending"]["single"] else "/double"
        if kind not in positions:
            positions[kind] = {
                "kind": kind,
                "config": config,
                "seat": seat,
                "view": view,
                "legal": legal["actions"],
                "last_events": events,
            }
        action = rng.choice(legal["actions"])
        events = ask({"cmd": "apply", "id": game_id, "action": action})["events"]
    ask({"cmd": "drop", "id": game_id})
ask({"cmd": "quit"})

out = here.parent / "testdata"
out.mkdir(exist_ok=True)
ordered = [positions[k] for k in sorted(positions)]
for p in ordered:
    cells = p["view"]["cells"]
    assert all(c["cell"] == i for i, c in enumerate(cells))
    p["view"]["cells"] = [[c["terrain"], c["symbols"], c["castle"], c["figure"], c["closed"]] for c in cells]
(out / "positions.json").write_text(
    "[\n" + ",\n".join(json.dumps(p, ensure_ascii=False, separators=(",", ":")) for p in ordered) + "\n]\n")
for p in ordered:
    print(p["kind"])

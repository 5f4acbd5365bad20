#!/usr/bin/env python3
"""Expected answers for the research options of `pgnmill report` (issue 15):
`--where` selections, `--tags` values, and the missed-threefold breakdowns of
report.html and the README's DuckDB query, for testdata/corpus.

Independent of pgnmill: the games, their places (`offset`) and their
missed threefolds come from testdata/expected/games.csv, the python-chess
oracle (report_expected.py); the tags of each game are read here from the
file's bytes at that offset with a plain regular expression over the tag
lines; the selections and classes are computed in Python from the rules in
docs/reports.md ("Choosing games", "report.html"):

- time-control class (lichess): TimeControl `BASE[+INC]` in seconds,
  estimate = BASE + 40 * INC; < 29 ultrabullet, < 180 bullet, < 480 blitz,
  < 1500 rapid, else classical; anything else (`-`, `1/259200`) no class;
- rating band: mean of WhiteElo and BlackElo (both whole numbers) in bands
  of 200: `1400-1599`;
- year: the first four characters of the Date tag, when they are digits;
  else those of the UTCDate tag.

The breakdowns count chess and Chess960 games only (the others have no en
passant to miss a threefold by); a game without a class counts under the
key "unknown" (the class-and-band table has no such key).

The corpus's games with a time control and ratings (lichess, chess.com)
have no missed threefold, so the script also writes a lichess-style file,
testdata/research/lichess-style.pgn: the games of a few corpus files that
have threefolds (each with a threefold and the first 40 others, and the
first 60 of the lichess sample), their movetext
copied byte for byte, their TimeControl, WhiteElo, BlackElo and UTCDate tags
replaced by values assigned in turn from fixed lists. Its expected rows are
those of the games it was made from.

Writes testdata/expected/research.json. Usage (from the repository root):
    python3 testdata/gen/research_expected.py
"""

import csv
import json
import re

TAG = re.compile(rb'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')

CONDITIONS = {
    # name: list of (tag, op, value)
    "elo_2000_blitz": [("WhiteElo", ">=", 2000), ("TimeControl", "~", r"^(180|300)\+")],
    "eco_b": [("ECO", "~", r"^B")],
    "not_rated_blitz": [("Event", "!=", "Rated Blitz game"), ("WhiteElo", "<", 1800)],
    "site_lichess": [("Site", "=", "https://lichess.org/ENPo6ReH")],
}
TAG_COLUMNS = ["WhiteElo", "TimeControl", "UTCDate"]


def tags_at(data, offset):
    """The tags of the game starting at `offset`: the first of each name
    (names compared without case), escapes \\" and \\\\ resolved."""
    out = {}
    pos = offset
    if data[pos:pos + 3] == b"\xef\xbb\xbf":
        pos += 3
    while pos < len(data):
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        line = data[pos:end].rstrip(b"\r")
        m = TAG.match(line)
        if not m:
            if line.strip() == b"" and not out:
                pos = end + 1
                continue
            break
        name = m.group(1).decode().lower()
        raw = m.group(2).replace(b'\\"', b'"').replace(b"\\\\", b"\\")
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError:
            value = raw.decode("cp1252", errors="replace")
        out.setdefault(name, value)
        pos = end + 1
    return out


def number(v):
    if v is None or not re.fullmatch(r"[+-]?[0-9.]+", v.strip()):
        return None
    try:
        return float(v)
    except ValueError:
        return None


def holds(tags, cond):
    tag, op, want = cond
    v = tags.get(tag.lower())
    s = v if v is not None else ""
    if op == "=":
        return s == want
    if op == "!=":
        return s != want
    if op == "~":
        return re.search(want, s) is not None
    n = number(v)
    if n is None:
        return False
    return {">=": n >= want, "<=": n <= want, ">": n > want, "<": n < want}[op]


def tc_class(tc):
    m = re.fullmatch(r"(\d+)(?:\+(\d+))?", (tc or "").strip())
    if not m:
        return None
    est = int(m.group(1)) + 40 * int(m.group(2) or 0)
    if est < 29:
        return "ultrabullet"
    if est < 180:
        return "bullet"
    if est < 480:
        return "blitz"
    if est < 1500:
        return "rapid"
    return "classical"


def band(w, b):
    if w is None or b is None or not re.fullmatch(r"\d+", w.strip()) or not re.fullmatch(r"\d+", b.strip()):
        return None
    mean = (int(w) + int(b)) / 2
    lo = int(mean // 200) * 200
    return f"{lo}-{lo + 199}"


def year(date):
    d = (date or "")[:4]
    return d if re.fullmatch(r"\d{4}", d) else None


STYLE_SOURCES = [
    "testdata/corpus/twic1599-sample.pgn",
    "testdata/corpus/pychess-world-matches.pgn",
    "testdata/corpus/synthetic-en-passant.pgn",
    "testdata/corpus/synthetic-repetitions.pgn",
    "testdata/corpus/pgn-extract-test-repetition.pgn",
]
STYLE_TC = ["15+0", "60+0", "180+2", "300+0", "600+5", "1800+20"]
STYLE_ELO = [(1450, 1530), (1990, 2050), (2210, 2290), (1100, 1320), (2650, 2700)]
REPLACED = {b"timecontrol", b"whiteelo", b"blackelo", b"utcdate"}


def lichess_style(rows):
    """The lichess-style file's bytes and, per game, (oracle row, tags)."""
    out = bytearray()
    made = []
    by_source = {}
    for r in rows:
        by_source.setdefault(r["source"], []).append(r)
    picks = []
    for src in STYLE_SOURCES:
        ok = [(i, r) for i, r in enumerate(by_source[src]) if r["status"] == "ok"]
        # Every game with a threefold, and the first 40 others.
        others = [i for i, r in ok if not r["threefold_ply_ep_legal"]][:40]
        picks += [(src, r, i) for i, r in ok if r["threefold_ply_ep_legal"] or i in others]
    lich = "testdata/corpus/lichess-2025-05-blitz-sample.pgn"
    picks += [(lich, r, i) for i, r in enumerate(by_source[lich][:60])]
    for n, (src, r, i) in enumerate(picks):
        data = open(src, "rb").read()
        start = int(r["offset"])
        if data[start:start + 3] == b"\xef\xbb\xbf":
            start += 3
        games = by_source[src]
        end = int(games[i + 1]["offset"]) if i + 1 < len(games) else len(data)
        text = data[start:end].replace(b"\r\n", b"\n")
        lines = text.split(b"\n")
        k = 0
        kept = []
        while k < len(lines) and (TAG.match(lines[k]) or (not kept and lines[k].strip() == b"")):
            m = TAG.match(lines[k])
            if m and m.group(1).lower() not in REPLACED:
                kept.append(lines[k].strip())
            k += 1
        w, b = STYLE_ELO[n % len(STYLE_ELO)]
        new = [
            f'[UTCDate "{2015 + n % 4}.01.01"]'.encode(),
            f'[WhiteElo "{w}"]'.encode(),
            f'[BlackElo "{b}"]'.encode(),
            f'[TimeControl "{STYLE_TC[n % len(STYLE_TC)]}"]'.encode(),
        ]
        body = b"\n".join(lines[k:]).strip()
        out += b"\n".join(kept + new) + b"\n\n" + body + b"\n\n"
        tags = {}
        for line in kept + new:
            m = TAG.match(line)
            tags.setdefault(m.group(1).decode().lower(), m.group(2).decode("utf-8", "replace"))
        made.append((r, tags))
    return bytes(out), made


def breakdowns(games):
    chess = [(r, t) for r, t in games if r["variant"] in ("chess", "chess960")]

    def breakdown(key, unknown=True):
        out = {}
        for r, t in chess:
            k = key(t)
            if k is None:
                if not unknown:
                    continue
                k = "unknown"
            e = out.setdefault(k, {"games": 0, "missed": 0})
            e["games"] += 1
            e["missed"] += r["missed_threefold"] == "true"
        # Classes in order, "unknown" last.
        return dict(sorted(out.items(), key=lambda kv: (kv[0] == "unknown", kv[0])))

    return {
        "games": len(games),
        "chess_games": len(chess),
        "missed": sum(r["missed_threefold"] == "true" for r, _ in games),
        "by_time_control": breakdown(lambda t: tc_class(t.get("timecontrol"))),
        "by_rating_band": breakdown(lambda t: band(t.get("whiteelo"), t.get("blackelo"))),
        "by_year": breakdown(lambda t: year(t.get("date")) or year(t.get("utcdate"))),
        "by_time_control_and_band": breakdown(
            lambda t: None
            if tc_class(t.get("timecontrol")) is None or band(t.get("whiteelo"), t.get("blackelo")) is None
            else f"{tc_class(t.get('timecontrol'))}|{band(t.get('whiteelo'), t.get('blackelo'))}",
            unknown=False,
        ),
    }


def main():
    rows = list(csv.DictReader(open("testdata/expected/games.csv", newline="", encoding="utf-8")))
    files = {}
    games = []
    for r in rows:
        src = r["source"]
        if src not in files:
            files[src] = open(src, "rb").read()
        t = tags_at(files[src], int(r["offset"]))
        games.append((r, t))

    selections = {}
    for name, conds in CONDITIONS.items():
        chosen = [(r, t) for r, t in games if all(holds(t, c) for c in conds)]
        selections[name] = {
            "where": [f"{tag}{op}{v}" for tag, op, v in conds],
            "games": [[r["source"], int(r["game"])] for r, _ in chosen],
            "tags": {c: [t.get(c.lower(), "") for _, t in chosen] for c in TAG_COLUMNS},
        }

    style, style_games = lichess_style(rows)
    with open("testdata/research/lichess-style.pgn", "wb") as f:
        f.write(style)
    # lichess's Termination tag ("Normal", "Time forfeit"), per game of the
    # lichess sample in order: the `tag_Termination` column of `--tags
    # lichess` (its name is that of the computed `termination` column).
    lich = "testdata/corpus/lichess-2025-05-blitz-sample.pgn"
    termination_tags = [t.get("termination", "") for r, t in games if r["source"] == lich]
    expected = {
        "games": len(games),
        "selections": selections,
        "lichess_termination_tags": termination_tags,
        "corpus": breakdowns(games),
        "lichess_style": breakdowns(style_games),
    }
    with open("testdata/expected/research.json", "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the README's loads of games.csv (pandas, polars, DuckDB) and reads
games.parquet with pyarrow, polars and DuckDB, on the report folders given,
checking types and row counts; on the lichess-style report it also runs the
README's DuckDB query and compares its numbers with
testdata/expected/research.json (computed in Python from the python-chess
oracle).

Run by tests/report/readers.rs:
    python readers.py README.md EXPECTED_JSON CHESS_DIR XIANGQI_DIR LICHESS_STYLE_DIR [LONG_EVENTS_DIR]

LONG_EVENTS_DIR is the report of a file whose `event` column fills several
Parquet pages of one row group: its values are compared with games.csv
(read by Python's csv module), in full and through filters on the column.
"""

import csv
import json
import re
import sys
import tempfile

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

INT64 = ["game", "offset", "line"]
INT32 = ["plies", "rep_max_ep_always", "threefold_ply_ep_always", "rep_max_ep_legal", "threefold_ply_ep_legal", "natural_limit_ply"]


def readme_blocks(readme, lang, after):
    """The fenced `lang` blocks of the README section titled `after`."""
    text = open(readme, encoding="utf-8").read()
    start = text.index(after)
    end = text.find("\n## ", start)
    section = text[start:end]
    return re.findall(r"```" + lang + r"\n(.*?)```", section, re.S)


def check_csv_loads(readme, folder, games):
    code = readme_blocks(readme, "python", "### Loading games.csv with its types")[0]
    code = code.replace("pgnmill-report/", folder + "/")
    # Each reader's paragraph assigns `games`; run them one at a time.
    parts = code.split("\n\n")
    prelude, loads = parts[0], parts[1:]
    assert len(loads) == 3, loads
    results = {}
    for load, name in zip(loads, ["pandas", "polars", "duckdb"]):
        env = {}
        exec(prelude + "\n" + load, env)
        results[name] = env["games"]
    pd_games = results["pandas"]
    assert len(pd_games) == games, (folder, len(pd_games), games)
    for c in INT64:
        assert str(pd_games[c].dtype) == "int64", (c, pd_games[c].dtype)
    for c in INT32:
        assert str(pd_games[c].dtype) == "Int32", (c, pd_games[c].dtype)
    assert str(pd_games["missed_threefold"].dtype) == "bool"
    assert pd_games["round"].dtype.name.startswith("str"), pd_games["round"].dtype
    pl_games = results["polars"]
    assert pl_games.height == games
    assert pl_games.schema["game"] == pl.Int64 and pl_games.schema["plies"] == pl.Int32
    assert pl_games.schema["round"] == pl.String
    assert pl_games.schema["missed_threefold"] == pl.Boolean
    db = results["duckdb"]
    assert db.count("*").fetchall()[0][0] == games
    types = dict(zip(db.columns, [str(t) for t in db.types]))
    assert types["game"] == "BIGINT" and types["plies"] == "INTEGER", types
    assert types["missed_threefold"] == "BOOLEAN" and types["round"] == "VARCHAR", types
    assert types["natural_limit_ply"] == "INTEGER", types
    # The same answers from all three: missed threefolds and null plies.
    missed = int(pd_games["missed_threefold"].sum())
    assert pl_games["missed_threefold"].sum() == missed
    assert db.filter("missed_threefold").count("*").fetchall()[0][0] == missed
    nulls = int(pd_games["threefold_ply_ep_legal"].isna().sum())
    assert pl_games["threefold_ply_ep_legal"].null_count() == nulls
    return missed


def check_parquet(folder, games, missed):
    path = folder + "/games.parquet"
    table = pq.read_table(path)
    assert table.num_rows == games
    schema = {f.name: (str(f.type), f.nullable) for f in table.schema}
    for c in INT64:
        assert schema[c] == ("int64", False), (c, schema[c])
    for c in INT32:
        assert schema[c] == ("int32", True), (c, schema[c])
    assert schema["missed_threefold"] == ("bool", False)
    assert schema["round"] == ("string", False)
    df = pl.read_parquet(path)
    assert df.height == games and df.schema["plies"] == pl.Int32
    assert df["missed_threefold"].sum() == missed
    n, m = duckdb.sql(f"SELECT count(*), count(*) FILTER (WHERE missed_threefold) FROM '{path}'").fetchall()[0]
    assert (n, m) == (games, missed), (n, m)
    castling = pq.read_table(folder + "/castling.parquet")
    summary = json.load(open(folder + "/summary.json"))
    assert castling.num_rows == summary["castling_conflicts"]


def check_query(readme, folder, expected):
    sql = readme_blocks(readme, "sql", "### Missed threefolds per time-control class and rating band")[0]
    rows = duckdb.sql(sql.replace("pgnmill-report/", folder + "/")).fetchall()
    got = {f"{c}|{b}": {"games": g, "missed": m} for c, b, g, m, _ in rows}
    want = expected["lichess_style"]["by_time_control_and_band"]
    assert got == want, (got, want)
    assert sum(r[3] for r in rows) == expected["lichess_style"]["missed"]
    # Tag values with spaces or a tab around them (`"1500 "`, `" 300+3"`)
    # are classed as report.html classes them, trimmed: the same numbers.
    table = pq.read_table(folder + "/games.parquet")
    for name in ["TimeControl", "WhiteElo", "BlackElo"]:
        i = table.schema.get_field_index(name)
        padded = [v if n % 3 else f" {v}\t" for n, v in enumerate(table.column(i).to_pylist())]
        table = table.set_column(i, name, pa.array(padded, table.schema.field(i).type))
    with tempfile.TemporaryDirectory() as tmp:
        pq.write_table(table, tmp + "/games.parquet")
        rows = duckdb.sql(sql.replace("pgnmill-report/", tmp + "/")).fetchall()
    padded = {f"{c}|{b}": {"games": g, "missed": m} for c, b, g, m, _ in rows}
    assert padded == want, (padded, want)
    return len(rows)


def check_long_text(folder):
    with open(folder + "/games.csv", encoding="utf-8", newline="") as f:
        events = [row["event"] for row in csv.DictReader(f)]
    path = folder + "/games.parquet"
    group = pq.ParquetFile(path).metadata.row_group(0)
    assert group.num_rows == len(events), (group.num_rows, len(events))
    assert pq.read_table(path).column("event").to_pylist() == events
    assert pl.read_parquet(path)["event"].to_list() == events
    named = sum(1 for e in events if e.startswith("Réti"))
    assert 0 < named < len(events)
    lazy = pl.scan_parquet(path).filter(pl.col("event").str.starts_with("Réti")).select(pl.len())
    assert lazy.collect().item() == named
    n, chars = duckdb.sql(f"SELECT count(*), sum(length(event)) FROM '{path}' WHERE event LIKE 'Réti%'").fetchall()[0]
    assert (n, chars) == (named, sum(len(e) for e in events)), (n, chars)
    last = duckdb.sql(f"SELECT event FROM '{path}' WHERE site = 's{len(events) - 1}'").fetchall()
    assert last == [(events[-1],)]
    print(f"{folder}: {len(events)} long events equal games.csv in pyarrow, polars and DuckDB")


def main():
    readme, expected_path, chess_dir, xiangqi_dir, style_dir = sys.argv[1:6]
    expected = json.load(open(expected_path))
    for folder in [chess_dir, xiangqi_dir, style_dir]:
        games = json.load(open(folder + "/summary.json"))["games"]
        missed = check_csv_loads(readme, folder, games)
        check_parquet(folder, games, missed)
        print(f"{folder}: {games} games, {missed} missed threefolds: loads and types ok")
    n = check_query(readme, style_dir, expected)
    print(f"README DuckDB query: {n} class and band rows equal research.json")
    if len(sys.argv) > 6:
        check_long_text(sys.argv[6])


if __name__ == "__main__":
    main()

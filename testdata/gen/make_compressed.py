#!/usr/bin/env python3
"""Compressed inputs in the shapes found in the wild: testdata/compressed/.

Every file holds the same text T, the first GAMES games of
testdata/corpus/lichess-2025-05-blitz-sample.pgn (a lichess database dump
sample; python-chess's values for every game are in testdata/expected/), cut
into pieces at byte offsets that fall inside games, so that a game spans two
frames, members or streams. The files are made by the reference tools where
they can make the shape (gzip, bzip2, xz, zstd, python's zipfile, and 7-Zip's
`7zz` for the 7z archives), and
the zstd frame layout of pzstd (a skippable frame before every data frame,
holding that frame's size) is written here frame by frame with the
`zstandard` package. Each file is then decoded by the reference tools
(`zstd -dc`, `pzstd -dc`, `gzip -dc`, `bzip2 -dc`, `xz -dc`, zipfile,
`7zz x`) and
checked to give T back, or, for the damaged ones, checked to be refused by
them. expected.json says, per file, what a reader must make of it: the text
range of T it holds, the stretches of T whose compressed data fails its
check, and whether it is refused or decodes to no text.

Needs: python3 with `zstandard`; gzip, bzip2 (and its bzip2recover), xz,
zstd, pzstd and 7zz (7-Zip
22 or later; Debian's package `7zip`) on PATH.
Usage (from the repository root): python3 testdata/gen/make_compressed.py
"""

import json
import os
import random
import struct
import subprocess
import tempfile
import zipfile
import zlib

import zstandard

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = "testdata/corpus/lichess-2025-05-blitz-sample.pgn"
OUT = os.path.join(ROOT, "testdata", "compressed")
GAMES = 120
# Where T is cut into three pieces: inside games, never at a boundary.
CUTS = [70001, 150013]


def text():
    """T, and where its games start."""
    data = open(os.path.join(ROOT, SOURCE), "rb").read()
    starts = [i for i in range(len(data)) if data.startswith(b"[Event ", i) and (i == 0 or data[i - 1] == 10)]
    t = data[: starts[GAMES]]
    for c in CUTS:
        assert not t.startswith(b"[Event ", c), "a cut must fall inside a game"
    return t, starts[:GAMES]


def pieces(t):
    bounds = [0] + CUTS + [len(t)]
    return [t[a:b] for a, b in zip(bounds, bounds[1:])]


def run(args, data):
    return subprocess.run(args, input=data, capture_output=True, check=False)


def tool(args, data):
    r = run(args, data)
    assert r.returncode == 0, (args, r.stderr)
    return r.stdout


def refuses(args, data, words):
    """Checks that the reference tool `args` fails on `data`, saying `words`."""
    r = run(args, data)
    assert r.returncode != 0 and words in r.stderr, (args, r.stderr)


def skippable(magic_low, payload):
    return struct.pack("<II", 0x184D2A50 | magic_low, len(payload)) + payload


def zstd_frame(piece, content_size=True):
    c = zstandard.ZstdCompressor(level=3, write_checksum=True, write_content_size=content_size)
    if content_size:
        return c.compress(piece)
    # A streamed frame: the header has no content size, as `zstd` writes
    # from a pipe.
    obj = c.compressobj()
    return obj.compress(piece) + obj.flush()


def seven_zip(path, members, args):
    """Writes the 7z archive `path` of `members` ([(name, bytes)], in that
    order) with 7-Zip (`7zz a`, options `args`), without timestamps and
    with fixed file modes, so that it is the same at every run."""
    with tempfile.TemporaryDirectory() as d:
        for name, data in members:
            open(os.path.join(d, name), "wb").write(data)
            os.chmod(os.path.join(d, name), 0o644)
        if os.path.exists(path):
            os.remove(path)
        names = [name for name, _ in members]
        r = subprocess.run(
            ["7zz", "a", "-bso0", "-bsp0", "-mtm=off", "-mtc=off", "-mta=off", *args, path, *names],
            cwd=d,
            capture_output=True,
        )
        assert r.returncode == 0, r.stderr
    return open(path, "rb").read()


def seven_zip_member(path, name):
    """What 7-Zip extracts of member `name` of `path`: (exit code, bytes, messages)."""
    r = run(["7zz", "x", "-so", "-bso0", "-bsp0", "-p", path, name], b"")
    return r.returncode, r.stdout, r.stderr


def seven_zip_errors(path):
    """What 7-Zip's test of `path` (`7zz t`) says of each member that
    fails: {member: "CRC Failed" or "Data Error"}."""
    out = run(["7zz", "t", "-p", path], b"")
    said = {}
    for line in (out.stdout + out.stderr).decode().splitlines():
        if line.startswith("ERROR: ") and " : " in line:
            what, member = line[len("ERROR: ") :].rsplit(" : ", 1)
            said[member] = what
    return said


def flip_seven_zip_crc(data, text):
    """`data` (a 7z archive whose index is not compressed, `-mhc=off`) with
    the CRC-32 its index gives for the member `text` flipped, and the
    index's own CRC-32s (in the start header) made right again, so that
    only that member fails its check."""
    data = bytearray(data)
    offset, size = struct.unpack_from("<QQ", data, 12)
    start = 32 + offset
    index = data[start : start + size]
    crc = struct.pack("<I", zlib.crc32(text))
    assert index.count(crc) == 1
    at = start + index.find(crc)
    data[at] ^= 0xFF
    struct.pack_into("<I", data, 28, zlib.crc32(data[start : start + size]))
    struct.pack_into("<I", data, 8, zlib.crc32(data[12:32]))
    return bytes(data)


def bzip2_block_starts(data):
    """The byte offsets of the bits where the blocks of the bzip2 stream
    `data` start: its 48-bit block magic (0x314159265359), which is not
    aligned to bytes, searched at each of the eight bit offsets."""
    bits = "".join(f"{b:08b}" for b in data)
    magic = f"{0x314159265359:048b}"
    starts = []
    at = bits.find(magic)
    while at != -1:
        starts.append(at // 8)
        at = bits.find(magic, at + 1)
    return starts


def bzip2_blocks(d, data):
    """Each block of the bzip2 stream `data` as `bzip2recover` cuts it out
    (in the folder `d`) into a stream of its own, decoded by `bzip2 -dc`:
    [(decoded whole, text)]."""
    path = os.path.join(d, "in.bz2")
    open(path, "wb").write(data)
    for name in os.listdir(d):
        if name.startswith("rec"):
            os.remove(os.path.join(d, name))
    subprocess.run(["bzip2recover", path], cwd=d, capture_output=True, check=True)
    blocks = []
    for name in sorted(n for n in os.listdir(d) if n.startswith("rec")):
        r = run(["bzip2", "-dc"], open(os.path.join(d, name), "rb").read())
        blocks.append((r.returncode == 0, r.stdout))
    return blocks


def xz_blocks(data):
    """The blocks of the xz file `data` as `xz --list` reads them from its
    index: [[compressed start, end, text start, end], ...] (a block's
    compressed bytes run from its header to its check)."""
    with tempfile.NamedTemporaryFile(suffix=".xz") as f:
        f.write(data)
        f.flush()
        listing = subprocess.run(["xz", "--robot", "--list", "-vv", f.name], capture_output=True, check=True)
    blocks = []
    for line in listing.stdout.decode().splitlines():
        c = line.split("\t")
        if c[0] == "block":
            start, text = int(c[4]), int(c[5])
            blocks.append([start, start + int(c[6]), text, text + int(c[7])])
    return blocks


def damage_xz(good, t):
    """`good` with a byte flipped in the middle of its last block, the
    first from there on whose flip leaves `xz -dc` a prefix of T (LZMA
    can decode a few wrong bytes before it finds the damage): the damaged
    file, `xz -dc`'s text before it fails, and the number of the block it
    fails in."""
    blocks = xz_blocks(good)
    first, end = blocks[-1][0], blocks[-1][1]
    for at in range((first + end) // 2, end):
        data = bytearray(good)
        data[at] ^= 0x55
        data = bytes(data)
        r = run(["xz", "-dc"], data)
        if t.startswith(r.stdout):
            break
    assert r.returncode != 0 and t.startswith(r.stdout), r.stderr
    assert blocks[-1][2] < len(r.stdout) < blocks[-1][3]
    return data, r.stdout, len(blocks)


def main():
    t, starts = text()
    p = pieces(t)
    os.makedirs(OUT, exist_ok=True)
    files = {}

    def write(name, data, expect):
        open(os.path.join(OUT, name), "wb").write(data)
        files[name] = expect

    whole = {"text": [0, len(t)], "damaged": [], "refused": False, "no_text": False}
    # All of T, the second piece's compressed data failing its check.
    second_piece_damaged = dict(whole, damaged=[[CUTS[0], CUTS[1]]])

    # pzstd's layout: [skippable frame: size of next frame][frame] ...
    data = b""
    for piece in p:
        frame = zstd_frame(piece)
        data += skippable(0, struct.pack("<I", len(frame))) + frame
    assert tool(["zstd", "-dc"], data) == t and tool(["pzstd", "-dc"], data) == t
    write("pzstd-frames.pgn.zst", data, whole)

    # The same layout, the second frame's checksum (its last 4 bytes)
    # flipped: zstd refuses the file; the frame's text is unreliable, and
    # the frames are independent, so the third one is read as usual.
    data = b""
    for i, piece in enumerate(p):
        frame = bytearray(zstd_frame(piece))
        if i == 1:
            frame[-1] ^= 0x55
        data += skippable(0, struct.pack("<I", len(frame))) + bytes(frame)
    refuses(["zstd", "-dc"], data, b"checksum")
    write(
        "crc-frame.pgn.zst",
        data,
        second_piece_damaged,
    )

    # One frame, as `zstd` writes a file, its checksum flipped: the
    # reference tool gives all of T and then fails; all of T is unreliable.
    data = bytearray(tool(["zstd", "-c", "-q", "-3"], t))
    data[-1] ^= 0x55
    refuses(["zstd", "-dc"], bytes(data), b"checksum")
    write("crc-single.pgn.zst", bytes(data), dict(whole, damaged=[[0, len(t)]]))

    # Skippable frames first, between frames and last, of several magic
    # numbers and payload sizes; frames with and without a content size.
    data = skippable(0xF, b"")
    data += zstd_frame(p[0], content_size=False)
    data += skippable(0x3, bytes(range(17)))
    data += zstd_frame(p[1])
    data += skippable(0x9, b"")
    data += skippable(0x1, b"\x00" * 3)
    data += zstd_frame(p[2], content_size=False)
    data += skippable(0xA, b"x" * 100)
    assert tool(["zstd", "-dc"], data) == t
    write("skippable-anywhere.pgn.zst", data, whole)

    # Only skippable frames, and one empty frame: no text at all.
    data = skippable(0, b"abcd") + skippable(5, b"")
    assert tool(["zstd", "-dc"], data) == b""
    write("only-skippable.pgn.zst", data, {"text": [0, 0], "damaged": [], "refused": False, "no_text": True})
    data = tool(["zstd", "-c", "-q"], b"")
    assert tool(["zstd", "-dc"], data) == b""
    write("empty-frame.pgn.zst", data, {"text": [0, 0], "damaged": [], "refused": False, "no_text": True})

    # Random bytes named .zst: not zstd, not text.
    rnd = random.Random(28).randbytes(4096)
    assert run(["zstd", "-dc"], rnd).returncode != 0
    write("random-bytes.pgn.zst", rnd, {"text": [0, 0], "damaged": [], "refused": True, "no_text": False})

    # gzip: one member per piece (as `cat a.gz b.gz` makes), then zero
    # padding, which gzip ignores.
    members = [tool(["gzip", "-c", "-n"], piece) for piece in p]
    data = b"".join(members) + b"\x00" * 8
    assert tool(["gzip", "-dc"], data) == t
    write("members.pgn.gz", data, whole)

    # The second member's CRC-32 (8 bytes before its end) flipped: gzip
    # refuses the file; the second piece's text is unreliable.
    bad = bytearray(members[1])
    bad[-8] ^= 0xFF
    data = members[0] + bytes(bad) + members[2]
    refuses(["gzip", "-dc"], data, b"crc error")
    write(
        "crc-member.pgn.gz",
        data,
        second_piece_damaged,
    )

    # bzip2: one stream per piece.
    data = b"".join(tool(["bzip2", "-c"], piece) for piece in p)
    assert tool(["bzip2", "-dc"], data) == t
    write("streams.pgn.bz2", data, whole)

    # The same streams, the first's combined CRC-32 damaged (its second
    # last byte: at most seven bits of padding follow the 32 bits of the
    # sum), or the second's header: every block still passes its own
    # check, so all of T can be read, as bzip2recover's blocks show.
    # `bzip2 -dc` fails at the first; at the second it stops after the
    # first stream and ignores the rest as "trailing garbage".
    streams = [tool(["bzip2", "-c"], piece) for piece in p]
    first = len(streams[0])
    with tempfile.TemporaryDirectory() as d:
        for name, at, stream, passed in [
            ("crc-stream.pgn.bz2", first - 2, 1, [0, first]),
            ("header-stream.pgn.bz2", first + 2, 2, [first, first + 4]),
        ]:
            data = bytearray(b"".join(streams))
            data[at] ^= 0x01
            data = bytes(data)
            r = run(["bzip2", "-dc"], data)
            if stream == 1:
                assert r.returncode != 0 and b"integrity" in r.stderr, r.stderr
            else:
                assert r.stdout == p[0] and b"trailing garbage" in r.stderr, r.stderr
            blocks = bzip2_blocks(d, data)
            assert all(sound for sound, _ in blocks) and b"".join(b for _, b in blocks) == t
            write(name, data, dict(whole, stream_damage={"stream": stream, "bytes": passed}))

    # xz: one stream per piece, with stream padding (a multiple of four
    # zero bytes) between two of them and at the end.
    streams = [tool(["xz", "-c"], piece) for piece in p]
    data = streams[0] + b"\x00" * 4 + streams[1] + streams[2] + b"\x00" * 8
    assert tool(["xz", "-dc"], data) == t
    write("streams.pgn.xz", data, dict(whole, xz_blocks=xz_blocks(data)))

    # Downloads that broke off: T compressed in one stream by each tool,
    # cut at three fifths of its compressed size. The reference tool
    # decodes the text before the cut and then fails; a reader must give
    # the games wholly in that text (the one the cut falls in is missing,
    # and said to be). bzip2 at -1 (100 kB blocks): it gives nothing of a
    # block it cannot finish, and T is one 900 kB block at its default.
    for name, compress, decompress in [
        ("cut-short.pgn.gz", ["gzip", "-c", "-n"], ["gzip", "-dc"]),
        ("cut-short.pgn.bz2", ["bzip2", "-c", "-1"], ["bzip2", "-dc"]),
        ("cut-short.pgn.xz", ["xz", "-c"], ["xz", "-dc"]),
        ("cut-short.pgn.zst", ["zstd", "-c", "-q", "-3"], ["zstd", "-dc", "-q"]),
    ]:
        data = tool(compress, t)
        data = data[: len(data) * 3 // 5]
        r = run(decompress, data)
        assert r.returncode != 0 and t.startswith(r.stdout), (name, r.stderr)
        whole_games = [s for s in starts if s < len(r.stdout)]
        # The game the cut falls in starts at the last start before it.
        text_end = whole_games[-1] if whole_games else 0
        assert 0 < text_end < len(r.stdout) < len(t), (name, text_end, len(r.stdout))
        write(
            name,
            data,
            {
                "text": [0, text_end],
                "decoded_by_reference": len(r.stdout),
                "cut_short": True,
                "damaged": [],
                "refused": False,
                "no_text": False,
            },
        )

    # A byte flipped in the middle of an xz stream's last block, of one
    # block (xz's default) or of many (40 kB of text each): `xz -dc` gives
    # the text before the damage, then fails. pgnmill decodes with
    # liblzma, the library of xz itself, so it must give exactly the games
    # wholly in that text ("exact"). "xz_blocks": the blocks as `xz
    # --list` gives them; "xz_damaged_block": the one the damage is in.
    for name, args in [
        ("damaged-block.pgn.xz", ["xz", "-c"]),
        ("damaged-blocks.pgn.xz", ["xz", "-c", "--block-size=40000"]),
    ]:
        data, decoded, block = damage_xz(tool(args, t), t)
        text_end = [s for s in starts if s < len(decoded)][-1]
        assert 0 < text_end < len(decoded) < len(t)
        write(
            name,
            data,
            {
                "text": [0, text_end],
                "decoded_by_reference": len(decoded),
                "cut_short": True,
                "exact": True,
                "xz_blocks": xz_blocks(data),
                "xz_damaged_block": block,
                "damaged": [],
                "refused": False,
                "no_text": False,
            },
        )

    # Many xz blocks of 40 kB of text each, sound.
    data = tool(["xz", "-c", "--block-size=40000"], t)
    assert tool(["xz", "-dc"], data) == t and len(xz_blocks(data)) > 5
    write("blocks.pgn.xz", data, dict(whole, xz_blocks=xz_blocks(data)))
    files["cut-short.pgn.xz"]["exact"] = True

    # A bzip2 block whose text fails its CRC-32: T at -1 (100 kB blocks,
    # three of them), a byte flipped inside the second block's data such
    # that it still decodes, to text that is not T's. `bzip2 -dc` writes
    # that text out and then fails ("data integrity error"), and stops
    # there. `bzip2recover` cuts the file into its blocks: the first and
    # the third decode to their text in T, the second fails. A reader must
    # give the games of T wholly in the first and third blocks' text, and
    # the game that runs from the first into the lost one as damaged.
    # "blocks": each block's text range in T; "lost_blocks": which fail.
    good = tool(["bzip2", "-c", "-1"], t)
    assert len(bzip2_block_starts(good)) == 3
    with tempfile.TemporaryDirectory() as d:
        sound = bzip2_blocks(d, good)
        assert all(whole for whole, _ in sound) and b"".join(b for _, b in sound) == t
        magics = bzip2_block_starts(good)
        for at in range((magics[1] + magics[2]) // 2, magics[2]):
            data = bytearray(good)
            data[at] ^= 0x10
            data = bytes(data)
            r = run(["bzip2", "-dc"], data)
            blocks = bzip2_blocks(d, data)
            if r.returncode != 0 and b"integrity" in r.stderr and len(r.stdout) > len(sound[0][1]):
                break
        else:
            raise AssertionError("no flip that leaves the block decodable")
    assert [whole for whole, _ in blocks] == [True, False, True], blocks
    assert blocks[0][1] == sound[0][1] and blocks[2][1] == sound[2][1]
    assert r.stdout.startswith(sound[0][1]) and not t.startswith(r.stdout)
    bounds = [0]
    for _, block in sound:
        bounds.append(bounds[-1] + len(block))
    write(
        "crc-block.pgn.bz2",
        data,
        {
            "text": [0, len(t)],
            "blocks": [[a, b] for a, b in zip(bounds, bounds[1:])],
            "lost_blocks": [2],
            "damaged": [],
            "refused": False,
            "no_text": False,
        },
    )

    # Damage after the text: T whole in one stream, then bytes that are
    # not a stream (a download with something appended to it), or a byte
    # of an xz stream's index flipped (the index follows the last block).
    # The reference tool gives all of T, then fails (xz, zstd) or warns
    # (bzip2, gzip); a reader must give every game, the last one too, and say
    # that it could not read what follows.
    def flip_in_index(data):
        data = bytearray(data)
        data[len(data) - 20] ^= 0x55
        return bytes(data)

    for name, compress, decompress, damage in [
        ("garbage-after.pgn.xz", ["xz", "-c"], ["xz", "-dc"], lambda d: d + b"not a stream\n"),
        ("damaged-index.pgn.xz", ["xz", "-c"], ["xz", "-dc"], flip_in_index),
        ("garbage-after.pgn.zst", ["zstd", "-c", "-q", "-3"], ["zstd", "-dc", "-q"], lambda d: d + b"not a frame\n"),
        ("garbage-after.pgn.bz2", ["bzip2", "-c"], ["bzip2", "-dc"], lambda d: d + b"not a stream\n"),
        ("garbage-after.pgn.gz", ["gzip", "-c", "-n"], ["gzip", "-dc"], lambda d: d + b"not a member\n"),
    ]:
        data = damage(tool(compress, t))
        r = run(decompress, data)
        assert r.stdout == t and (r.returncode != 0 or b"garbage" in r.stderr), (name, r.stderr)
        write(
            name,
            data,
            {
                "text": [0, len(t)],
                "decoded_by_reference": len(t),
                "stops_after_text": True,
                "damaged": [],
                "refused": False,
                "no_text": False,
            },
        )

    # zip: three members, each whole games (as a zip of PGN files holds:
    # T cut at the starts of games 41 and 81); the second member's CRC-32
    # changed in its local header and in the central directory, so zipfile
    # refuses it.
    zip_cuts = [starts[40], starts[80]]
    bounds = [0] + zip_cuts + [len(t)]
    zp = [t[a:b] for a, b in zip(bounds, bounds[1:])]
    path = os.path.join(OUT, "crc-member.zip")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for i, piece in enumerate(zp):
            info = zipfile.ZipInfo(f"part{i + 1}.pgn", date_time=(2025, 5, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, piece)
    data = bytearray(open(path, "rb").read())
    crc = struct.pack("<I", zlib.crc32(zp[1]))
    at = data.find(crc)
    while at != -1:
        data[at] ^= 0xFF
        at = data.find(crc, at + 4)
    open(path, "wb").write(data)
    with zipfile.ZipFile(path) as z:
        assert z.read("part1.pgn") == zp[0] and z.read("part3.pgn") == zp[2]
        try:
            z.read("part2.pgn")
            raise AssertionError("the damaged member must be refused")
        except zipfile.BadZipFile:
            pass
    files["crc-member.zip"] = {
        "members": {
            "part1.pgn": {"text": [0, zip_cuts[0]], "damaged": []},
            "part2.pgn": {"text": zip_cuts, "damaged": [[0, zip_cuts[1] - zip_cuts[0]]]},
            "part3.pgn": {"text": [zip_cuts[1], len(t)], "damaged": []},
        }
    }

    # 7z: the zip's three members. `text` of each member, its damaged
    # stretches (the member whose CRC-32 fails, all of it), whether its
    # compressed data cannot be decoded (its text is then damaged, as far
    # as any is decoded), and the members that are not read.
    def members_expect(damaged_member=None, undecodable=(), skipped=()):
        expect = {}
        for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
            name = f"part{i + 1}.pgn"
            expect[name] = {
                "text": [a, b],
                "damaged": [[0, b - a]] if name == damaged_member else [],
                "undecodable": name in undecodable,
            }
        return {"members": expect, "skipped": list(skipped)}

    parts = [(f"part{i + 1}.pgn", piece) for i, piece in enumerate(zp)]
    # A solid archive, 7-Zip's default (LZMA2, one block for all the
    # files), with a member that is not PGN; and one archive per other
    # method 7-Zip writes, solid or not.
    shapes = [
        ("members.7z", parts + [("notes.txt", b"not a game\n")], [], ["notes.txt"]),
        ("lzma.7z", parts, ["-m0=LZMA"], []),
        ("ppmd.7z", parts, ["-m0=PPMd", "-ms=off"], []),
        ("bzip2.7z", parts, ["-m0=BZip2"], []),
        ("deflate.7z", parts, ["-m0=Deflate", "-ms=off"], []),
    ]
    for name, members, args, skipped in shapes:
        path = os.path.join(OUT, name)
        seven_zip(path, members, args)
        for member, piece in members:
            assert seven_zip_member(path, member)[:2] == (0, piece), (name, member)
        files[name] = members_expect(skipped=skipped)
    # A member of no bytes (an empty file: in no block, 7-Zip stores no
    # data for it) beside a sound one: it is read as an empty .pgn is.
    path = os.path.join(OUT, "empty-member.7z")
    seven_zip(path, [parts[0], ("empty.pgn", b"")], [])
    assert seven_zip_member(path, "empty.pgn")[:2] == (0, b"")
    expect = members_expect()
    files["empty-member.7z"] = {
        "members": {
            "empty.pgn": {"text": [0, 0], "damaged": [], "undecodable": False},
            "part1.pgn": expect["members"]["part1.pgn"],
        },
        "skipped": [],
    }
    # The second member's CRC-32 flipped in the (uncompressed) index of a
    # solid archive: 7-Zip extracts the others and fails that one.
    path = os.path.join(OUT, "crc-member.7z")
    data = flip_seven_zip_crc(seven_zip(path, parts, ["-mhc=off"]), zp[1])
    open(path, "wb").write(data)
    for member, piece in parts:
        code, out, err = seven_zip_member(path, member)
        if member == "part2.pgn":
            assert code != 0 and b"CRC Failed : part2.pgn" in err, err
        else:
            # Extracting part3.pgn decodes part2.pgn before it (one
            # block), and 7-Zip then says that part2.pgn failed.
            assert out == piece and member.encode() not in err, (member, err)
    files["crc-member.7z"] = members_expect(damaged_member="part2.pgn")
    # The second member's compressed data damaged: an archive of one block
    # per file (`-ms=off`), a byte in the middle of the second block
    # flipped. The other members are whole.
    path = os.path.join(OUT, "damaged-block.7z")
    data = bytearray(seven_zip(path, parts, ["-ms=off", "-mhc=off"]))
    listing = run(["7zz", "l", "-slt", path], b"").stdout.decode()
    packed = [int(line.split("=")[1]) for line in listing.splitlines() if line.startswith("Packed Size = ")]
    data[32 + packed[0] + packed[1] // 2] ^= 0x55
    open(path, "wb").write(data)
    for member, piece in parts:
        code, out, err = seven_zip_member(path, member)
        if member == "part2.pgn":
            assert code != 0, member
        else:
            assert (code, out) == (0, piece), member
    assert seven_zip_errors(path) == {"part2.pgn": "Data Error"}
    files["damaged-block.7z"] = members_expect(undecodable=["part2.pgn"])
    # The same in a solid archive, early in its one block (in the first
    # member's data): 7-Zip decodes none of the members, whose text comes
    # after the damage in the block.
    path = os.path.join(OUT, "damaged-solid.7z")
    data = bytearray(seven_zip(path, parts, ["-mhc=off"]))
    data[32 + 1000] ^= 0x55
    open(path, "wb").write(data)
    assert seven_zip_errors(path) == {m: "Data Error" for m, _ in parts}
    files["damaged-solid.7z"] = members_expect(undecodable=[m for m, _ in parts])
    # A download cut short: the index, at the archive's end, is missing.
    path = os.path.join(OUT, "cut-short.7z")
    whole = seven_zip(path, parts, [])
    open(path, "wb").write(whole[: len(whole) // 2])
    assert run(["7zz", "t", path], b"").returncode != 0
    files["cut-short.7z"] = {"index_unreadable": True}
    # Encrypted members (the index is not): 7-Zip without the password
    # reads none of them. (Its salt is random: this file differs at every
    # run.)
    path = os.path.join(OUT, "encrypted.7z")
    seven_zip(path, parts, ["-psecret", "-mhe=off"])
    for member, _ in parts:
        assert seven_zip_member(path, member)[0] != 0
    files["encrypted.7z"] = {"encrypted": [m for m, _ in parts]}

    manifest = {
        "source": SOURCE,
        "games": GAMES,
        "text_bytes": len(t),
        "cuts": CUTS,
        "files": files,
    }
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()

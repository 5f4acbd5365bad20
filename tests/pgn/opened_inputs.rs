//! What an input is once opened (`pgnmill::source::Opened`): text to split,
//! a record file to decode, or refused, with the kind and the reason. The
//! same bytes are the same thing whether the file is mapped, read as a
//! stream (a pipe, stdin) or gzip-compressed: they are classified in one
//! place. The expected answers are the rules of docs/reports.md
//! ("Inputs", `warnings`) and docs/xiangqi-formats.md §7 (magic bytes).

use std::io::Write;
use std::path::{Path, PathBuf};

use pgnmill::pgn::Batches;
use pgnmill::source::{Encoding, Input, Opened, ReadOptions, RefusalKind, SourceError};

/// What an opened input is, in words a test can compare.
fn what(opened: &Opened) -> String {
    match opened {
        Opened::Text(text) => format!("text {}", text.encoding().name()),
        Opened::Records(file) => format!(
            "records {} ({} bytes)",
            file.format().name(),
            file.bytes().len()
        ),
        Opened::Refused(refusal) => format!("refused {:?}: {}", refusal.kind, refusal.why),
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xff, 0xfe];
    for unit in text.encode_utf16() {
        out.extend(unit.to_le_bytes());
    }
    out
}

fn xqf() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/binary/SAMPLE.XQF")).unwrap()
}

/// Opens `bytes` named `name` three ways: as a file (mapped), as a stream
/// of the same name, and as a gzip file `name.gz`.
fn three_ways(dir: &Path, name: &str, bytes: &[u8]) -> [String; 3] {
    let opts = ReadOptions::default();
    let file = dir.join(name);
    std::fs::write(&file, bytes).unwrap();
    let mapped = Input::file(&file).open(&opts).unwrap();
    let stream =
        Opened::from_read(&file, Box::new(std::io::Cursor::new(bytes.to_vec())), &opts).unwrap();
    let gz: PathBuf = dir.join(format!("{name}.gz"));
    std::fs::write(&gz, gzip(bytes)).unwrap();
    let zipped = Input::file(&gz).open(&opts).unwrap();
    assert_eq!(zipped.compression().name(), "gzip", "{name}");
    [what(&mapped), what(&stream), what(&zipped)]
}

#[test]
fn an_input_is_text_records_or_refused_however_it_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = b"[Event \"x\"]\n\n1. e4 e5 *\n".to_vec();
    let page =
        b"<html><p>[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]</p></html>\n";
    let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    png.extend([7u8; 100]);
    let mut bridge = b"CCBridge".to_vec();
    bridge.extend([0u8, 1, 2, 3]);
    let mut packed = b"CCBridge\x15\0\0\0".to_vec();
    packed.extend([9u8; 40]);
    let control: Vec<u8> = (0u8..64).map(|b| b % 8).collect();
    let xqf = xqf();
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        ("games.pgn", pgn.clone(), "text UTF-8".into()),
        ("le.pgn", utf16le("[Event \"x\"]\n\n1. e4 *\n"), "text UTF-16LE".into()),
        ("SAMPLE.XQF", xqf.clone(), format!("records XQF ({} bytes)", xqf.len())),
        // A DhtmlXQ block makes a page of games of a .txt, never of a .pgn.
        ("page.txt", page.to_vec(), format!("records DhtmlXQ ({} bytes)", page.len())),
        ("page.pgn", page.to_vec(), "text UTF-8".into()),
        ("image.pgn", png, "refused NotPgn: PNG image, not PGN".into()),
        (
            "game.ccb",
            bridge,
            "refused Unsupported: CCBridge file of an unknown kind, not read".into(),
        ),
        (
            "packed.cbl",
            packed,
            "refused Unsupported: CCBridge packed library (a zlib container whose format is not publicly documented): not read; export its games from CCBridge as .cbr files or PGN"
                .into(),
        ),
        ("data.pgn", control, "refused NotPgn: binary data, not PGN".into()),
    ];
    for (name, bytes, want) in &cases {
        let got = three_ways(tmp.path(), name, bytes);
        // The name allows a DhtmlXQ page as given: `page.txt.gz` ends in
        // `.gz`, and its text is read as text.
        let gz = match *name {
            "page.txt" => "text UTF-8".to_string(),
            _ => want.clone(),
        };
        assert_eq!(got, [want.clone(), want.clone(), gz], "{name}");
    }
}

/// A name that promises compression the bytes do not have is said, mapped
/// or streamed; compressed bytes are what the name promised.
#[test]
fn a_refused_input_named_as_compressed_says_it_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.extend([0u8; 64]);
    let want = "refused NotPgn: ELF executable, not PGN (named .zst, but not zstd data)";
    let got = three_ways(tmp.path(), "prog.pgn.zst", &elf);
    assert_eq!(got[..2], [want, want]);
    assert_eq!(got[2], "refused NotPgn: ELF executable, not PGN");
}

/// A zip archive read as a stream (stdin) is refused: its members are read
/// only when the archive is named.
#[test]
fn a_zip_archive_as_a_stream_is_refused() {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("a.pgn", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"1. e4 *\n").unwrap();
    let bytes = zip.finish().unwrap().into_inner();
    let opened = Opened::from_read(
        Path::new("-"),
        Box::new(std::io::Cursor::new(bytes)),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(opened.compression().name(), "zip");
    let Opened::Refused(refusal) = opened else {
        panic!("not refused: {}", what(&opened));
    };
    assert_eq!(refusal.kind, RefusalKind::Unsupported);
    assert!(
        refusal
            .why
            .starts_with("a zip archive, which cannot be read from a stream"),
        "{}",
        refusal.why
    );
}

/// A folder given to the reader of one input (not to a search, which
/// lists its files) is an error when it is opened, saying it is a folder,
/// not a text that stops after byte 0 at its first batch.
#[test]
fn batches_of_a_folder_are_an_error_on_opening() {
    let tmp = tempfile::tempdir().unwrap();
    match Batches::open(&Input::file(tmp.path()), &ReadOptions::default()) {
        Err(SourceError::Io { path, source }) => {
            assert_eq!(path, tmp.path());
            assert_eq!(source.kind(), std::io::ErrorKind::IsADirectory);
        }
        Err(other) => panic!("{other:?}"),
        Ok(_) => panic!("a folder opened as an input"),
    }
}

/// A reader of text only is told what the input is instead.
#[test]
fn batches_of_an_input_that_is_not_text_are_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let record = tmp.path().join("SAMPLE.XQF");
    std::fs::write(&record, xqf()).unwrap();
    let image = tmp.path().join("image.pgn");
    std::fs::write(&image, b"GIF89a\x01\x00\x01\x00\x00\x00\x00").unwrap();
    let opts = ReadOptions::default();
    for (path, what) in [
        (&record, "a XQF record file"),
        (&image, "GIF image, not PGN"),
    ] {
        match Batches::open(&Input::file(path), &opts) {
            Err(e @ SourceError::NotText { .. }) => {
                let message = e.to_string();
                assert!(
                    message.starts_with(&format!("{}: not text to split: ", path.display())),
                    "{message}"
                );
                assert!(message.contains(what), "{message}");
            }
            other => panic!("{}: {other:?}", path.display()),
        }
    }
    // Text still opens, in the encoding its bytes say.
    let latin1 = tmp.path().join("latin1.pgn");
    std::fs::write(&latin1, b"[White \"Jos\xe9\"]\n\n1. e4 *\n").unwrap();
    let batches = Batches::open(&Input::file(&latin1), &opts).unwrap();
    assert_eq!(batches.encoding(), Encoding::Latin1);
    assert_eq!(batches.map(|b| b.unwrap().games.len()).sum::<usize>(), 1);
}

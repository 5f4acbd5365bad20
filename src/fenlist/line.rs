//! One line of a FEN/EPD list read into a [`FenLine`]: the FEN fields as
//! written, the EPD operations after them, and the record's `id`.
//!
//! Accepted shapes, one per line:
//! - a FEN (4 to 6 fields) or an EPD record (4 fields followed by operations
//!   `opcode operand...;`, e.g. `bm Nf3; id "x";`); perft suites write the
//!   counters too and start each operation with `;` (`... 0 1 ;D1 20 ;D2 400`);
//! - a CSV perft line, `fen,count,count...` (the counts are ignored);
//! - the `.perft` format of shakmaty and python-chess: `id X` names the
//!   following `epd <fen>` line, `perft N M` lines are counts, not records;
//! - blank lines and `#` comments, skipped.
//!
//! The EPD opcodes `hmvc` and `fmvn` give the halfmove clock and fullmove
//! number of a record written with only 4 fields.

/// What one file has said so far that later lines depend on, and counts of
/// the lines that are not records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileState {
    /// The name of the last `id X` line, waiting for its record.
    pending_id: Option<String>,
    /// `perft N M` lines skipped.
    pub perft_lines: u64,
    /// `id X` lines read.
    pub id_lines: u64,
    /// Blank and `#` comment lines skipped.
    pub comment_lines: u64,
}

/// One EPD operation: its opcode and operands, string operands unquoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOp<'a> {
    pub opcode: &'a str,
    pub operands: Vec<&'a str>,
}

/// One record of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenLine<'a> {
    /// The line as written (without line end and byte order mark).
    pub text: &'a str,
    /// The FEN fields as written: placement, side to move, castling, en
    /// passant, then up to two counters.
    pub fields: Vec<&'a str>,
    /// The EPD operations after the fields (none for a plain FEN or a CSV
    /// perft line).
    pub ops: Vec<EpdOp<'a>>,
    /// The record's name: its EPD `id` operand, else the `.perft` `id` line
    /// before it; empty if neither.
    pub id: String,
}

impl FenLine<'_> {
    /// The placement field (empty if the record has none).
    pub fn placement(&self) -> &str {
        self.fields.first().copied().unwrap_or("")
    }

    /// The first operand of the first operation named `opcode`.
    pub fn op(&self, opcode: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|op| op.opcode == opcode)
            .and_then(|op| op.operands.first().copied())
    }

    /// The FEN to read: the fields, and when the record has exactly 4 the
    /// counters of its `hmvc`/`fmvn` operations (0 and 1 for a missing one).
    pub fn fen_text(&self) -> String {
        let mut fen = self.fields.join(" ");
        let (hmvc, fmvn) = (self.op("hmvc"), self.op("fmvn"));
        if self.fields.len() == 4 && (hmvc.is_some() || fmvn.is_some()) {
            for counter in [hmvc.unwrap_or("0"), fmvn.unwrap_or("1")] {
                fen.push(' ');
                fen.push_str(counter);
            }
        }
        fen
    }
}

/// Reads one line (without its line end; a leading byte order mark is
/// dropped). `None` for lines that are not records: blank, `#` comments,
/// `.perft` `id` and `perft` lines.
pub fn read_line<'a>(line: &'a str, state: &mut FileState) -> Option<FenLine<'a>> {
    let text = line
        .trim_end_matches(['\n', '\r'])
        .trim_start_matches('\u{feff}');
    let body = text.trim();
    if body.is_empty() || body.starts_with('#') {
        state.comment_lines += 1;
        return None;
    }
    let (keyword, rest) = body
        .split_once(|c: char| c.is_ascii_whitespace())
        .map_or((body, ""), |(k, r)| (k, r.trim_start()));
    let fen_and_ops = match keyword {
        "id" => {
            state.id_lines += 1;
            state.pending_id = Some(unquote(rest.trim()).to_string());
            return None;
        }
        "perft" => {
            state.perft_lines += 1;
            return None;
        }
        "epd" => rest,
        _ => body,
    };
    let (fields, tail) = split_fields(fen_and_ops);
    let ops = if tail.trim_start().starts_with(',') {
        Vec::new() // CSV perft counts
    } else {
        parse_ops(tail)
    };
    let pending = state.pending_id.take();
    let id = ops
        .iter()
        .find(|op| op.opcode == "id")
        .and_then(|op| op.operands.first())
        .map(|s| s.to_string())
        .or(pending)
        .unwrap_or_default();
    Some(FenLine {
        text,
        fields,
        ops,
        id,
    })
}

/// The FEN fields at the start of `text` and what follows them: up to four
/// fields, then up to two counters (digits, or a `-` and digits: a negative
/// clock is kept as a field, for the FEN reader to refuse, not read as an
/// EPD operation and replaced by 0). A field ends at white space, `;` or
/// `,` (EPD operations, CSV counts); an EPD opcode never starts with a
/// digit or `-`, so the counters cannot be mistaken for one.
fn split_fields(text: &str) -> (Vec<&str>, &str) {
    let mut fields = Vec::with_capacity(6);
    let mut rest = text;
    while fields.len() < 6 {
        let trimmed = rest.trim_start();
        let end = trimmed
            .find(|c: char| c.is_ascii_whitespace() || c == ';' || c == ',')
            .unwrap_or(trimmed.len());
        let token = &trimmed[..end];
        let digits = token.strip_prefix('-').unwrap_or(token);
        let is_counter = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        if token.is_empty() || (fields.len() >= 4 && !is_counter) {
            break;
        }
        fields.push(token);
        rest = &trimmed[end..];
    }
    (fields, rest)
}

/// EPD operations: `;`-terminated (the last `;` may be missing), each an
/// opcode and its operands; a `"..."` operand is one operand even with
/// spaces or `;` inside, and is returned without its quotes.
fn parse_ops(text: &str) -> Vec<EpdOp<'_>> {
    let mut ops = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else { break };
        if c == ';' {
            push_op(&mut ops, &mut words);
            rest = &rest[1..];
            continue;
        }
        let (word, after) = if c == '"' {
            match rest[1..].find('"') {
                Some(close) => (&rest[1..=close], &rest[close + 2..]),
                None => (&rest[1..], ""),
            }
        } else {
            let end = rest
                .find(|c: char| c.is_ascii_whitespace() || c == ';')
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        words.push(word);
        rest = after;
    }
    push_op(&mut ops, &mut words);
    ops
}

fn push_op<'a>(ops: &mut Vec<EpdOp<'a>>, words: &mut Vec<&'a str>) {
    if let Some((&opcode, operands)) = words.split_first() {
        ops.push(EpdOp {
            opcode,
            operands: operands.to_vec(),
        });
    }
    words.clear();
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> FenLine<'_> {
        read_line(line, &mut FileState::default()).unwrap()
    }

    #[test]
    fn epd_operations_are_split_and_unquoted() {
        let r = read(r#"8/8/8/8/8/8/8/8 w - - bm Nf3 Ng5; id "a; b"; c0 "x""#);
        assert_eq!(r.fields, ["8/8/8/8/8/8/8/8", "w", "-", "-"]);
        assert_eq!(r.op("bm"), Some("Nf3"));
        assert_eq!(r.ops[0].operands, ["Nf3", "Ng5"]);
        assert_eq!(r.id, "a; b");
        assert_eq!(r.op("c0"), Some("x"));
    }

    #[test]
    fn counters_perft_ops_and_csv_counts() {
        let r = read("k7/8/8/8/8/8/8/K7 w - - 2 9 ;D1 21 ;D2 528");
        assert_eq!(r.fields.len(), 6);
        assert_eq!(r.op("D2"), Some("528"));
        let r = read("k7/8/8/8/8/8/8/K7 w - -,20,400");
        assert_eq!(r.fields, ["k7/8/8/8/8/8/8/K7", "w", "-", "-"]);
        assert!(r.ops.is_empty());
    }

    /// A negative clock stays a FEN field (python-chess refuses it: "halfmove
    /// clock cannot be negative"), not an EPD operation.
    #[test]
    fn a_negative_counter_is_a_field() {
        let r = read("k7/8/8/8/8/8/8/K7 w - - -5 1");
        assert_eq!(r.fields, ["k7/8/8/8/8/8/8/K7", "w", "-", "-", "-5", "1"]);
        assert!(r.ops.is_empty());
    }

    #[test]
    fn hmvc_and_fmvn_fill_missing_counters_only() {
        let r = read("k7/8/8/8/8/8/8/K7 w - - hmvc 7; fmvn 12;");
        assert_eq!(r.fen_text(), "k7/8/8/8/8/8/8/K7 w - - 7 12");
        let r = read("k7/8/8/8/8/8/8/K7 w - - fmvn 12;");
        assert_eq!(r.fen_text(), "k7/8/8/8/8/8/8/K7 w - - 0 12");
        let r = read("k7/8/8/8/8/8/8/K7 w - - 3 4 hmvc 7;");
        assert_eq!(r.fen_text(), "k7/8/8/8/8/8/8/K7 w - - 3 4");
    }

    #[test]
    fn perft_file_lines() {
        let mut state = FileState::default();
        assert!(read_line("id gentest-1", &mut state).is_none());
        let r = read_line("epd k7/8/8/8/8/8/8/K7 w - -", &mut state).unwrap();
        assert_eq!((r.id.as_str(), r.fields.len()), ("gentest-1", 4));
        assert!(read_line("perft 1 3", &mut state).is_none());
        assert!(read_line("  # note", &mut state).is_none());
        let r = read_line("\u{feff}k7/8/8/8/8/8/8/K7 w - -\r", &mut state).unwrap();
        assert_eq!((r.id.as_str(), r.text), ("", "k7/8/8/8/8/8/8/K7 w - -"));
        assert_eq!((state.perft_lines, state.id_lines), (1, 1));
    }
}

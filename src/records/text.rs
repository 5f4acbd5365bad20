//! Text fields as the formats store them: length-prefixed GBK (XQF),
//! NUL-terminated UTF-16LE in fixed-size fields (CBR/CBL), and the
//! comment text of every format, made fit for a PGN comment.

/// GBK bytes decoded as GB18030 (its superset); invalid bytes become U+FFFD.
pub fn gbk(bytes: &[u8]) -> String {
    let (text, _, _) = encoding_rs::GB18030.decode(bytes);
    text.into_owned()
}

/// A Pascal string of a fixed-size field: a length byte, then the text.
/// The length is never trusted beyond the field (some writers put 0xFF
/// there), and NUL padding is cut off.
pub fn pascal_gbk(field: &[u8]) -> String {
    let Some((&len, rest)) = field.split_first() else {
        return String::new();
    };
    let text = rest.get(..usize::from(len).min(rest.len())).unwrap_or(rest);
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    clean(&gbk(text.get(..end).unwrap_or_default()))
}

/// UTF-16LE up to the first NUL code unit of a fixed-size field.
pub fn utf16le_field(field: &[u8]) -> String {
    let units: Vec<u16> = field
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .take_while(|&u| u != 0)
        .collect();
    clean(&String::from_utf16_lossy(&units))
}

/// UTF-16LE text of a given byte length (a comment); a trailing NUL is cut.
pub fn utf16le(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    let s = String::from_utf16_lossy(&units);
    s.trim_end_matches('\0').to_string()
}

/// A tag value: control characters (line breaks included) become spaces,
/// the ends are trimmed, ideographic padding too.
pub fn clean(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}')
        .to_string()
}

/// A comment: `\r\n` and `\r` become `\n`, NULs are dropped, the ends are
/// trimmed.
pub fn comment(s: &str) -> String {
    let s = s
        .replace("\r\n", "\n")
        .replace(['\r'], "\n")
        .replace('\0', "");
    s.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_cut_at_their_length_and_padding() {
        assert_eq!(pascal_gbk(b"\x04\xc2\xc0\xc7\xd5\0\0"), "吕钦");
        assert_eq!(pascal_gbk(b"\xffab"), "ab");
        assert_eq!(pascal_gbk(b""), "");
        assert_eq!(utf16le_field(b"T\0e\0\0\0x\0"), "Te");
        assert_eq!(comment(" a\r\nb\rc "), "a\nb\nc");
    }
}

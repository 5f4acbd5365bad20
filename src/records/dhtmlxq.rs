//! DhtmlXQ blocks of web pages (docs/xiangqi-formats.md §3).

use super::game::RecordGame;

pub fn read_page(_bytes: &[u8]) -> Result<Vec<RecordGame>, String> {
    Err("DhtmlXQ is not read yet".into())
}

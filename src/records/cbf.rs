//! CBF, CCBridge's XML record (docs/xiangqi-formats.md §2.4).

use super::game::RecordGame;

pub fn read(_bytes: &[u8]) -> Result<RecordGame, String> {
    Err("CBF is not read yet".into())
}

//! Sealed files: a checkpoint or a TT snapshot is either verified or not used.
//!
//! A sealed text starts with a header naming its format and version, the game, the board
//! options and the root position it belongs to ([`SolveIdentity`]), and ends with a CRC-32 of
//! everything before it:
//!
//! ```text
//! game-solvers checkpoint 2
//! game triangle-war
//! options side 4
//! root drawn 0x0 A to move
//! ... body ...
//! checksum 1a2b3c4d
//! ```
//!
//! [`unseal`] refuses a text whose format line, header or checksum does not match: a file of
//! another game, board or position, a truncated file, or one edited by hand. What the body
//! holds is then checked by its reader ([`crate::Checkpoint::from_sealed_text`],
//! [`crate::tt_snapshot_from_text`]): every value within the game's range, every move legal.
//! Nothing here touches a file: the front end reads and writes the text.

use crate::CheckpointError;

/// What a sealed file belongs to: compared field by field when it is read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveIdentity {
    /// The game's name, e.g. `triangle-war`.
    pub game: String,
    /// The board options that change values, e.g. `side 4` or `7x6 k4`.
    pub options: String,
    /// The root position in the game's own words (one line).
    pub root: String,
}

/// The kinds of sealed files, each with its own first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SealedKind {
    /// Bounds on every root move ([`crate::Checkpoint`]).
    Checkpoint,
    /// Proven TT entries of the largest subtrees ([`crate::tt_snapshot_to_text`]).
    TtSnapshot,
}

impl SealedKind {
    /// The first line of a file of this kind, naming the format version.
    #[must_use]
    pub const fn format_line(self) -> &'static str {
        match self {
            SealedKind::Checkpoint => "game-solvers checkpoint 2",
            SealedKind::TtSnapshot => "game-solvers tt-snapshot 2",
        }
    }
}

/// Lines before the body: the format line and three header fields.
pub(crate) const HEADER_LINES: usize = 4;

/// `body` (lines each ending in `\n`) sealed for `identity`: header, body, checksum line.
#[must_use]
pub fn seal(kind: SealedKind, identity: &SolveIdentity, body: &str) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    let mut text = format!(
        "{}\ngame {}\noptions {}\nroot {}\n",
        kind.format_line(),
        one_line(&identity.game),
        one_line(&identity.options),
        one_line(&identity.root)
    );
    text.push_str(body);
    let crc = crc32fast::hash(text.as_bytes());
    text.push_str(&format!("checksum {crc:08x}\n"));
    text
}

/// The body of a text sealed by [`seal`] for `identity`, after checking its checksum, format
/// line and header.
///
/// # Errors
/// [`CheckpointError::Truncated`] without a final checksum line, [`CheckpointError::Checksum`]
/// if the content does not match it, [`CheckpointError::Format`] for another format or
/// version, [`CheckpointError::Mismatch`] naming the first header field that differs.
pub fn unseal<'a>(
    kind: SealedKind,
    identity: &SolveIdentity,
    text: &'a str,
) -> Result<&'a str, CheckpointError> {
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let (content_len, last) = match trimmed.rfind('\n') {
        Some(i) => (i + 1, &trimmed[i + 1..]),
        None => (0, trimmed),
    };
    let Some(hex) = last.strip_prefix("checksum ") else {
        return Err(CheckpointError::Truncated);
    };
    let content = &text[..content_len];
    let Ok(stored) = u32::from_str_radix(hex.trim(), 16) else {
        return Err(CheckpointError::Truncated);
    };
    if crc32fast::hash(content.as_bytes()) != stored {
        return Err(CheckpointError::Checksum);
    }
    let mut lines = content.split_inclusive('\n');
    let first = lines.next().unwrap_or("").trim_end();
    if first != kind.format_line() {
        return Err(CheckpointError::Format { expected: kind.format_line(), found: first.to_string() });
    }
    for (field, expected) in
        [("game", &identity.game), ("options", &identity.options), ("root", &identity.root)]
    {
        let line = lines.next().unwrap_or("").trim_end();
        let found = line.strip_prefix(field).and_then(|r| r.strip_prefix(' ')).unwrap_or(line);
        if found != expected.replace(['\n', '\r'], " ") {
            return Err(CheckpointError::Mismatch {
                field,
                expected: expected.clone(),
                found: found.to_string(),
            });
        }
    }
    let header_len: usize = content.split_inclusive('\n').take(HEADER_LINES).map(str::len).sum();
    Ok(&content[header_len..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(root: &str) -> SolveIdentity {
        SolveIdentity { game: "g".into(), options: "side 4".into(), root: root.into() }
    }

    #[test]
    fn sealed_text_round_trips_and_every_change_is_refused() {
        let body = "0 -2 -2\n1 -16 16\n";
        let text = seal(SealedKind::Checkpoint, &id("empty"), body);
        assert_eq!(unseal(SealedKind::Checkpoint, &id("empty"), &text), Ok(body));
        // Any one byte changed is caught by the checksum (or breaks the checksum line).
        for i in 0..text.len() {
            let mut bytes = text.clone().into_bytes();
            bytes[i] = if bytes[i] == b'1' { b'2' } else { b'1' };
            let changed = String::from_utf8(bytes).unwrap();
            assert!(unseal(SealedKind::Checkpoint, &id("empty"), &changed).is_err(), "byte {i}");
        }
        let cut = &text[..text.len() - 10];
        assert_eq!(unseal(SealedKind::Checkpoint, &id("empty"), cut), Err(CheckpointError::Truncated));
        assert!(matches!(
            unseal(SealedKind::TtSnapshot, &id("empty"), &text),
            Err(CheckpointError::Format { .. })
        ));
        assert_eq!(
            unseal(SealedKind::Checkpoint, &id("other"), &text),
            Err(CheckpointError::Mismatch { field: "root", expected: "other".into(), found: "empty".into() })
        );
        assert_eq!(
            unseal(SealedKind::Checkpoint, &id("empty"), "0 -2 -2\n"),
            Err(CheckpointError::Truncated)
        );
    }
}

//! Judge lines: `MOVES SCORE`, one position per line, as in Pons' test sets and the output of
//! `games-cli connect-four`.

use thiserror::Error;

use crate::{Geometry, MoveError, Position};

/// A position with its score, as on one line of a test set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgeLine {
    /// The position reached by the line's moves.
    pub position: Position,
    /// The score given for it (side to move, Pons' convention).
    pub score: i32,
}

/// Why a judge line is refused. `column` is 1-based, in characters from the line's start.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum LineError {
    /// The move string is refused.
    #[error("column {column}: {error}")]
    Move {
        /// 1-based column of the offending character in the line.
        column: usize,
        /// What is wrong with the move.
        error: MoveError,
    },
    /// No score after the moves.
    #[error("column {column}: expected a score after the moves")]
    MissingScore {
        /// 1-based column where the score was expected.
        column: usize,
    },
    /// The score is not an integer. Displayed quoted by [`judge_text::quote`] (escaped, cut
    /// to [`judge_text::QUOTE_MAX_CHARS`] characters: a huge field is never repeated whole).
    #[error("column {column}: expected an integer score, found {}", judge_text::quote(found))]
    BadScore {
        /// 1-based column of the score.
        column: usize,
        /// The text found.
        found: String,
    },
    /// Something after the score. Displayed quoted by [`judge_text::quote`], cut as for
    /// [`LineError::BadScore`].
    #[error(
        "column {column}: expected the end of the line after the score, found {}",
        judge_text::quote(found)
    )]
    Trailing {
        /// 1-based column of the extra text.
        column: usize,
        /// The text found.
        found: String,
    },
}

/// Fields separated by spaces or tabs, with their 1-based starting column (in characters).
fn fields(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut col = 0;
    let mut rest = line;
    std::iter::from_fn(move || {
        let skip = rest.chars().take_while(|c| *c == ' ' || *c == '\t').count();
        let (_, r) = rest.split_at(rest.char_indices().nth(skip).map_or(rest.len(), |(i, _)| i));
        col += skip;
        rest = r;
        if rest.is_empty() {
            return None;
        }
        let end = rest.find([' ', '\t']).unwrap_or(rest.len());
        let (field, r) = rest.split_at(end);
        let start = col + 1;
        col += field.chars().count();
        rest = r;
        Some((start, field))
    })
}

/// Parses `MOVES SCORE` on `geom` (surrounding spaces and a trailing `\r` allowed).
///
/// # Errors
/// [`LineError`] naming the 1-based column of the problem.
pub fn parse_line(geom: Geometry, line: &str) -> Result<JudgeLine, LineError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut it = fields(line);
    let (mcol, moves) = it.next().ok_or(LineError::MissingScore { column: 1 })?;
    let position = Position::parse(geom, moves)
        .map_err(|error| LineError::Move { column: mcol + error.index() - 1, error })?;
    let (scol, text) =
        it.next().ok_or(LineError::MissingScore { column: mcol + moves.chars().count() + 1 })?;
    let score = text.parse().map_err(|_| LineError::BadScore { column: scol, found: text.to_string() })?;
    if let Some((column, found)) = it.next() {
        return Err(LineError::Trailing { column, found: found.to_string() });
    }
    Ok(JudgeLine { position, score })
}

/// `MOVES SCORE` for `pos` and `score`, the inverse of [`parse_line`].
#[must_use]
pub fn format_line(pos: &Position, score: i32) -> String {
    format!("{} {score}", pos.moves_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let g = Geometry::STANDARD;
        let l = parse_line(g, "2252576253462244111563365343671351441 -1\r").unwrap();
        assert_eq!(l.score, -1);
        assert_eq!(format_line(&l.position, l.score), "2252576253462244111563365343671351441 -1");
    }

    #[test]
    fn errors_name_the_column() {
        let g = Geometry::STANDARD;
        assert_eq!(
            parse_line(g, "  4459 2"),
            Err(LineError::Move { column: 6, error: MoveError::OffBoard { index: 4, column: 9, width: 7 } })
        );
        assert_eq!(parse_line(g, "445"), Err(LineError::MissingScore { column: 5 }));
        assert_eq!(parse_line(g, "445 x"), Err(LineError::BadScore { column: 5, found: "x".into() }));
        assert_eq!(parse_line(g, "445 1 2"), Err(LineError::Trailing { column: 7, found: "2".into() }));
        // A huge field is quoted cut to 40 characters, escaped.
        let long = format!("445 \u{1b}{}", "9".repeat(10_000));
        let message = parse_line(g, &long).unwrap_err().to_string();
        assert_eq!(
            message,
            format!("column 5: expected an integer score, found `\\u{{1b}}{}…`", "9".repeat(39))
        );
        assert_eq!(parse_line(g, ""), Err(LineError::MissingScore { column: 1 }));
    }
}

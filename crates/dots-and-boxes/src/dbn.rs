//! DBN strings (OpenSpiel `dots_and_boxes`, `DbnString` / `NewInitialState(dbn)`): one
//! character per line in action-id order, `1` drawn, `0` not.

use judge_text::TextErrorKind;

use crate::Geometry;

/// What is wrong with a DBN line, without its location ([`ParseError`]).
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The line could not be read (not UTF-8, too long, I/O).
    #[error(transparent)]
    Text(#[from] TextErrorKind),
    /// A character other than `0` and `1`.
    #[error("expected `0` or `1` (line {index} of the {rows}x{cols} board), found {}", judge_text::quote(&found.to_string()))]
    BadCharacter {
        /// The character found.
        found: char,
        /// The line (action id) it stands for.
        index: usize,
        /// Rows of boxes of the board.
        rows: usize,
        /// Columns of boxes of the board.
        cols: usize,
    },
    /// A string of the wrong length.
    #[error("expected a DBN string of {expected} characters (one per line of the {rows}x{cols} board), found {found}")]
    WrongLength {
        /// The number of lines of the board.
        expected: usize,
        /// The number of characters found.
        found: usize,
        /// Rows of boxes of the board.
        rows: usize,
        /// Columns of boxes of the board.
        cols: usize,
    },
}

/// A DBN line that is not a position: `line L, column C: expected …, found …`.
pub type ParseError = judge_text::ParseError<ParseErrorKind>;

/// The drawn lines of the DBN string on line `line` (1-based, for the error) of the input:
/// exactly one `0` or `1` per line of `geometry`, in action-id order, with ASCII white space
/// ([`judge_text::is_space`]) allowed around it. Columns in errors are 1-based characters of
/// `text`.
///
/// # Errors
/// [`ParseErrorKind::BadCharacter`] at the first character other than `0` / `1` within the
/// board's length, else [`ParseErrorKind::WrongLength`] (at the first extra character, or at
/// the end of a short string).
pub fn parse_dbn_line(geometry: &Geometry, line: usize, text: &str) -> Result<u64, ParseError> {
    let (rows, cols, n) = (geometry.rows(), geometry.cols(), geometry.line_count());
    let start = text.chars().take_while(|&c| judge_text::is_space(c)).count();
    let body = text.trim_matches(judge_text::is_space);
    let found = body.chars().count();
    let mut drawn = 0u64;
    for (i, c) in body.chars().enumerate() {
        let column = Some(start + i + 1);
        if i == n {
            let kind = ParseErrorKind::WrongLength { expected: n, found, rows, cols };
            return Err(ParseError { line, column, kind });
        }
        match c {
            '0' => {}
            '1' => drawn |= 1 << i,
            found => {
                let kind = ParseErrorKind::BadCharacter { found, index: i, rows, cols };
                return Err(ParseError { line, column, kind });
            }
        }
    }
    if found < n {
        let kind = ParseErrorKind::WrongLength { expected: n, found, rows, cols };
        return Err(ParseError { line, column: Some(start + found + 1), kind });
    }
    Ok(drawn)
}

/// [`parse_dbn_line`] on a text of one line (line 1 in errors).
///
/// # Errors
/// As [`parse_dbn_line`].
pub fn parse_dbn(geometry: &Geometry, text: &str) -> Result<u64, ParseError> {
    parse_dbn_line(geometry, 1, text.strip_suffix('\n').unwrap_or(text))
}

/// The DBN string of the line set `drawn` on `geometry`: `1` for a drawn line, `0` for the
/// others, in action-id order.
#[must_use]
pub fn dbn_string(geometry: &Geometry, drawn: u64) -> String {
    (0..geometry.line_count()).map(|i| if drawn >> i & 1 == 1 { '1' } else { '0' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dbn_round_trips_and_errors_name_the_column() {
        let g = Geometry::new(1, 1).unwrap();
        assert_eq!(parse_dbn(&g, "1010"), Ok(0b0101));
        assert_eq!(dbn_string(&g, 0b0101), "1010");
        assert_eq!(parse_dbn(&g, " 1111\r"), Ok(0b1111));
        let e = parse_dbn_line(&g, 3, "10x0").unwrap_err();
        assert_eq!((e.line, e.column), (3, Some(3)));
        assert_eq!(
            e.to_string(),
            "line 3, column 3: expected `0` or `1` (line 2 of the 1x1 board), found `x`"
        );
        let e = parse_dbn(&g, "101").unwrap_err();
        assert_eq!(e.column, Some(4));
        assert_eq!(
            e.to_string(),
            "line 1, column 4: expected a DBN string of 4 characters (one per line of the 1x1 board), found 3"
        );
        let e = parse_dbn(&g, "10101").unwrap_err();
        assert_eq!(e.column, Some(5));
        assert!(matches!(e.kind, ParseErrorKind::WrongLength { expected: 4, found: 5, .. }));
        assert!(matches!(parse_dbn(&g, "").unwrap_err().kind, ParseErrorKind::WrongLength { found: 0, .. }));
    }
}

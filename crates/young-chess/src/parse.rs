//! [`parse_from`] and [`parse`]: the judge's input format (LOJ 2471), read as a stream,
//! validated, with line-and-column errors in the shared judge-text wording (`line L, column C:
//! expected X, found Y`, the offending text quoted with escapes).

use std::io::BufRead;

use judge_text::{LineReader, TextErrorKind};
use thiserror::Error;

use crate::{Board, Cell, MAX_SIDE_SUM, MAX_VALUE};

/// A parse error: the 1-based line (and column) it was found at and what was wrong
/// (the workspace's one parse-error type, [`judge_text::ParseError`]).
pub type ParseError = judge_text::ParseError<ParseErrorKind>;

/// What is wrong with the input, without its location.
#[derive(Debug, Error, PartialEq)]
pub enum ParseErrorKind {
    /// The text does not follow the format (`expected X, found Y`: a token that is not a number
    /// or out of range, a line with the wrong count of values, early end of input, text after
    /// matrix B), or could not be read (I/O error, not UTF-8, overlong line).
    #[error(transparent)]
    Text(TextErrorKind),
    /// `n + m > MAX_SIDE_SUM`.
    #[error("board {n} x {m} too large: n + m must be at most {MAX_SIDE_SUM}")]
    BoardTooLarge {
        /// Rows.
        n: usize,
        /// Columns.
        m: usize,
    },
}

impl From<TextErrorKind> for ParseErrorKind {
    fn from(kind: TextErrorKind) -> Self {
        ParseErrorKind::Text(kind)
    }
}

/// Parses the judge's input from `reader`: a line `n m` (positive, `n + m <= 64`), then `n`
/// lines of `m` non-negative integers (matrix A, Black's values), then `n` lines of `m` (matrix
/// B, White's). Values are at most [`MAX_VALUE`]. Memory is one line plus the board.
///
/// Lines may carry extra spaces, tabs and a trailing `\r`; blank lines are skipped anywhere; a
/// leading UTF-8 byte-order mark is skipped. Anything non-blank after matrix B is an error.
/// Never panics.
///
/// # Errors
/// [`ParseError`] naming the first problem's line and column, including input that cannot be
/// read (an I/O error of `reader`, bytes that are not UTF-8, a line longer than
/// [`judge_text::MAX_LINE_BYTES`]).
pub fn parse_from<R: BufRead>(reader: R) -> Result<Board, ParseError> {
    let mut lines = LineReader::new(reader);
    let size = "the board size `n m`";
    let Some(line) = lines.next_non_blank()? else {
        return Err(lines.end_of_input(size).into());
    };
    let [n, m] = line.fields(|| size.to_string())?;
    let max_side = MAX_SIDE_SUM as u64 - 1;
    let n = n.int("the number of rows n", 1, max_side)? as usize;
    let m = m.int("the number of columns m", 1, max_side)? as usize;
    if n + m > MAX_SIDE_SUM {
        return Err(ParseError {
            line: line.number,
            column: Some(1),
            kind: ParseErrorKind::BoardTooLarge { n, m },
        });
    }

    let mut matrices = [Vec::with_capacity(n * m), Vec::with_capacity(n * m)];
    for (mat, name) in matrices.iter_mut().zip(['A', 'B']) {
        for r in 0..n {
            let what =
                || format!("row {} of matrix {name}: {m} value{}", r + 1, if m == 1 { "" } else { "s" });
            let Some(line) = lines.next_non_blank()? else {
                return Err(lines.end_of_input(what()).into());
            };
            for t in line.exactly(m, what)? {
                mat.push(t.int("a value", 0, MAX_VALUE as u64)? as i64);
            }
        }
    }
    lines.expect_end("matrix B")?;
    let [a, b] = matrices;
    Ok(Board::new(n, m, a, b).expect("parsed board is valid by construction"))
}

/// [`parse_from`] over a string.
///
/// # Errors
/// As [`parse_from`].
pub fn parse(text: &str) -> Result<Board, ParseError> {
    parse_from(text.as_bytes())
}

/// Why `parse_cell_text` refused a move typed by a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not two numbers.
    #[error("expected a cell as `row,col` (0-based, e.g. `1,2`), found {}", judge_text::quote(.0))]
    NotACell(String),
    /// A cell off the board.
    #[error("cell {row},{col} is off the {rows} x {cols} board")]
    OffBoard {
        /// 0-based row typed.
        row: u64,
        /// 0-based column typed.
        col: u64,
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
    },
}

/// A cell typed by a person: `row,col` or `row col`, 0-based (`1,2`), on `board`. Whether it
/// can take a stone now is the caller's question ([`crate::Staircase::moves`]).
///
/// # Errors
/// [`MoveError`]: not two non-negative integers, or a cell off the board.
pub fn parse_cell_text(board: &Board, text: &str) -> Result<Cell, MoveError> {
    let (row, col) =
        judge_text::parse_pair(text, ',').ok_or_else(|| MoveError::NotACell(text.to_string()))?;
    let (rows, cols) = (board.rows(), board.cols());
    if row >= rows as u64 || col >= cols as u64 {
        return Err(MoveError::OffBoard { row, col, rows, cols });
    }
    // Below `MAX_SIDE_SUM`, so they fit `u8`.
    Ok(Cell { row: row as u8, col: col as u8 })
}

#[cfg(test)]
mod tests {
    use std::io::{self, Read};

    use super::*;

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn sample_parses() {
        let b = parse("2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
        assert_eq!((b.rows(), b.cols()), (2, 3));
        assert_eq!(b.a(1, 0), 9);
        assert_eq!(b.b(1, 2), 1);
    }

    #[test]
    fn tolerant_whitespace_and_bom() {
        let b = parse("\u{feff}\r\n 1  2 \r\n\t5 6\r\n\r\n7 8\r\n\n\n").unwrap();
        assert_eq!(b.a_values(), &[5, 6]);
        assert_eq!(b.b_values(), &[7, 8]);
    }

    #[test]
    fn every_error_kind_names_line_and_column() {
        let cases = [
            ("2 3\n2 7 3\n9 1 2\n3 7 x\n2 3 1\n", "line 4, column 5: expected a value (an integer from 0 to 1000000000000000), found `x`"),
            ("1 1\n-3\n4\n", "line 2, column 1: expected a value (an integer from 0 to 1000000000000000), found `-3`"),
            ("0 3\n", "line 1, column 1: expected the number of rows n (an integer from 1 to 63), found `0`"),
            ("3 0\n", "line 1, column 3: expected the number of columns m (an integer from 1 to 63), found `0`"),
            ("2\n", "line 1, column 2: expected the board size `n m`, found 1 number: `2`"),
            ("", "line 1: expected the board size `n m`, found end of input"),
            ("\n\n", "line 3: expected the board size `n m`, found end of input"),
            ("2 2\n1 2\n3 4\n5 6\n", "line 5: expected row 2 of matrix B: 2 values, found end of input"),
            ("1 2\n1 2 3\n", "line 2, column 5: expected row 1 of matrix A: 2 values, found 3 numbers: `1 2 3`"),
            ("1 2\n1\n", "line 2, column 2: expected row 1 of matrix A: 2 values, found 1 number: `1`"),
            ("1 1\n1\n2\n3\n", "line 4, column 1: expected end of input after matrix B, found `3`"),
            ("1 1\n1\n2\n   trailing \u{1b}]0;title\u{7}\n", "line 4, column 4: expected end of input after matrix B, found `trailing \\u{1b}]0;title\\u{7}`"),
            ("1 1\n1000000000000001\n0\n", "line 2, column 1: expected a value (an integer from 0 to 1000000000000000), found `1000000000000001`"),
            ("1 1\n99999999999999999999999999999999999999999999\n0\n", "line 2, column 1: expected a value (an integer from 0 to 1000000000000000), found `9999999999999999999999999999999999999999…`"),
            ("40 30\n", "line 1, column 1: board 40 x 30 too large: n + m must be at most 64"),
            ("64 1\n", "line 1, column 1: expected the number of rows n (an integer from 1 to 63), found `64`"),
            ("1 1\n+1\n1\n", "line 2, column 1: expected a value (an integer from 0 to 1000000000000000), found `+1`"),
            ("1 1\n１\n1\n", "line 2, column 1: expected a value (an integer from 0 to 1000000000000000), found `１`"),
        ];
        for (text, message) in cases {
            assert_eq!(err(text), message, "{text:?}");
        }
        let e = parse("40 30\n").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BoardTooLarge { n: 40, m: 30 });
    }

    #[test]
    fn not_utf8_and_io_errors() {
        let e = parse_from(&b"1 2\n3 \xe2\x82\n"[..]).unwrap_err();
        assert_eq!(e.to_string(), "line 2, column 3: expected UTF-8 text, found `\\xe2\\x82`");
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = parse_from(io::BufReader::new(Read::chain(&b"1 1\n5\n"[..], Failing))).unwrap_err();
        assert_eq!(e.to_string(), "line 3: cannot read the input: disk on fire");
        assert!(matches!(e.kind, ParseErrorKind::Text(TextErrorKind::Io(_))));
    }

    #[test]
    fn one_byte_chunks_give_the_same_results() {
        let inputs = [
            "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
            "\u{feff}1 1\r\n1\r\n2\r\n",
            "1 1\n1\n2\n3",
            "",
            "2 2\n1 2\n",
        ];
        for text in inputs {
            for chunk in [1, 2, 5] {
                assert_eq!(
                    parse(text),
                    parse_from(judge_text::ChunkedReader::new(text.as_bytes(), chunk)),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn cell_texts() {
        let board = parse("2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n").unwrap();
        assert_eq!(parse_cell_text(&board, "1,2"), Ok(Cell { row: 1, col: 2 }));
        assert_eq!(parse_cell_text(&board, "0 0"), Ok(Cell { row: 0, col: 0 }));
        assert_eq!(
            parse_cell_text(&board, "2,0").unwrap_err().to_string(),
            "cell 2,0 is off the 2 x 3 board"
        );
        assert_eq!(
            parse_cell_text(&board, "0,300").unwrap_err(),
            MoveError::OffBoard { row: 0, col: 300, rows: 2, cols: 3 }
        );
        assert_eq!(
            parse_cell_text(&board, "a,b\u{202e}").unwrap_err().to_string(),
            "expected a cell as `row,col` (0-based, e.g. `1,2`), found `a,b\\u{202e}`"
        );
    }

    #[test]
    fn never_panics_on_junk() {
        for text in ["", "\n", "x", "1", "1 1", "1 1\n", "99999999999999999999 1", "1 1\n1 \n é", "\u{0}"] {
            let _ = parse(text);
        }
    }
}

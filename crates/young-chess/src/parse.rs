//! [`parse`]: the judge's input format (LOJ 2471), validated, with line-and-column errors.

use thiserror::Error;

use crate::{Board, MAX_SIDE_SUM, MAX_VALUE};

/// A parse error at a 1-based line and column (columns count characters). Displays as
/// `line 3, column 5: expected a non-negative integer, found "x"`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters) where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with the input, without its location.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A token that is not a non-negative decimal integer (includes negative numbers).
    #[error("expected a non-negative integer, found {0:?}")]
    NotANumber(String),
    /// `n` or `m` is 0.
    #[error("expected a positive integer for {what}, found {found:?}")]
    NotPositive {
        /// `"n"` or `"m"`.
        what: &'static str,
        /// The token.
        found: String,
    },
    /// A number above its maximum ([`MAX_VALUE`] for cell values).
    #[error("value {found} is too large (at most {max})")]
    TooLarge {
        /// The token.
        found: String,
        /// The largest accepted value.
        max: u64,
    },
    /// `n + m > MAX_SIDE_SUM`.
    #[error("board {n} x {m} too large: n + m must be at most {MAX_SIDE_SUM}")]
    BoardTooLarge {
        /// Rows.
        n: usize,
        /// Columns.
        m: usize,
    },
    /// A line with too few or too many values.
    #[error("expected {expected} values on {what}, found {found}")]
    WrongCount {
        /// What the line holds, e.g. `row 2 of matrix A`.
        what: String,
        /// Values expected.
        expected: usize,
        /// Values found.
        found: usize,
    },
    /// The input ended early.
    #[error("expected {0}, found end of input")]
    UnexpectedEnd(String),
    /// Non-blank text after the last row of matrix B.
    #[error("unexpected text after the matrices: {0:?}")]
    TrailingText(String),
}

/// One whitespace-separated token with its 1-based column.
struct Token<'a> {
    text: &'a str,
    column: usize,
}

fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte index, column)
    for (col, (i, ch)) in line.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((s, c)) = start.take() {
                out.push(Token { text: &line[s..i], column: c + 1 });
            }
        } else if start.is_none() {
            start = Some((i, col));
        }
    }
    if let Some((s, c)) = start {
        out.push(Token { text: &line[s..], column: c + 1 });
    }
    out
}

/// A non-negative decimal integer (ASCII digits only, no sign) at most `max`.
fn number(tok: &Token<'_>, line: usize, max: u64) -> Result<u64, ParseError> {
    let err = |kind| ParseError { line, column: tok.column, kind };
    if tok.text.is_empty() || !tok.text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(ParseErrorKind::NotANumber(tok.text.to_string())));
    }
    match tok.text.parse::<u64>() {
        Ok(v) if v <= max => Ok(v),
        _ => Err(err(ParseErrorKind::TooLarge { found: tok.text.to_string(), max })),
    }
}

/// Parses the judge's input: a line `n m` (positive, `n + m <= 64`), then `n` lines of `m`
/// non-negative integers (matrix A, Black's values), then `n` lines of `m` (matrix B, White's).
/// Values are at most [`MAX_VALUE`].
///
/// Lines may carry extra spaces, tabs and a trailing `\r`; blank lines are skipped anywhere.
/// Anything non-blank after matrix B is an error. Never panics.
///
/// # Errors
/// [`ParseError`] naming the first problem's line and column.
pub fn parse(text: &str) -> Result<Board, ParseError> {
    let mut lines =
        text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l))).peekable();
    let end_line = text.lines().count() + 1;
    // The next non-blank line, its number and tokens; or an end-of-input error.
    let mut next_line = |what: &str| -> Result<(usize, Vec<Token<'_>>), ParseError> {
        for (no, line) in lines.by_ref() {
            let toks = tokens(line);
            if !toks.is_empty() {
                return Ok((no, toks));
            }
        }
        Err(ParseError { line: end_line, column: 1, kind: ParseErrorKind::UnexpectedEnd(what.to_string()) })
    };

    let (no, toks) = next_line("the board size \"n m\"")?;
    let count_err = |no: usize, toks: &[Token<'_>], what: &str, expected: usize, last_col: usize| {
        let column = toks.get(expected).map_or(last_col, |t| t.column);
        ParseError {
            line: no,
            column,
            kind: ParseErrorKind::WrongCount { what: what.to_string(), expected, found: toks.len() },
        }
    };
    let end_col = |toks: &[Token<'_>]| toks.last().map_or(1, |t| t.column + t.text.chars().count());
    if toks.len() != 2 {
        return Err(count_err(no, &toks, "the first line (n m)", 2, end_col(&toks)));
    }
    let mut dims = [0usize; 2];
    for (k, what) in ["n", "m"].into_iter().enumerate() {
        let v = usize::try_from(number(&toks[k], no, u64::MAX)?).unwrap_or(usize::MAX);
        if v == 0 {
            return Err(ParseError {
                line: no,
                column: toks[k].column,
                kind: ParseErrorKind::NotPositive { what, found: toks[k].text.to_string() },
            });
        }
        dims[k] = v;
    }
    let [n, m] = dims;
    if n.saturating_add(m) > MAX_SIDE_SUM {
        return Err(ParseError { line: no, column: 1, kind: ParseErrorKind::BoardTooLarge { n, m } });
    }

    let mut matrices = [Vec::with_capacity(n * m), Vec::with_capacity(n * m)];
    for (mat, name) in matrices.iter_mut().zip(['A', 'B']) {
        for r in 0..n {
            let what = format!("row {} of matrix {name}", r + 1);
            let (no, toks) = next_line(&format!("{what} ({m} values)"))?;
            if toks.len() != m {
                return Err(count_err(no, &toks, &what, m, end_col(&toks)));
            }
            for t in &toks {
                mat.push(number(t, no, MAX_VALUE as u64)? as i64);
            }
        }
    }
    for (no, line) in lines {
        if let Some(t) = tokens(line).first() {
            let rest: String = line.trim().chars().take(20).collect();
            return Err(ParseError { line: no, column: t.column, kind: ParseErrorKind::TrailingText(rest) });
        }
    }
    let [a, b] = matrices;
    Ok(Board::new(n, m, a, b).expect("parsed board is valid by construction"))
}

#[cfg(test)]
mod tests {
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
    fn tolerant_whitespace() {
        let b = parse("\r\n 1  2 \r\n\t5 6\r\n\r\n7 8\r\n\n\n").unwrap();
        assert_eq!(b.a_values(), &[5, 6]);
        assert_eq!(b.b_values(), &[7, 8]);
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err("2 3\n2 7 3\n9 1 2\n3 7 x\n2 3 1\n"),
            "line 4, column 5: expected a non-negative integer, found \"x\""
        );
        assert_eq!(err("1 1\n-3\n4\n"), "line 2, column 1: expected a non-negative integer, found \"-3\"");
        assert_eq!(err("0 3\n"), "line 1, column 1: expected a positive integer for n, found \"0\"");
        assert_eq!(err("2\n"), "line 1, column 2: expected 2 values on the first line (n m), found 1");
        assert_eq!(err(""), "line 1, column 1: expected the board size \"n m\", found end of input");
        assert_eq!(
            err("2 2\n1 2\n3 4\n5 6\n"),
            "line 5, column 1: expected row 2 of matrix B (2 values), found end of input"
        );
        assert_eq!(err("1 2\n1 2 3\n"), "line 2, column 5: expected 2 values on row 1 of matrix A, found 3");
        assert_eq!(err("1 2\n1\n"), "line 2, column 2: expected 2 values on row 1 of matrix A, found 1");
        assert_eq!(err("1 1\n1\n2\n3\n"), "line 4, column 1: unexpected text after the matrices: \"3\"");
        assert_eq!(
            err("1 1\n1000000000000001\n0\n"),
            "line 2, column 1: value 1000000000000001 is too large (at most 1000000000000000)"
        );
        assert_eq!(err("40 30\n"), "line 1, column 1: board 40 x 30 too large: n + m must be at most 64");
        assert_eq!(err("1 1\n+1\n1\n"), "line 2, column 1: expected a non-negative integer, found \"+1\"");
        assert_eq!(err("1 1\n１\n1\n"), "line 2, column 1: expected a non-negative integer, found \"１\"");
    }

    #[test]
    fn never_panics_on_junk() {
        for text in ["", "\n", "x", "1", "1 1", "1 1\n", "99999999999999999999 1", "1 1\n1 \n é", "\u{0}"] {
            let _ = parse(text);
        }
    }
}

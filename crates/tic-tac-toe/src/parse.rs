//! The two judge input formats, parsed lazily into validated positions with line numbers in
//! errors: UVa 10111's `?` blocks ([`parse_uva`]) and CCF CSP 201803-4's boards of `0 1 2`
//! ([`parse_ccf`]). Both are iterators that yield each case as soon as it is read and stop
//! after the first error, so a caller can answer the good cases before reporting the bad one.

use crate::{Bitboard, Geometry, Mark, Position, PositionError, Setup};

/// A parse error: the 1-based line it was found on and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number (one past the last line for an unexpected end of input).
    pub line: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What a [`ParseError`] found wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The text does not follow the format.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the format requires here.
        expected: String,
        /// What the input has instead (quoted), or `end of input`.
        found: String,
    },
    /// A well-formed case whose position cannot arise in play.
    #[error("case {case}: impossible position: {error}")]
    Impossible {
        /// 1-based case number.
        case: usize,
        /// Why the position is impossible.
        error: PositionError,
    },
}

/// One parsed case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// 1-based case number.
    pub number: usize,
    /// 1-based line where the case starts (the `?` line, or the board's first row).
    pub line: usize,
    /// The validated position.
    pub position: Position,
}

/// Lines with their 1-based numbers, skipping nothing.
struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    last: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { inner: text.lines().enumerate(), last: 0 }
    }

    /// The next line (trimmed of surrounding white space) and its number.
    fn next_raw(&mut self) -> Option<(usize, &'a str)> {
        let (i, line) = self.inner.next()?;
        self.last = i + 1;
        // A byte-order mark (from some editors) is not content.
        Some((i + 1, line.trim().trim_start_matches('\u{feff}')))
    }

    /// The next line that is not blank.
    fn next_non_blank(&mut self) -> Option<(usize, &'a str)> {
        loop {
            let (n, line) = self.next_raw()?;
            if !line.is_empty() {
                return Some((n, line));
            }
        }
    }

    /// The line number an unexpected end of input is reported at.
    fn end_line(&self) -> usize {
        self.last + 1
    }
}

fn expected(line: usize, expected: impl Into<String>, found: impl Into<String>) -> ParseError {
    ParseError { line, kind: ParseErrorKind::Expected { expected: expected.into(), found: found.into() } }
}

fn quoted(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() > MAX {
        format!("{:?}…", text.chars().take(MAX).collect::<String>())
    } else {
        format!("{text:?}")
    }
}

/// Parses UVa 10111's input for boards of `geometry`: cases, each a line `?` then `rows` lines
/// of `cols` characters from `.`, `x`, `o`, until a line starting with `$` (a missing `$` at
/// the end of the input is accepted). Blank lines between cases are skipped; x is to move in
/// every case.
///
/// Yields each case, then stops after the first error: a line that is neither `?` nor `$`, a
/// short, long or missing row, a character other than `.`, `x`, `o`, or a position that cannot
/// arise with x to move ([`ParseErrorKind::Impossible`], at the case's `?` line).
pub fn parse_uva(text: &str, geometry: Geometry) -> UvaCases<'_> {
    UvaCases { lines: Lines::new(text), geometry, case: 0, done: false }
}

/// The iterator of [`parse_uva`].
pub struct UvaCases<'a> {
    lines: Lines<'a>,
    geometry: Geometry,
    case: usize,
    done: bool,
}

impl UvaCases<'_> {
    fn read_case(&mut self, start: usize) -> Result<Case, ParseError> {
        let g = self.geometry;
        let row_text = format!("a row of {} characters from '.', 'x', 'o'", g.cols());
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for r in 0..g.rows() {
            let Some((n, line)) = self.lines.next_raw() else {
                return Err(expected(self.lines.end_line(), row_text, "end of input"));
            };
            let len = line.chars().count();
            for (c, ch) in line.chars().enumerate() {
                let bit = Bitboard::single((r * g.cols() + c.min(g.cols() - 1)) as u32);
                match ch {
                    '.' => {}
                    'x' => x |= bit,
                    'o' => o |= bit,
                    _ => {
                        return Err(expected(
                            n,
                            "'.', 'x' or 'o'",
                            format!("{ch:?} in column {} of {}", c + 1, quoted(line)),
                        ))
                    }
                }
            }
            if len != g.cols() {
                return Err(expected(n, row_text, format!("{} ({len} characters)", quoted(line))));
            }
        }
        self.case += 1;
        let setup = Setup { geometry: g, x, o, to_move: Mark::X };
        let position = Position::try_from(setup).map_err(|error| ParseError {
            line: start,
            kind: ParseErrorKind::Impossible { case: self.case, error },
        })?;
        Ok(Case { number: self.case, line: start, position })
    }
}

impl Iterator for UvaCases<'_> {
    type Item = Result<Case, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let result = match self.lines.next_non_blank() {
            None => None,
            Some((_, line)) if line.starts_with('$') => None,
            Some((n, "?")) => Some(self.read_case(n)),
            Some((n, line)) => Some(Err(expected(n, "'?' or '$'", quoted(line)))),
        };
        if !matches!(result, Some(Ok(_))) {
            self.done = true;
        }
        result
    }
}

/// Parses CCF CSP 201803-4's input: a line with the number of boards T (any T >= 0), then T
/// boards of 3 lines of 3 numbers each from `0` (empty), `1` (Alice, x), `2` (Bob, o), separated
/// by white space. Blank lines are skipped; Alice is to move in every board.
///
/// Yields each board, then stops after the first error: a bad T, a row without exactly three
/// numbers, a number other than 0, 1, 2, a missing board, text after the T-th board, or a
/// position that cannot arise with Alice to move ([`ParseErrorKind::Impossible`], at the
/// board's first line).
pub fn parse_ccf(text: &str) -> CcfCases<'_> {
    CcfCases { lines: Lines::new(text), total: None, case: 0, done: false }
}

/// The iterator of [`parse_ccf`].
pub struct CcfCases<'a> {
    lines: Lines<'a>,
    total: Option<usize>,
    case: usize,
    done: bool,
}

impl CcfCases<'_> {
    fn read_total(&mut self) -> Result<usize, ParseError> {
        let what = "the number of boards T";
        let Some((n, line)) = self.lines.next_non_blank() else {
            return Err(expected(self.lines.end_line(), what, "end of input"));
        };
        line.parse::<usize>().map_err(|_| expected(n, what, quoted(line)))
    }

    fn read_board(&mut self, total: usize) -> Result<Case, ParseError> {
        let g = Geometry::CCF;
        let board = self.case + 1;
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut start = 0;
        for r in 0..3 {
            let Some((n, line)) = self.lines.next_non_blank() else {
                return Err(expected(
                    self.lines.end_line(),
                    format!("row {} of board {board} of {total}", r + 1),
                    "end of input",
                ));
            };
            if r == 0 {
                start = n;
            }
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.len() != 3 {
                return Err(expected(
                    n,
                    "a row of 3 numbers from 0, 1, 2",
                    format!("{} ({} numbers)", quoted(line), tokens.len()),
                ));
            }
            for (c, token) in tokens.into_iter().enumerate() {
                let bit = Bitboard::single((r * 3 + c) as u32);
                match token {
                    "0" => {}
                    "1" => x |= bit,
                    "2" => o |= bit,
                    _ => {
                        return Err(expected(
                            n,
                            "0, 1 or 2",
                            format!("{} in column {}", quoted(token), c + 1),
                        ))
                    }
                }
            }
        }
        self.case = board;
        let setup = Setup { geometry: g, x, o, to_move: Mark::X };
        let position = Position::try_from(setup).map_err(|error| ParseError {
            line: start,
            kind: ParseErrorKind::Impossible { case: board, error },
        })?;
        Ok(Case { number: board, line: start, position })
    }
}

impl Iterator for CcfCases<'_> {
    type Item = Result<Case, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let total = match self.total {
            Some(t) => t,
            None => match self.read_total() {
                Ok(t) => {
                    self.total = Some(t);
                    t
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            },
        };
        let result = if self.case < total {
            Some(self.read_board(total))
        } else {
            self.lines
                .next_non_blank()
                .map(|(n, line)| Err(expected(n, format!("end of input after {total} boards"), quoted(line))))
        };
        if !matches!(result, Some(Ok(_))) {
            self.done = true;
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UVA_SAMPLE: &str = "?\n....\n.xo.\n.ox.\n....\n?\no...\n.ox.\n.xxx\nxooo\n$\n";
    const CCF_SAMPLE: &str = "3\n1 2 1\n2 1 2\n0 0 0\n2 1 1\n0 2 1\n0 0 2\n0 0 0\n0 0 0\n0 0 0\n";

    fn errors_of(results: Vec<Result<Case, ParseError>>) -> (usize, Option<String>) {
        let ok = results.iter().filter(|r| r.is_ok()).count();
        let err = results.into_iter().find_map(Result::err).map(|e| e.to_string());
        (ok, err)
    }

    #[test]
    fn uva_sample_and_missing_dollar() {
        let cases: Vec<Case> = parse_uva(UVA_SAMPLE, Geometry::UVA).collect::<Result<_, _>>().unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].line, 6);
        assert_eq!(cases[0].position.grid(), "....\n.xo.\n.ox.\n....\n");
        let no_dollar = UVA_SAMPLE.trim_end_matches("$\n");
        assert_eq!(parse_uva(no_dollar, Geometry::UVA).count(), 2);
        assert_eq!(parse_uva("", Geometry::UVA).count(), 0);
        assert_eq!(parse_uva("$\n?\nbad", Geometry::UVA).count(), 0);
    }

    #[test]
    fn uva_errors_name_line_and_case() {
        let bad_char = "?\n....\n.xa.\n....\n....\n$\n";
        let (ok, err) = errors_of(parse_uva(bad_char, Geometry::UVA).collect());
        assert_eq!(ok, 0);
        assert_eq!(err.unwrap(), "line 3: expected '.', 'x' or 'o', found 'a' in column 3 of \".xa.\"");
        let short = "?\n....\n...\n";
        let (_, err) = errors_of(parse_uva(short, Geometry::UVA).collect());
        assert!(err.unwrap().starts_with("line 3: expected a row of 4 characters"));
        let eof = "?\n....\n";
        let (_, err) = errors_of(parse_uva(eof, Geometry::UVA).collect());
        assert_eq!(
            err.unwrap(),
            "line 3: expected a row of 4 characters from '.', 'x', 'o', found end of input"
        );
        let counts = UVA_SAMPLE.replace("$\n", "?\nxx..\n....\n....\n.o..\n$\n");
        let results: Vec<_> = parse_uva(&counts, Geometry::UVA).collect();
        let (ok, err) = errors_of(results);
        assert_eq!(ok, 2);
        assert!(err.unwrap().starts_with("line 11: case 3: impossible position: 2 x and 1 o"));
        let (_, err) = errors_of(parse_uva("hello", Geometry::UVA).collect());
        assert_eq!(err.unwrap(), "line 1: expected '?' or '$', found \"hello\"");
    }

    #[test]
    fn ccf_sample_and_errors() {
        let cases: Vec<Case> = parse_ccf(CCF_SAMPLE).collect::<Result<_, _>>().unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[1].line, 5);
        assert_eq!(cases[1].position.winner(), Some(Mark::O));
        let (_, err) = errors_of(parse_ccf("x\n").collect());
        assert_eq!(err.unwrap(), "line 1: expected the number of boards T, found \"x\"");
        let (ok, err) = errors_of(parse_ccf("2\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 3 0\n").collect());
        assert_eq!(ok, 1);
        assert_eq!(err.unwrap(), "line 6: expected 0, 1 or 2, found \"3\" in column 2");
        let (_, err) = errors_of(parse_ccf("1\n0 0\n").collect());
        assert_eq!(
            err.unwrap(),
            "line 2: expected a row of 3 numbers from 0, 1, 2, found \"0 0\" (2 numbers)"
        );
        let (_, err) = errors_of(parse_ccf("1\n0 0 0\n").collect());
        assert_eq!(err.unwrap(), "line 3: expected row 2 of board 1 of 1, found end of input");
        let (ok, err) = errors_of(parse_ccf("1\n0 0 0\n0 0 0\n0 0 0\n1\n").collect());
        assert_eq!(ok, 1);
        assert_eq!(err.unwrap(), "line 5: expected end of input after 1 boards, found \"1\"");
        let (_, err) = errors_of(parse_ccf("1\n1 1 1\n2 2 0\n2 0 0\n").collect());
        assert_eq!(
            err.unwrap(),
            "line 2: case 1: impossible position: x has a line but is to move: the game ended when x completed it"
        );
        assert_eq!(parse_ccf("0\n").count(), 0);
    }
}

//! The two judge input formats, read as streams and parsed lazily into validated positions:
//! UVa 10111's `?` blocks ([`parse_uva_from`], [`parse_uva`]) and CCF CSP 201803-4's boards of
//! `0 1 2` ([`parse_ccf_from`], [`parse_ccf`]). Both are iterators that read and yield one case
//! at a time and stop after the first error, so a caller can answer the good cases before
//! reporting the bad one. Lines, tokens, numbers and the wording of errors (`line L, column C:
//! expected X, found Y`, the text quoted with escapes) come from the shared judge-text lexer.

use std::io::BufRead;

use judge_text::{describe_int, LineReader, TextError, TextErrorKind};

use crate::{Bitboard, Cell, Geometry, Mark, Position, PositionError, Setup};

/// A parse error: the 1-based line (and column) it was found at and what was wrong
/// (the workspace's one parse-error type, [`judge_text::ParseError`]).
pub type ParseError = judge_text::ParseError<ParseErrorKind>;

/// What a [`ParseError`] found wrong.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The text does not follow the format (`expected X, found Y`), or could not be read (I/O
    /// error, not UTF-8, overlong line).
    #[error(transparent)]
    Text(TextErrorKind),
    /// A well-formed UVa case whose position cannot arise in play (in x and o).
    #[error("case {case}: impossible position: {error}")]
    Impossible {
        /// 1-based case number.
        case: usize,
        /// Why the position is impossible.
        error: PositionError,
    },
    /// A well-formed CCF board whose position cannot arise in play, told in the input's terms:
    /// 1 for Alice's stones (x), 2 for Bob's (o).
    #[error("board {case}: impossible position: {}", ccf_words(error))]
    ImpossibleBoard {
        /// 1-based board number.
        case: usize,
        /// Why the position is impossible (in x and o; displayed in 1 and 2).
        error: PositionError,
    },
}

impl From<TextErrorKind> for ParseErrorKind {
    fn from(kind: TextErrorKind) -> Self {
        ParseErrorKind::Text(kind)
    }
}

/// A [`PositionError`] of a CCF board in the input's numbers: 1 is Alice (x), 2 is Bob (o).
fn ccf_words(error: &PositionError) -> String {
    let n = |m: &Mark| if *m == Mark::X { "1" } else { "2" };
    match error {
        PositionError::Counts { x, o, to_move: Mark::X } => format!(
            "{x} cells of 1 and {o} of 2 cannot have Alice (1) to move: Alice moves first, so it needs as many 1s as 2s"
        ),
        PositionError::Counts { x, o, .. } => {
            format!("{x} cells of 1 and {o} of 2 cannot have Bob (2) to move: it needs one 1 more than 2s")
        }
        PositionError::BothWon => "both 1 and 2 have three in a row".to_string(),
        PositionError::WinnerNotLastMover { winner } => {
            let w = n(winner);
            format!("{w} has three in a row but is to move: the game ended when {w} completed it")
        }
        PositionError::DisjointLines { winner } => {
            format!("{} has lines that no single last move could have completed", n(winner))
        }
        PositionError::Overlap => "a cell holds both 1 and 2".to_string(),
        PositionError::OffBoard { .. } => error.to_string(),
    }
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

/// Parses UVa 10111's input for boards of `geometry` from `reader`, lazily: cases, each a line
/// `?` then `rows` lines of `cols` characters from `.`, `x`, `o`, until a line starting with
/// `$` (a missing `$` after the last case is accepted). Blank lines are skipped (between cases
/// and between rows, as in every judge format here);
/// x is to move in every case. A leading UTF-8 byte-order mark is skipped.
///
/// Yields each case, then stops after the first error: no input at all, a line that is neither
/// `?` nor `$`, a short, long or missing row, a character other than `.`, `x`, `o`, non-blank
/// text after the `$` line, input that cannot be read (I/O error, not UTF-8, a line longer than
/// [`judge_text::MAX_LINE_BYTES`]), or a position that cannot arise with x to move
/// ([`ParseErrorKind::Impossible`], at the case's `?` line).
pub fn parse_uva_from<R: BufRead>(reader: R, geometry: Geometry) -> UvaCases<R> {
    UvaCases { lines: LineReader::new(reader), geometry, case: 0, done: false }
}

/// [`parse_uva_from`] over a string.
pub fn parse_uva(text: &str, geometry: Geometry) -> UvaCases<&[u8]> {
    parse_uva_from(text.as_bytes(), geometry)
}

/// The iterator of [`parse_uva_from`].
pub struct UvaCases<R> {
    lines: LineReader<R>,
    geometry: Geometry,
    case: usize,
    done: bool,
}

impl<R: BufRead> UvaCases<R> {
    fn read_case(&mut self, start: usize) -> Result<Case, ParseError> {
        let g = self.geometry;
        let case = self.case + 1;
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for r in 0..g.rows() {
            let what = || format!("row {} of case {case}: {} characters from `.`, `x`, `o`", r + 1, g.cols());
            let Some(line) = self.lines.next_non_blank()? else {
                return Err(self.lines.end_of_input(what()).into());
            };
            let (column, text) = line.trimmed();
            let mut len = 0;
            for (c, ch) in text.chars().enumerate() {
                let bit = Bitboard::single((r * g.cols() + c.min(g.cols() - 1)) as u32);
                match ch {
                    '.' => {}
                    'x' => x |= bit,
                    'o' => o |= bit,
                    _ => {
                        let found = judge_text::Found::Text(ch.to_string());
                        let expected = "`.`, `x` or `o`".to_string();
                        return Err(
                            TextError::expected(line.number, Some(column + c), expected, found).into()
                        );
                    }
                }
                len += 1;
            }
            if len != g.cols() {
                let found = judge_text::Found::Text(text.to_string());
                let at = column + len.min(g.cols());
                return Err(TextError::expected(line.number, Some(at), what(), found).into());
            }
        }
        self.case = case;
        let setup = Setup { geometry: g, x, o, to_move: Mark::X };
        let position = Position::try_from(setup).map_err(|error| ParseError {
            line: start,
            column: None,
            kind: ParseErrorKind::Impossible { case, error },
        })?;
        Ok(Case { number: case, line: start, position })
    }

    fn next_case(&mut self) -> Result<Option<Case>, ParseError> {
        let expected = || {
            if self.case == 0 {
                "the first case (a line `?`)".to_string()
            } else {
                format!("case {} (a line `?`) or the end (a line `$`)", self.case + 1)
            }
        };
        let Some(line) = self.lines.next_non_blank()? else {
            return if self.case == 0 { Err(self.lines.end_of_input(expected()).into()) } else { Ok(None) };
        };
        let (_, text) = line.trimmed();
        if text.starts_with('$') {
            let n = line.number;
            self.lines.expect_end(&format!("the `$` line (line {n})"))?;
            return Ok(None);
        }
        if text == "?" {
            let n = line.number;
            return self.read_case(n).map(Some);
        }
        Err(line.expected(expected()).into())
    }
}

impl<R: BufRead> Iterator for UvaCases<R> {
    type Item = Result<Case, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let result = self.next_case().transpose();
        if !matches!(result, Some(Ok(_))) {
            self.done = true;
        }
        result
    }
}

/// Parses CCF CSP 201803-4's input from `reader`, lazily: a line with the number of boards T
/// (any T >= 0), then T boards of 3 lines of 3 numbers each from `0` (empty), `1` (Alice, x),
/// `2` (Bob, o), separated by white space. Blank lines are skipped; Alice is to move in every
/// board. A leading UTF-8 byte-order mark is skipped.
///
/// Yields each board, then stops after the first error: no input at all, a bad T, a row without
/// exactly three numbers, a number other than 0, 1, 2, a missing board, text after the T-th
/// board, input that cannot be read (I/O error, not UTF-8, an overlong line), or a position that
/// cannot arise with Alice to move ([`ParseErrorKind::ImpossibleBoard`], at the board's first
/// line, told in 1 and 2).
pub fn parse_ccf_from<R: BufRead>(reader: R) -> CcfCases<R> {
    CcfCases { lines: LineReader::new(reader), total: None, case: 0, done: false }
}

/// [`parse_ccf_from`] over a string.
pub fn parse_ccf(text: &str) -> CcfCases<&[u8]> {
    parse_ccf_from(text.as_bytes())
}

/// The iterator of [`parse_ccf_from`].
pub struct CcfCases<R> {
    lines: LineReader<R>,
    total: Option<u64>,
    case: u64,
    done: bool,
}

impl<R: BufRead> CcfCases<R> {
    fn read_total(&mut self) -> Result<u64, ParseError> {
        let what = "the number of boards T";
        let Some(line) = self.lines.next_non_blank()? else {
            return Err(self.lines.end_of_input(describe_int(what, 0, u64::MAX)).into());
        };
        let [t] = line.fields(|| what.to_string())?;
        Ok(t.int(what, 0, u64::MAX)?)
    }

    fn read_board(&mut self, total: u64) -> Result<Case, ParseError> {
        let g = Geometry::CCF;
        let board = self.case + 1;
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut start = 0;
        for r in 0..3 {
            let what = || format!("row {} of board {board} of {total}: 3 numbers from 0, 1, 2", r + 1);
            let Some(line) = self.lines.next_non_blank()? else {
                return Err(self.lines.end_of_input(what()).into());
            };
            if r == 0 {
                start = line.number;
            }
            let cells: [_; 3] = line.fields(what)?;
            for (c, token) in cells.iter().enumerate() {
                let bit = Bitboard::single((r * 3 + c) as u32);
                match token.int("a cell: 0, 1 or 2", 0, 2)? {
                    1 => x |= bit,
                    2 => o |= bit,
                    _ => {}
                }
            }
        }
        self.case = board;
        let case = board as usize;
        let setup = Setup { geometry: g, x, o, to_move: Mark::X };
        let position = Position::try_from(setup).map_err(|error| ParseError {
            line: start,
            column: None,
            kind: ParseErrorKind::ImpossibleBoard { case, error },
        })?;
        Ok(Case { number: case, line: start, position })
    }

    fn next_case(&mut self) -> Result<Option<Case>, ParseError> {
        let total = match self.total {
            Some(t) => t,
            None => {
                let t = self.read_total()?;
                self.total = Some(t);
                t
            }
        };
        if self.case < total {
            return self.read_board(total).map(Some);
        }
        self.lines.expect_end(&format!("{total} board{}", if total == 1 { "" } else { "s" }))?;
        Ok(None)
    }
}

impl<R: BufRead> Iterator for CcfCases<R> {
    type Item = Result<Case, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let result = self.next_case().transpose();
        if !matches!(result, Some(Ok(_))) {
            self.done = true;
        }
        result
    }
}

/// Why `parse_cell_text` refused a move typed by a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not two numbers.
    #[error("expected a cell as `row,col` (0-based, e.g. `1,2`), found {}", judge_text::quote(.0))]
    NotACell(String),
    /// A cell off the board.
    #[error("cell {row},{col} is off the {rows}x{cols} board")]
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

/// A cell typed by a person: `row,col` or `row col`, 0-based (`1,2`), on `geometry`'s board.
/// Whether it is empty is the caller's question ([`crate::Position::try_play`]).
///
/// # Errors
/// [`MoveError`]: not two non-negative integers, or a cell off the board.
pub fn parse_cell_text(geometry: &Geometry, text: &str) -> Result<Cell, MoveError> {
    let (row, col) =
        judge_text::parse_pair(text, ',').ok_or_else(|| MoveError::NotACell(text.to_string()))?;
    let (rows, cols) = (geometry.rows(), geometry.cols());
    let off = MoveError::OffBoard { row, col, rows, cols };
    let (Ok(r), Ok(c)) = (usize::try_from(row), usize::try_from(col)) else { return Err(off) };
    geometry.cell(r, c).ok_or(off)
}

#[cfg(test)]
mod tests {
    use std::io::{self, Read};

    use super::*;

    const UVA_SAMPLE: &str = "?\n....\n.xo.\n.ox.\n....\n?\no...\n.ox.\n.xxx\nxooo\n$\n";
    const CCF_SAMPLE: &str = "3\n1 2 1\n2 1 2\n0 0 0\n2 1 1\n0 2 1\n0 0 2\n0 0 0\n0 0 0\n0 0 0\n";

    fn errors_of(results: Vec<Result<Case, ParseError>>) -> (usize, Option<String>) {
        let ok = results.iter().filter(|r| r.is_ok()).count();
        let err = results.into_iter().find_map(Result::err).map(|e| e.to_string());
        (ok, err)
    }

    fn uva(text: &str) -> (usize, Option<String>) {
        errors_of(parse_uva(text, Geometry::UVA).collect())
    }

    fn ccf(text: &str) -> (usize, Option<String>) {
        errors_of(parse_ccf(text).collect())
    }

    #[test]
    fn uva_sample_missing_dollar_and_empty_input() {
        let cases: Vec<Case> = parse_uva(UVA_SAMPLE, Geometry::UVA).collect::<Result<_, _>>().unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].line, 6);
        assert_eq!(cases[0].position.grid(), "....\n.xo.\n.ox.\n....\n");
        let no_dollar = UVA_SAMPLE.trim_end_matches("$\n");
        assert_eq!(uva(no_dollar), (2, None));
        assert_eq!(uva("$\n"), (0, None));
        assert_eq!(uva("\u{feff}$ anything on the dollar line\n\n  \n"), (0, None));
        for empty in ["", "\n", "  \r\n\t\n"] {
            let lines = empty.lines().count();
            assert_eq!(
                uva(empty),
                (
                    0,
                    Some(format!(
                        "line {}: expected the first case (a line `?`), found end of input",
                        lines + 1
                    ))
                )
            );
        }
    }

    #[test]
    fn uva_every_error_kind() {
        let cases: Vec<(String, usize, &str)> = vec![
            ("?\n....\n.xa.\n....\n....\n$\n".into(), 0, "line 3, column 3: expected `.`, `x` or `o`, found `a`"),
            ("?\n....\n .X..\n".into(), 0, "line 3, column 3: expected `.`, `x` or `o`, found `X`"),
            ("?\n....\n...\n".into(), 0, "line 3, column 4: expected row 2 of case 1: 4 characters from `.`, `x`, `o`, found `...`"),
            ("?\n.....\n".into(), 0, "line 2, column 5: expected row 1 of case 1: 4 characters from `.`, `x`, `o`, found `.....`"),
            // A blank line is skipped, as in every format: here the input then ends.
            ("?\n....\n\n".into(), 0, "line 4: expected row 2 of case 1: 4 characters from `.`, `x`, `o`, found end of input"),
            ("?\n....\n".into(), 0, "line 3: expected row 2 of case 1: 4 characters from `.`, `x`, `o`, found end of input"),
            ("hello\n".into(), 0, "line 1, column 1: expected the first case (a line `?`), found `hello`"),
            ("?\n....\n.xo.\n.ox.\n....\n \x1b[2J?\n".into(), 1, "line 6, column 2: expected case 2 (a line `?`) or the end (a line `$`), found `\\u{1b}[2J?`"),
            (format!("{UVA_SAMPLE}?\n"), 2, "line 12, column 1: expected end of input after the `$` line (line 11), found `?`"),
            (
                UVA_SAMPLE.replace("$\n", "?\nxx..\n....\n....\n.o..\n$\n"),
                2,
                "line 11: case 3: impossible position: 2 x and 1 o cannot have x to move (x moves first: x to move needs as many x as o)",
            ),
            (format!("?\n{}\n", "x".repeat(100)), 0, "line 2, column 5: expected row 1 of case 1: 4 characters from `.`, `x`, `o`, found `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…`"),
            (format!("?\n{}\n", ".".repeat(100)), 0, "line 2, column 5: expected row 1 of case 1: 4 characters from `.`, `x`, `o`, found `........................................…`"),
        ];
        for (text, ok, message) in cases {
            assert_eq!(uva(&text), (ok, Some(message.to_string())), "{text:?}");
        }
        // Blank and whitespace-only lines between rows are skipped.
        assert_eq!(uva("?\n....\n \t\r\n....\n\n....\n....\n$\n"), (1, None));
        // Only `x` beyond the fourth column: the count error, at the fifth.
        assert!(uva("?\n....\n....\n....\nxxxxx\n")
            .1
            .unwrap()
            .starts_with("line 5, column 5: expected row 4"));
    }

    #[test]
    fn ccf_sample_empty_input_and_zero_boards() {
        let cases: Vec<Case> = parse_ccf(CCF_SAMPLE).collect::<Result<_, _>>().unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[1].line, 5);
        assert_eq!(cases[1].position.winner(), Some(Mark::O));
        assert_eq!(ccf("0\n"), (0, None));
        assert_eq!(
            ccf(""),
            (
                0,
                Some(
                    "line 1: expected the number of boards T (a non-negative integer), found end of input"
                        .into()
                )
            )
        );
        assert_eq!(
            ccf("\n\n"),
            (
                0,
                Some(
                    "line 3: expected the number of boards T (a non-negative integer), found end of input"
                        .into()
                )
            )
        );
    }

    #[test]
    fn ccf_every_error_kind() {
        let cases: Vec<(&str, usize, &str)> = vec![
            ("x\n", 0, "line 1, column 1: expected the number of boards T (a non-negative integer), found `x`"),
            ("1 1\n", 0, "line 1, column 3: expected the number of boards T, found 2 numbers: `1 1`"),
            ("2\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 3 0\n", 1, "line 6, column 3: expected a cell: 0, 1 or 2 (an integer from 0 to 2), found `3`"),
            ("1\n0 0 -1\n", 0, "line 2, column 5: expected a cell: 0, 1 or 2 (an integer from 0 to 2), found `-1`"),
            ("1\n0 0\n", 0, "line 2, column 4: expected row 1 of board 1 of 1: 3 numbers from 0, 1, 2, found 2 numbers: `0 0`"),
            ("1\n0 0 0 0\n", 0, "line 2, column 7: expected row 1 of board 1 of 1: 3 numbers from 0, 1, 2, found 4 numbers: `0 0 0 0`"),
            ("1\n0 0 0\n", 0, "line 3: expected row 2 of board 1 of 1: 3 numbers from 0, 1, 2, found end of input"),
            ("2\n0 0 0\n0 0 0\n0 0 0\n", 1, "line 5: expected row 1 of board 2 of 2: 3 numbers from 0, 1, 2, found end of input"),
            ("1\n0 0 0\n0 0 0\n0 0 0\n1\n", 1, "line 5, column 1: expected end of input after 1 board, found `1`"),
            ("0\n0 0 0\n", 0, "line 2, column 1: expected end of input after 0 boards, found `0 0 0`"),
            (
                "1\n1 1 1\n2 2 0\n2 0 0\n",
                0,
                "line 2: board 1: impossible position: 1 has three in a row but is to move: the game ended when 1 completed it",
            ),
            ("1\n1 1 1\n2 2 2\n0 0 0\n", 0, "line 2: board 1: impossible position: both 1 and 2 have three in a row"),
            (
                "1\n1 1 0\n0 0 0\n2 0 0\n",
                0,
                "line 2: board 1: impossible position: 2 cells of 1 and 1 of 2 cannot have Alice (1) to move: Alice moves first, so it needs as many 1s as 2s",
            ),
            ("1\n0\u{3000}0 0\n", 0, "line 2, column 6: expected row 1 of board 1 of 1: 3 numbers from 0, 1, 2, found 2 numbers: `0\\u{3000}0 0`"),
        ];
        for (text, ok, message) in cases {
            assert_eq!(ccf(text), (ok, Some(message.to_string())), "{text:?}");
        }
        let e = parse_ccf("1\n1 1 1\n2 2 2\n0 0 0\n").next().unwrap().unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::ImpossibleBoard { case: 1, error: PositionError::BothWon });
    }

    #[test]
    fn not_utf8_after_the_good_cases() {
        let mut input = CCF_SAMPLE.replace("3\n", "4\n").into_bytes();
        input.extend_from_slice(b"0 0 \xc3\n");
        let results: Vec<_> = parse_ccf_from(&input[..]).collect();
        assert_eq!(results.len(), 4);
        assert_eq!(
            results[3].as_ref().unwrap_err().to_string(),
            "line 11, column 5: expected UTF-8 text, found `\\xc3`"
        );
        let mut input = UVA_SAMPLE.replace("$\n", "?\n").into_bytes();
        input.extend_from_slice(b"..\xfe.\n");
        let (ok, err) = errors_of(parse_uva_from(&input[..], Geometry::UVA).collect());
        assert_eq!(
            (ok, err.unwrap()),
            (2, "line 12, column 3: expected UTF-8 text, found `\\xfe`".to_string())
        );
    }

    #[test]
    fn one_byte_chunks_give_the_same_results() {
        let uva_inputs = [
            UVA_SAMPLE.to_string(),
            UVA_SAMPLE.replace('\n', "\r\n"),
            format!("\u{feff}{UVA_SAMPLE}x"),
            String::new(),
        ];
        for text in &uva_inputs {
            let whole: Vec<_> = parse_uva(text, Geometry::UVA).collect();
            for chunk in [1, 3] {
                let chunked: Vec<_> =
                    parse_uva_from(judge_text::ChunkedReader::new(text.as_bytes(), chunk), Geometry::UVA)
                        .collect();
                assert_eq!(whole, chunked, "{text:?}");
            }
        }
        let ccf_inputs =
            [CCF_SAMPLE.to_string(), CCF_SAMPLE.replace("3\n", "4\n"), format!("\u{feff}{CCF_SAMPLE}\n\n7")];
        for text in &ccf_inputs {
            let whole: Vec<_> = parse_ccf(text).collect();
            for chunk in [1, 3] {
                let chunked: Vec<_> =
                    parse_ccf_from(judge_text::ChunkedReader::new(text.as_bytes(), chunk)).collect();
                assert_eq!(whole, chunked, "{text:?}");
            }
        }
    }

    /// An endless UVa input made on demand (the same case over and over), counting bytes served.
    struct Endless {
        served: usize,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let case = b"?\n....\n.xo.\n.ox.\n....\n";
            for (k, b) in buf.iter_mut().enumerate() {
                *b = case[(self.served + k) % case.len()];
            }
            self.served += buf.len();
            Ok(buf.len())
        }
    }

    #[test]
    fn a_huge_input_is_read_lazily() {
        let mut reader = io::BufReader::with_capacity(1024, Endless { served: 0 });
        let n = parse_uva_from(&mut reader, Geometry::UVA).take(10_000).filter(Result::is_ok).count();
        assert_eq!(n, 10_000);
        let served = reader.get_ref().served;
        assert!(served <= 10_000 * 22 + 1024, "read {served} bytes");
    }

    #[test]
    fn cell_texts() {
        let g = Geometry::UVA;
        assert_eq!(parse_cell_text(&g, "1,2"), Ok(g.cell(1, 2).unwrap()));
        assert_eq!(parse_cell_text(&g, " 3 0 "), Ok(g.cell(3, 0).unwrap()));
        assert_eq!(parse_cell_text(&g, "4,0"), Err(MoveError::OffBoard { row: 4, col: 0, rows: 4, cols: 4 }));
        assert_eq!(parse_cell_text(&g, "4,0").unwrap_err().to_string(), "cell 4,0 is off the 4x4 board");
        let huge = parse_cell_text(&g, "99999999999999999999999,0").unwrap_err().to_string();
        assert_eq!(
            huge,
            "expected a cell as `row,col` (0-based, e.g. `1,2`), found `99999999999999999999999,0`"
        );
        assert_eq!(
            parse_cell_text(&g, "\u{7}1,-1").unwrap_err().to_string(),
            "expected a cell as `row,col` (0-based, e.g. `1,2`), found `\\u{7}1,-1`"
        );
    }
}

//! The judge's input format (POJ 1085): `T`, then for each game `m` and `m` lines `i j`.
//!
//! Blank lines may appear anywhere (the ZOJ copy has them between games). Dots are numbered as
//! in [`crate::Geometry`]; `i j` and `j i` are the same segment. `m` may be anything from 0 to
//! the number of segments (the judge's data has `6 <= m <= 18` on side 3). The input is read as
//! a stream ([`parse_games_from`]), one game at a time, through the shared judge-text lexer, so
//! errors have its wording: `line L, column C: expected X, found Y`.

use std::io::BufRead;

use judge_text::{LineReader, TextErrorKind};

use crate::{Geometry, Position};

/// A parse error: the 1-based line (and column) it was found at and what was wrong
/// (the workspace's one parse-error type, [`judge_text::ParseError`]).
pub type ParseError = judge_text::ParseError<ParseErrorKind>;

/// The kinds of [`ParseError`].
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The text does not follow the format (`expected X, found Y`: a missing or extra number, a
    /// number out of range, text that is not a number, early end of input, text after the last
    /// game), or could not be read (I/O error, not UTF-8, overlong line).
    #[error(transparent)]
    Text(TextErrorKind),
    /// Two dots that are not neighbours.
    #[error("dots {i} and {j} are not joined by a segment")]
    NoSuchSegment {
        /// First dot.
        i: u8,
        /// Second dot.
        j: u8,
    },
    /// A segment drawn twice in one game.
    #[error("segment {i}-{j} was already drawn on line {first_line}")]
    RepeatedSegment {
        /// First dot.
        i: u8,
        /// Second dot.
        j: u8,
        /// Where it was drawn first.
        first_line: usize,
    },
}

impl From<TextErrorKind> for ParseErrorKind {
    fn from(kind: TextErrorKind) -> Self {
        ParseErrorKind::Text(kind)
    }
}

/// One game of the input, replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number in the input.
    pub number: usize,
    /// The moves played, as segment indices, in order.
    pub moves: Vec<u8>,
    /// The position after them (extra turns applied).
    pub position: Position,
}

/// Iterator over the games of an input; see [`parse_games_from`] and [`parse_games`].
pub struct Games<'a, R = &'a [u8]> {
    geometry: std::borrow::Cow<'a, Geometry>,
    lines: LineReader<R>,
    total: Option<u64>,
    done: u64,
    failed: bool,
}

/// Parses the judge's format for the board `geometry` from `reader`, lazily: the iterator reads
/// and yields one game at a time (memory is one line and one game, whatever the size of the
/// input), and after the first error yields that error and stops, so the games before a bad one
/// can still be answered.
///
/// # Errors
/// Each item is a [`ParseError`] naming the line, and the column where the problem is at a
/// character: no input at all, a count or dot that is not a number, a line with the wrong count
/// of numbers, a dot out of range, dots that are not neighbours, a segment repeated within a
/// game, fewer move lines than `m`, fewer games than `T`, non-blank text after the last game, or
/// input that cannot be read (an I/O error of `reader`, bytes that are not UTF-8, a line longer
/// than [`judge_text::MAX_LINE_BYTES`]). A leading UTF-8 byte-order mark is skipped.
pub fn parse_games_from<R: BufRead>(reader: R, geometry: &Geometry) -> Games<'_, R> {
    let geometry = std::borrow::Cow::Borrowed(geometry);
    Games { geometry, lines: LineReader::new(reader), total: None, done: 0, failed: false }
}

/// [`parse_games_from`] with the board's geometry owned by the iterator (which then borrows
/// nothing but the reader).
///
/// # Errors
/// As [`parse_games_from`].
pub fn parse_games_owned<R: BufRead>(reader: R, geometry: Geometry) -> Games<'static, R> {
    let geometry = std::borrow::Cow::Owned(geometry);
    Games { geometry, lines: LineReader::new(reader), total: None, done: 0, failed: false }
}

/// [`parse_games_from`] over a string.
///
/// # Errors
/// As [`parse_games_from`].
#[must_use]
pub fn parse_games<'a>(text: &'a str, geometry: &'a Geometry) -> Games<'a, &'a [u8]> {
    parse_games_from(text.as_bytes(), geometry)
}

impl<R: BufRead> Games<'_, R> {
    fn read_game(&mut self, number: u64, total: u64) -> Result<GameRecord, ParseError> {
        let g = &*self.geometry;
        let max = g.segments().len() as u64;
        let what = format!("the move count of game {number} of {total}");
        let Some(line) = self.lines.next_non_blank()? else {
            return Err(self.lines.end_of_input(judge_text::describe_int(&what, 0, max)).into());
        };
        let [m] = line.fields(|| what.clone())?;
        let m = m.int(&what, 0, max)?;
        let mut moves = Vec::with_capacity(m as usize);
        let mut drawn_on = vec![0usize; g.segments().len()];
        let mut position = Position::start();
        for k in 1..=m {
            let what = || format!("move {k} of {m} of game {number} as two dot numbers `i j`");
            let Some(line) = self.lines.next_non_blank()? else {
                return Err(self.lines.end_of_input(what()).into());
            };
            let [a, b] = line.fields(what)?;
            let dot =
                |t: &judge_text::Token<'_>| t.int("a dot number", 1, u64::from(g.dots())).map(|d| d as u8);
            let (i, j) = (dot(&a)?, dot(&b)?);
            let at = |kind| ParseError { line: line.number, column: Some(a.column), kind };
            let s = g.segment_index(i, j).ok_or_else(|| at(ParseErrorKind::NoSuchSegment { i, j }))?;
            if drawn_on[s] != 0 {
                let (i, j, first_line) = (i.min(j), i.max(j), drawn_on[s]);
                return Err(at(ParseErrorKind::RepeatedSegment { i, j, first_line }));
            }
            drawn_on[s] = line.number;
            moves.push(s as u8);
            position = position.play(g, s).0;
        }
        Ok(GameRecord { number: number as usize, moves, position })
    }

    fn next_game(&mut self) -> Result<Option<GameRecord>, ParseError> {
        let total = match self.total {
            Some(t) => t,
            None => {
                let what = "the number of games T";
                let Some(line) = self.lines.next_non_blank()? else {
                    return Err(self.lines.end_of_input(judge_text::describe_int(what, 0, u64::MAX)).into());
                };
                let [t] = line.fields(|| what.to_string())?;
                let t = t.int(what, 0, u64::MAX)?;
                self.total = Some(t);
                t
            }
        };
        if self.done == total {
            self.lines.expect_end(&format!("{total} game{}", if total == 1 { "" } else { "s" }))?;
            return Ok(None);
        }
        self.done += 1;
        self.read_game(self.done, total).map(Some)
    }
}

impl<R: BufRead> Iterator for Games<'_, R> {
    type Item = Result<GameRecord, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_game() {
            Ok(game) => {
                self.failed = game.is_none();
                game.map(Ok)
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// Why [`parse_segment`] refused a move typed by a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not two dot numbers.
    #[error("expected a segment as two dot numbers like `2 5` or `2-5`, found {}", judge_text::quote(.0))]
    NotASegment(String),
    /// A dot number outside `1..=dots`.
    #[error("dot {dot} is not on the board: dots are numbered 1 to {dots}")]
    NoSuchDot {
        /// The number typed.
        dot: u64,
        /// Dots of the board.
        dots: u8,
    },
    /// Two dots that are not neighbours.
    #[error("dots {i} and {j} are not joined by a segment")]
    NoSuchSegment {
        /// First dot.
        i: u8,
        /// Second dot.
        j: u8,
    },
}

/// A segment typed by a person (`2 5`, `2-5`, `5 2`: two dot numbers, either order), as its
/// index in `geometry.segments()`. Whether it is already drawn is the caller's question.
///
/// # Errors
/// [`MoveError`]: not two numbers, a dot off the board, or dots that are not neighbours.
pub fn parse_segment(geometry: &Geometry, text: &str) -> Result<usize, MoveError> {
    let (i, j) = judge_text::parse_pair(text, '-').ok_or_else(|| MoveError::NotASegment(text.to_string()))?;
    let dots = geometry.dots();
    let dot = |d: u64| {
        u8::try_from(d).ok().filter(|&d| (1..=dots).contains(&d)).ok_or(MoveError::NoSuchDot { dot: d, dots })
    };
    let (i, j) = (dot(i)?, dot(j)?);
    geometry.segment_index(i, j).ok_or(MoveError::NoSuchSegment { i, j })
}

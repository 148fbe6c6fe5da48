//! The judge's input format (POJ 1085): `T`, then for each game `m` and `m` lines `i j`.
//!
//! Blank lines may appear anywhere (the ZOJ copy has them between games). Dots are numbered as
//! in [`crate::Geometry`]; `i j` and `j i` are the same segment. `m` may be anything from 0 to
//! the number of segments (the judge's data has `6 <= m <= 18` on side 3).

use std::str::Lines;

use crate::{Geometry, Position};

/// What was wrong with the input, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number (one past the last line for an unexpected end of input).
    pub line: usize,
    /// What was expected and what was found.
    pub kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Input ended early.
    #[error("expected {expected}, found end of input")]
    UnexpectedEnd {
        /// What was still expected.
        expected: String,
    },
    /// A line did not hold what was expected (wrong count of numbers, or not numbers).
    #[error("expected {expected}, found `{found}`")]
    Unexpected {
        /// What was expected.
        expected: String,
        /// The offending line, trimmed.
        found: String,
    },
    /// A dot number outside `1..=dots`.
    #[error("expected a dot number from 1 to {dots}, found {found}")]
    DotOutOfRange {
        /// Number of dots of the board.
        dots: u8,
        /// The number read.
        found: u64,
    },
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
    /// A move count larger than the number of segments.
    #[error("expected a move count from 0 to {max}, found {found}")]
    MoveCountOutOfRange {
        /// Number of segments of the board.
        max: usize,
        /// The number read.
        found: u64,
    },
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

/// Iterator over the games of an input; see [`parse_games`].
pub struct Games<'a> {
    geometry: &'a Geometry,
    lines: std::iter::Enumerate<Lines<'a>>,
    last_line: usize,
    total: Option<usize>,
    done: usize,
    failed: bool,
}

/// Parses `text` in the judge's format for the board `geometry`, lazily: the iterator yields
/// each game as soon as it is read, and after the first error yields that error and stops, so
/// the games before a bad one can still be answered.
///
/// # Errors
/// Each item is a [`ParseError`] naming the line: a count or dot that is not a number, a line
/// with the wrong count of numbers, a dot out of range, dots that are not neighbours, a segment
/// repeated within a game, fewer move lines than `m`, fewer games than `T`, or text after the
/// last game.
#[must_use]
pub fn parse_games<'a>(text: &'a str, geometry: &'a Geometry) -> Games<'a> {
    Games { geometry, lines: text.lines().enumerate(), last_line: 0, total: None, done: 0, failed: false }
}

impl<'a> Games<'a> {
    /// The next non-blank line as (1-based number, trimmed text).
    fn next_line(&mut self) -> Option<(usize, &'a str)> {
        for (i, line) in self.lines.by_ref() {
            self.last_line = i + 1;
            let t = line.trim().trim_start_matches('\u{feff}');
            if !t.is_empty() {
                return Some((i + 1, t));
            }
        }
        None
    }

    fn end(&self, expected: String) -> ParseError {
        ParseError { line: self.last_line + 1, kind: ParseErrorKind::UnexpectedEnd { expected } }
    }

    /// A line holding exactly `N` unsigned integers.
    /// `expected` describes the line for error messages (built only on error).
    fn numbers<const N: usize>(
        &mut self,
        expected: impl Fn() -> String,
    ) -> Result<(usize, [u64; N]), ParseError> {
        let Some((line, text)) = self.next_line() else {
            return Err(self.end(expected()));
        };
        let bad = || ParseError {
            line,
            kind: ParseErrorKind::Unexpected { expected: expected(), found: text.to_string() },
        };
        let mut out = [0u64; N];
        let mut words = text.split_whitespace();
        for slot in &mut out {
            *slot = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        }
        if words.next().is_some() {
            return Err(bad());
        }
        Ok((line, out))
    }

    fn read_game(&mut self, number: usize, total: usize) -> Result<GameRecord, ParseError> {
        let g = self.geometry;
        let max = g.segments().len();
        let (line, [m]) = self.numbers::<1>(|| format!("the move count of game {number} of {total}"))?;
        if m > max as u64 {
            return Err(ParseError { line, kind: ParseErrorKind::MoveCountOutOfRange { max, found: m } });
        }
        let mut moves = Vec::with_capacity(m as usize);
        let mut drawn_on = [0usize; 64];
        let mut position = Position::start();
        for k in 1..=m {
            let (line, [i, j]) =
                self.numbers::<2>(|| format!("move {k} of {m} of game {number} as two dot numbers `i j`"))?;
            let dot = |d: u64| {
                u8::try_from(d).ok().filter(|&d| (1..=g.dots()).contains(&d)).ok_or(ParseError {
                    line,
                    kind: ParseErrorKind::DotOutOfRange { dots: g.dots(), found: d },
                })
            };
            let (i, j) = (dot(i)?, dot(j)?);
            let s = g
                .segment_index(i, j)
                .ok_or(ParseError { line, kind: ParseErrorKind::NoSuchSegment { i, j } })?;
            if drawn_on[s] != 0 {
                let kind =
                    ParseErrorKind::RepeatedSegment { i: i.min(j), j: i.max(j), first_line: drawn_on[s] };
                return Err(ParseError { line, kind });
            }
            drawn_on[s] = line;
            moves.push(s as u8);
            position = position.play(g, s).0;
        }
        Ok(GameRecord { number, moves, position })
    }
}

impl Iterator for Games<'_> {
    type Item = Result<GameRecord, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let result = (|| {
            let total = match self.total {
                Some(t) => t,
                None => {
                    let (_, [t]) = self.numbers::<1>(|| "the number of games T".to_string())?;
                    let t = usize::try_from(t).unwrap_or(usize::MAX);
                    self.total = Some(t);
                    t
                }
            };
            if self.done == total {
                return match self.next_line() {
                    None => Ok(None),
                    Some((line, text)) => Err(ParseError {
                        line,
                        kind: ParseErrorKind::Unexpected {
                            expected: format!(
                                "end of input after {total} game{}",
                                if total == 1 { "" } else { "s" }
                            ),
                            found: text.to_string(),
                        },
                    }),
                };
            }
            self.done += 1;
            self.read_game(self.done, total).map(Some)
        })();
        match result {
            Ok(game) => game.map(Ok),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

//! The OBF line format of the FFO endgame test files (Edax's `problem/fforum-*.obf`): the
//! n x n board row by row from a1 (the top-left square), `X` Black, `O` White, `-` empty,
//! a space, the side to move `X` or `O`, then optionally `;` and anything (the files list
//! `MOVE:SCORE;` pairs, best first, read by [`parse_move_scores`]).
//!
//! Read by [`parse_obf_line`] (one line) and [`parse_obf`] (a whole text, one position per
//! line, blank lines skipped), written by [`obf_line`]; [`answer_line`] writes a judge's
//! `BOARD SIDE SCORE` line. No I/O: these take and return strings.

use search_core::{Player, Value};

use crate::{Bitboard, Geometry, Move, Position, Setup, SetupError, Square};

/// Why an OBF line is refused: where (1-based line and column, in characters) and what was
/// expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObfError {
    /// Text that is not the format.
    #[error("line {line}, column {column}: expected {expected}, found {found}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// 1-based column (characters).
        column: usize,
        /// What the format has there.
        expected: String,
        /// What the line has there, quoted (or "the end of the line").
        found: String,
    },
    /// A well-formed board that is not a position ([`SetupError`]).
    #[error("line {line}, column {column}: expected a position, found a board where {source}")]
    Setup {
        /// 1-based line number.
        line: usize,
        /// 1-based column of the board's start.
        column: usize,
        /// What is wrong with it.
        source: SetupError,
    },
}

impl ObfError {
    /// The 1-based line number.
    #[must_use]
    pub fn line(&self) -> usize {
        match self {
            ObfError::Syntax { line, .. } | ObfError::Setup { line, .. } => *line,
        }
    }

    /// The 1-based column.
    #[must_use]
    pub fn column(&self) -> usize {
        match self {
            ObfError::Syntax { column, .. } | ObfError::Setup { column, .. } => *column,
        }
    }

    /// The same error at line `n` (1-based) of a longer text.
    #[must_use]
    pub fn with_line(mut self, n: usize) -> ObfError {
        match &mut self {
            ObfError::Syntax { line, .. } | ObfError::Setup { line, .. } => *line = n,
        }
        self
    }
}

/// A character quoted for an error message.
fn quoted(c: Option<char>) -> String {
    match c {
        None => "the end of the line".to_string(),
        Some(c) => judge_text::quote(&c.to_string()),
    }
}

/// A syntax error at `column` of line 1.
fn syntax(column: usize, expected: impl Into<String>, found: Option<char>) -> ObfError {
    ObfError::Syntax { line: 1, column, expected: expected.into(), found: quoted(found) }
}

/// Whether `c` separates fields: a space or a tab.
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The position of one OBF line on `geometry`'s board (line number 1 in errors; see
/// [`parse_obf`] for a whole text). Board characters: `X` (or `x`, `*`) Black, `O` (or `o`)
/// White, `-` (or `.`) empty; then white space and the side to move `X` or `O` (either
/// case); then optionally white space and `;` followed by anything. A trailing `\r` is
/// ignored.
///
/// # Errors
/// [`ObfError::Syntax`] naming the column and what was expected there (a board character,
/// the side to move, `;`), [`ObfError::Setup`] for a board that no game reaches (a centre
/// square empty). Never panics.
pub fn parse_obf_line(geometry: &'static Geometry, line: &str) -> Result<Position, ObfError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let n = geometry.size();
    let mut chars = line.chars().enumerate().peekable();
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    let board_chars = n * n;
    let expect_square = |i: usize| format!("board character {} of {board_chars} (`X`, `O` or `-`)", i + 1);
    for i in 0..board_chars {
        let (col, c) = match chars.next() {
            Some((col, c)) => (col, Some(c)),
            None => (line.chars().count(), None),
        };
        let sq = Bitboard::from_square(Square::new(i % n, i / n));
        match c {
            Some('X' | 'x' | '*') => black |= sq,
            Some('O' | 'o') => white |= sq,
            Some('-' | '.') => {}
            _ => return Err(syntax(col + 1, expect_square(i), c)),
        }
    }
    let mut blanks = 0;
    while chars.next_if(|&(_, c)| is_blank(c)).is_some() {
        blanks += 1;
    }
    let side_column = board_chars + blanks + 1;
    let next = chars.next().map(|(_, c)| c);
    if blanks == 0 {
        let expected = format!("a space after the {board_chars} board characters of a {n}x{n} board");
        return Err(syntax(side_column, expected, next));
    }
    let to_move = match next {
        Some('X' | 'x') => Player::First,
        Some('O' | 'o') => Player::Second,
        _ => return Err(syntax(side_column, "the side to move, `X` or `O`", next)),
    };
    while chars.next_if(|&(_, c)| is_blank(c)).is_some() {}
    match chars.next() {
        None | Some((_, ';')) => {}
        Some((col, c)) => return Err(syntax(col + 1, "`;` or the end of the line", Some(c))),
    }
    let setup = Setup { size: n, black, white, to_move };
    Position::try_from(setup).map_err(|source| ObfError::Setup { line: 1, column: 1, source })
}

/// The `MOVE:SCORE` pairs listed after the first `;` of an OBF line, in their order (the FFO
/// files list them best first): moves as [`Move::parse`] reads them (`G8`, `PASS`), scores as
/// signed integers (`+2`, `0`, `-4`), pairs separated by `;` and white space. Checks the
/// format only, not the moves' legality.
///
/// # Errors
/// [`ObfError::Syntax`] with the column of a pair that is not `MOVE:SCORE`, or of a move off
/// `geometry`'s board.
pub fn parse_move_scores(geometry: &Geometry, line: &str) -> Result<Vec<(Move, Value)>, ObfError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let Some(start) = line.find(';') else { return Ok(Vec::new()) };
    let mut pairs = Vec::new();
    let mut offset = start + 1;
    for field in line[start + 1..].split(';') {
        let trimmed = field.trim_matches(is_blank);
        let lead = field.len() - field.trim_start_matches(is_blank).len();
        let column = line[..offset + lead].chars().count() + 1;
        offset += field.len() + 1;
        if trimmed.is_empty() {
            continue;
        }
        let bad = || ObfError::Syntax {
            line: 1,
            column,
            expected: "a move and its score such as `G8:+2`".to_string(),
            found: judge_text::quote(trimmed),
        };
        let (mv, score) = trimmed.split_once(':').ok_or_else(bad)?;
        let mv = Move::parse(mv).ok_or_else(bad)?;
        if let Move::Play(sq) = mv {
            if !geometry.contains(sq) {
                return Err(bad());
            }
        }
        let score = score.trim_matches(is_blank);
        let digits = score.strip_prefix('+').unwrap_or(score);
        if digits.starts_with('+') || digits.is_empty() {
            return Err(bad());
        }
        let value: Value = digits.parse().map_err(|_| bad())?;
        pairs.push((mv, value));
    }
    Ok(pairs)
}

/// One position of a text read by [`parse_obf`]: its 1-based line number and the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObfCase {
    /// 1-based line number of the position in the text.
    pub line: usize,
    /// The position.
    pub position: Position,
}

/// Every position of `text`, one OBF line each ([`parse_obf_line`]), lazily, each with its
/// line number; lines that hold only white space are skipped.
///
/// # Errors
/// Each item is the line's [`ObfError`] (with its line number) or its [`ObfCase`]; a bad
/// line does not stop the lines after it.
pub fn parse_obf<'a>(
    geometry: &'static Geometry,
    text: &'a str,
) -> impl Iterator<Item = Result<ObfCase, ObfError>> + 'a {
    text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(move |(i, l)| {
        parse_obf_line(geometry, l)
            .map(|position| ObfCase { line: i + 1, position })
            .map_err(|e| e.with_line(i + 1))
    })
}

/// The OBF line of `pos` without move scores: the board row by row from a1 (`X`, `O`, `-`),
/// a space, the side to move (`X` or `O`).
#[must_use]
pub fn obf_line(pos: &Position) -> String {
    let g = pos.geometry();
    let n = g.size();
    let mut s = String::with_capacity(n * n + 2);
    for r in 0..n {
        for c in 0..n {
            s.push(match pos.colour_at(Square::new(c, r)) {
                Some(Player::First) => 'X',
                Some(Player::Second) => 'O',
                None => '-',
            });
        }
    }
    s.push(' ');
    s.push(side_char(pos.to_move()));
    s
}

/// A position shown as its OBF line.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", obf_line(self))
    }
}

/// `X` for Black, `O` for White.
#[must_use]
pub fn side_char(p: Player) -> char {
    match p {
        Player::First => 'X',
        Player::Second => 'O',
    }
}

/// A score as the FFO files write it: `+4`, `0`, `-2`.
#[must_use]
pub fn format_score(value: Value) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}

/// The judge's answer line for `pos` and its exact score `value` for the side to move:
/// `BOARD SIDE SCORE`, e.g. `...board... X +4` ([`obf_line`] then [`format_score`]).
#[must_use]
pub fn answer_line(pos: &Position, value: Value) -> String {
    format!("{} {}", obf_line(pos), format_score(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_20: &str =
        "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X; H5:+6; G6:-2; F6:-4; H6:-10;";

    #[test]
    fn ffo_lines_read_and_write_back() {
        let g = Geometry::standard();
        let pos = parse_obf_line(g, FFO_20).unwrap();
        assert_eq!(pos.empty().count(), 6);
        assert_eq!(obf_line(&pos), FFO_20[..66]);
        let scores = parse_move_scores(g, FFO_20).unwrap();
        let text: Vec<String> = scores.iter().map(|(m, v)| format!("{m}:{}", format_score(*v))).collect();
        assert_eq!(text, ["H5:+6", "G6:-2", "F6:-4", "H6:-10"]);
        assert_eq!(answer_line(&pos, 6), format!("{} +6", &FFO_20[..66]));
        assert_eq!(format_score(0), "0");
        assert_eq!(format_score(-2), "-2");
    }

    #[test]
    fn bad_lines_name_line_and_column() {
        let g = Geometry::new(4).unwrap();
        let err = |t: &str| parse_obf_line(g, t).unwrap_err().to_string();
        assert_eq!(
            err("-----OX--XO----- Z"),
            "line 1, column 18: expected the side to move, `X` or `O`, found `Z`"
        );
        assert_eq!(
            err("-----OX--XO-"),
            "line 1, column 13: expected board character 13 of 16 (`X`, `O` or `-`), found the end of the line"
        );
        assert_eq!(
            err("-----OX--XO-----X"),
            "line 1, column 17: expected a space after the 16 board characters of a 4x4 board, found `X`"
        );
        assert_eq!(
            err("-----OX--XO----- X x"),
            "line 1, column 20: expected `;` or the end of the line, found `x`"
        );
        assert!(err("-----O---XO----- X").contains("the centre square"));
        assert!(parse_obf_line(g, "-----OX--XO----- o ; anything").is_ok());
        let text = "\n-----OX--XO----- X\n  \n-----OX--XO-?--- X\n";
        let cases: Vec<_> = parse_obf(g, text).collect();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].as_ref().unwrap().line, 2);
        assert_eq!(cases[1].as_ref().unwrap_err().line(), 4);
        assert_eq!(cases[1].as_ref().unwrap_err().column(), 13);
        let bad = parse_move_scores(g, "-----OX--XO----- X; B2:+2; H8:-2;").unwrap_err();
        assert_eq!(bad.column(), 28);
        assert!(parse_move_scores(g, "-----OX--XO----- X; B2:++2").is_err());
        assert_eq!(parse_move_scores(g, "-----OX--XO----- X; pass:-2").unwrap(), [(Move::Pass, -2)]);
    }
}

//! [`OthelloFront`]: Othello as a person sees it, for every front end (`games-cli`, its web
//! page, the Python module): squares `a1` to `h8` (moves written as in the FFO files, `G8`,
//! `PASS`), Black (`X`) and White (`O`), the board drawn, one OBF line read and written.

use game_front::{Front, JudgeCase, ParamError, ParamSpec, Params, SolverSettings};
use search_core::{Engine, Player, Value};

use crate::{colour_name, obf_line, parse_obf_line, Geometry, Move, Othello, Position, Square};

/// A board side, `4`, `6` or `8`.
///
/// # Errors
/// What was expected.
pub fn parse_size(text: &str) -> Result<&'static Geometry, String> {
    let n: usize = text.trim().parse().map_err(|_| "expected an even board side from 4 to 8".to_string())?;
    Geometry::new(n).map_err(|e| e.to_string())
}

/// What an Othello value means.
const VALUE_NOTE: &str =
    "final disc difference for Black, empty squares given to the winner (FFO / WOF rule)";

/// Othello as a person sees it: an n x n board, Black (`X`) moves first from the four centre
/// discs; squares are named by column letter and row number from the top (`a1` top left).
pub struct OthelloFront {
    geometry: &'static Geometry,
}

impl OthelloFront {
    /// The front of `geometry`'s board.
    #[must_use]
    pub fn with_geometry(geometry: &'static Geometry) -> Self {
        OthelloFront { geometry }
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }
}

/// The board as text: column letters above, row numbers at the left, `X`, `O` and `.`.
fn draw(pos: &Position) -> String {
    let n = pos.geometry().size();
    let mut s = String::from(" ");
    for c in 0..n {
        s.push(' ');
        s.push(char::from(b'a' + c as u8));
    }
    s.push('\n');
    for r in 0..n {
        s.push_str(&(r + 1).to_string());
        for c in 0..n {
            s.push(' ');
            s.push(match pos.colour_at(Square::new(c, r)) {
                Some(Player::First) => 'X',
                Some(Player::Second) => 'O',
                None => '.',
            });
        }
        s.push('\n');
    }
    s
}

/// The discs so far, in words.
fn score_text(pos: &Position) -> String {
    let (b, w) = (pos.discs(Player::First).count(), pos.discs(Player::Second).count());
    let empty = game_front::count(pos.empty().count() as usize, "empty square", "empty squares");
    if pos.is_over() {
        let result = game_front::margin_words(pos.to_move().sign() * pos.final_score(), "Black", "White");
        format!("Black {b}, White {w}, {empty}: game over, {result}")
    } else if pos.must_pass() {
        format!("Black {b}, White {w}, {empty}; {} must pass", colour_name(pos.to_move()))
    } else {
        format!("Black {b}, White {w}, {empty}")
    }
}

impl Front for OthelloFront {
    type G = Othello;
    type Solver = Engine<Othello>;
    const NAME: &'static str = "othello";
    const TITLE: &'static str = "Othello";
    const PARAMS: &'static [ParamSpec] = &[ParamSpec {
        name: "size",
        value_name: "N",
        help: "Board side N (an N x N board), even, from 4 to 8.",
        default: Some("8"),
        check: |t| parse_size(t).map(|_| ()),
    }];
    const EXAMPLE: &'static str = "--size 6";

    fn new(params: &Params) -> Result<Self, ParamError> {
        let geometry = parse_size(params.get("size").unwrap_or("8")).map_err(ParamError::Board)?;
        Ok(OthelloFront { geometry })
    }

    fn solver(&self, settings: SolverSettings) -> Engine<Othello> {
        settings.engine(Othello::new(self.geometry), crate::search_options(crate::DEFAULT_TT_BITS, 1))
    }

    fn start(&self) -> Position {
        Position::start(self.geometry)
    }

    fn player_name(&self, player: Player) -> &'static str {
        colour_name(player)
    }

    fn move_text(&self, mv: &Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let n = self.geometry.size();
        let last = char::from(b'a' + n as u8 - 1);
        let mv = Move::parse(text).ok_or_else(|| {
            format!("expected a square a1 to {last}{n} or PASS, found {}", judge_text::quote(text))
        })?;
        pos.try_play(mv).map(|_| mv).map_err(|e| e.to_string())
    }

    fn move_help(&self) -> &'static str {
        "a square as column letter and row number from the top, e.g. `d3`, or `pass`"
    }

    fn draw(&self, pos: &Position) -> String {
        draw(pos)
    }

    fn score_text(&self, pos: &Position) -> String {
        score_text(pos)
    }

    fn result_text(&self, value: Value) -> String {
        game_front::margin_words(value, "Black", "White")
    }

    fn value_note(&self) -> &'static str {
        VALUE_NOTE
    }

    /// A green board of 100-unit squares, black and white discs, column letters and row
    /// numbers; each legal square is a move anchored on it, a forced pass a button below.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        use game_front::sketch;
        const CELL: f64 = 100.0;
        const HEAD: f64 = 36.0;
        let n = self.geometry.size();
        let side = CELL * n as f64;
        let mut s = sketch::Sketch::new(HEAD + side + 8.0, HEAD + side + 8.0 + CELL, 30.0);
        s.player("Black", "#111827");
        s.player("White", "#f9fafb");
        s.add(sketch::rect(HEAD, HEAD, side, side, "#15803d", "#14532d"));
        let legal = pos.legal_squares();
        for i in 0..n {
            let mid = HEAD + CELL * (i as f64 + 0.5);
            s.text((mid, HEAD / 2.0), &char::from(b'a' + i as u8).to_string(), 20.0, sketch::MUTED, false);
            s.text((HEAD / 2.0, mid), &(i + 1).to_string(), 20.0, sketch::MUTED, false);
        }
        for r in 0..n {
            for c in 0..n {
                let (x, y) = (HEAD + CELL * c as f64, HEAD + CELL * r as f64);
                s.add(sketch::rect(x, y, CELL, CELL, "none", "#14532d"));
                let centre = (x + CELL / 2.0, y + CELL / 2.0);
                let sq = Square::new(c, r);
                match pos.colour_at(sq) {
                    Some(Player::First) => s.add(sketch::circle(centre, 40.0, "#111827", "#000000", 2.0)),
                    Some(Player::Second) => s.add(sketch::circle(centre, 40.0, "#f9fafb", "#000000", 2.0)),
                    None if legal.contains(sq) => {
                        let target =
                            sketch::rect(x + 6.0, y + 6.0, CELL - 12.0, CELL - 12.0, "#ffffff", "none");
                        s.legal_move(Move::Play(sq).to_string(), centre, target);
                    }
                    None => {}
                }
            }
        }
        if pos.must_pass() {
            let y = HEAD + side + 8.0;
            let target = sketch::rect(HEAD, y + 10.0, side, CELL - 20.0, "#ffffff", sketch::INK);
            let at = (HEAD + side / 2.0, y + CELL / 2.0);
            s.text(at, "PASS", 28.0, sketch::INK, true);
            s.legal_move(Move::Pass.to_string(), at, target);
        }
        s.into_json()
    }

    /// One OBF line (`games-cli othello`'s input): the board row by row and the side to move;
    /// blank lines are skipped, a text with no position is the start, and a second position
    /// is refused (only one case is read).
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let start = match lines.next() {
            None => Position::start(self.geometry),
            Some((i, line)) => parse_obf_line(self.geometry, line).map_err(|e| {
                let e = match e {
                    crate::ObfError::Syntax { column, expected, found, .. } => {
                        crate::ObfError::Syntax { line: i + 1, column, expected, found }
                    }
                    crate::ObfError::Setup { column, source, .. } => {
                        crate::ObfError::Setup { line: i + 1, column, source }
                    }
                };
                e.to_string()
            })?,
        };
        if let Some((i, _)) = lines.next() {
            return Err(format!("line {}: expected one position: only one case of the text is read", i + 1));
        }
        Ok(JudgeCase { front: None, start, moves: Vec::new() })
    }

    fn setup_text(&self, start: &Position, moves: &[Move]) -> String {
        let pos = moves.iter().fold(*start, |p, &m| p.play(m));
        format!("{}\n", obf_line(&pos))
    }
}

/// The long solve of an Othello position (`games-cli othello --checkpoint`, `--store`):
/// values are final disc differences for the side to move.
impl game_front::Solvable for OthelloFront {
    type G = Othello;
    type Root = Position;

    fn solve_identity(&self, root: &Position) -> search_core::SolveIdentity {
        let n = self.geometry.size();
        search_core::SolveIdentity {
            game: "othello".to_string(),
            options: format!("size {n}"),
            root: obf_line(root),
        }
    }

    /// A disc difference of the board (at most n² either way), a square of the board or a
    /// pass.
    fn entry_possible(&self, _root: &Position, entry: &search_core::TtEntry<u128, Move>) -> bool {
        let all = Value::from(self.geometry.squares());
        entry.value.abs() <= all + 1
            && entry.best.map_or(true, |m| match m {
                Move::Play(sq) => self.geometry.contains(sq),
                Move::Pass => true,
            })
    }

    fn root_move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// The bounds clamped to the disc differences possible on the board.
    fn bounds_text(&self, _root: &Position, (lo, hi): (Value, Value)) -> String {
        let all = Value::from(self.geometry.squares());
        format!(
            "disc difference in [{}, {}]",
            crate::format_score(lo.clamp(-all, all)),
            crate::format_score(hi.clamp(-all, all))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_is_drawn_with_coordinates() {
        let pos = Position::start(Geometry::new(4).unwrap());
        assert_eq!(draw(&pos), "  a b c d\n1 . . . .\n2 . O X .\n3 . X O .\n4 . . . .\n");
        assert_eq!(score_text(&pos), "Black 2, White 2, 12 empty squares");
    }
}

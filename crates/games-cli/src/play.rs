//! `games-cli play GAME`: play against the perfect solver in the terminal (or through a pipe).
//!
//! The board is drawn after every move; the user types moves in the judge's notation, or
//! `hint` (the analysis: every move's value and the best line), `undo` (take back your last
//! move and the solver's replies), `help`, `quit`. Bad or illegal moves get a message and a new
//! prompt. The solver plays the first move, in move-generation order, of the best value.

use std::io::{self, BufRead, IsTerminal, Write};

use clap::ValueEnum;

use search_core::{Game, Player, Value};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game to play.
    #[arg(value_enum)]
    game: GameName,
    /// Which side you play: `first` (A, Black, x) or `second`.
    #[arg(long, value_enum, default_value_t = Side::First)]
    you: Side,
    /// Triangle War: side of the triangle (1 to 6; default 3).
    #[arg(long)]
    side: Option<u8>,
    /// Tic-tac-toe and the Young-diagram game: board size `ROWSxCOLS` (default 3x3).
    #[arg(long)]
    size: Option<String>,
    /// The Young-diagram game: seed of the random values 0 to 9 (default 1).
    #[arg(long, conflicts_with = "file")]
    seed: Option<u64>,
    /// The Young-diagram game: read the board and its values from a file in the judge's format.
    #[arg(long, conflicts_with = "size")]
    file: Option<std::path::PathBuf>,
    /// Tic-tac-toe: stones in a row to win (default: the shorter side).
    #[arg(long)]
    k: Option<usize>,
}

/// Games that can be played.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GameName {
    /// Triangle War: moves are segments `i j` (dot numbers).
    TriangleWar,
    /// Tic-tac-toe (any m,n,k-game up to 40 cells), scored as CCF 201803-4: moves are cells `r,c`.
    TicTacToe,
    /// The Young-diagram game (LOJ 2471): moves are cells `r,c`.
    YoungChess,
}

/// The side the user plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Move first (A in Triangle War, Black in the Young-diagram game, x in tic-tac-toe).
    First,
    /// Move second.
    Second,
}

/// What the play loop needs from a game beyond [`Game`]: text in and out.
pub trait Playable {
    /// The search-core game.
    type G: Game;
    /// The solver (its TT persists through the session).
    fn solver(&mut self) -> &mut search_core::Solver<Self::G>;
    /// The position drawn as text.
    fn draw(&self, pos: &<Self::G as Game>::Position) -> String;
    /// A move typed by the user, checked for legality in `pos`.
    fn parse_move(
        &self,
        pos: &<Self::G as Game>::Position,
        text: &str,
    ) -> Result<<Self::G as Game>::Move, String>;
    /// A move in the judge's notation.
    fn move_text(&self, mv: &<Self::G as Game>::Move) -> String;
    /// The name of a player (`A`, `Black`, `x`, …).
    fn player_name(&self, p: Player) -> &'static str;
    /// The score so far, in the game's words.
    fn score_text(&self, pos: &<Self::G as Game>::Position) -> String;
    /// The final result (first player's side) in words, e.g. `A wins by 3`.
    fn result_text(&self, value: Value) -> String;
    /// How to type a move.
    fn move_help(&self) -> &'static str;
}

/// Runs the subcommand on stdin.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let human = match args.you {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    // Options of another game are refused rather than silently ignored.
    let given = [
        ("--side", args.side.is_some(), args.game == GameName::TriangleWar),
        ("--size", args.size.is_some(), args.game != GameName::TriangleWar),
        ("--k", args.k.is_some(), args.game == GameName::TicTacToe),
        ("--seed", args.seed.is_some(), args.game == GameName::YoungChess),
        ("--file", args.file.is_some(), args.game == GameName::YoungChess),
    ];
    if let Some((option, ..)) = given.iter().find(|(_, used, applies)| *used && !applies) {
        let game = args.game.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
        anyhow::bail!("{option} does not apply to play {game}");
    }
    let stdin = io::stdin();
    // Piped input is not shown by a terminal: echo it so the transcript reads like a session.
    let echo = !stdin.is_terminal();
    let mut input = stdin.lock();
    match args.game {
        GameName::TriangleWar => {
            let mut game = crate::triangle_war::PlayTriangleWar::new(args.side.unwrap_or(3))?;
            let start = triangle_war::Position::start();
            play(&mut game, start, human, &mut input, echo, out)
        }
        GameName::TicTacToe => {
            let (rows, cols) = match &args.size {
                Some(size) => crate::tic_tac_toe::parse_size(size).map_err(anyhow::Error::msg)?,
                None => (3, 3),
            };
            // Same default as `winning-move`: k is the shorter side (3 on 3x3).
            let k = args.k.unwrap_or(rows.min(cols));
            let mut game = crate::tic_tac_toe::PlayTicTacToe::new(rows, cols, k)?;
            let start = game.start();
            play(&mut game, start, human, &mut input, echo, out)
        }
        GameName::YoungChess => {
            use crate::young_chess::PlayYoungChess;
            let board = match &args.file {
                Some(path) => {
                    let text = crate::common::InputArgs { file: Some(path.clone()) }.read()?;
                    young_chess::parse(&text)?
                }
                None => {
                    let (rows, cols) = match &args.size {
                        Some(size) => crate::tic_tac_toe::parse_size(size).map_err(anyhow::Error::msg)?,
                        None => (3, 3),
                    };
                    PlayYoungChess::random_board(rows, cols, args.seed.unwrap_or(1))?
                }
            };
            let mut game = PlayYoungChess::new(board)?;
            let start = game.start();
            play(&mut game, start, human, &mut input, echo, out)
        }
    }
}

/// The play loop: `input` gives the user's lines (copied to `out` after the prompt if `echo`),
/// everything is written to `out`.
pub fn play<P: Playable>(
    game: &mut P,
    start: <P::G as Game>::Position,
    human: Player,
    input: &mut dyn BufRead,
    echo: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "You play {}. Moves: {}. Commands: hint, undo, help, quit.",
        game.player_name(human),
        game.move_help()
    )?;
    // Positions before each move, with the player who made it.
    let mut history: Vec<(<P::G as Game>::Position, Player)> = Vec::new();
    let mut pos = start;
    let mut raw = Vec::new();
    loop {
        writeln!(out)?;
        write!(out, "{}", game.draw(&pos))?;
        writeln!(out, "score: {}", game.score_text(&pos))?;
        if let Some(rest) = game.solver().game().terminal_value(&pos) {
            let g = game.solver().game();
            let value = g.banked(&pos) + g.to_move(&pos).sign() * rest;
            writeln!(out, "Game over: {}.", game.result_text(value))?;
            return Ok(());
        }
        let mover = game.solver().game().to_move(&pos);
        if mover != human {
            let mv = best_move(game.solver(), &pos);
            writeln!(out, "{} plays {}", game.player_name(mover), game.move_text(&mv))?;
            history.push((pos, mover));
            pos = game.solver().game().play(&pos, mv).0;
            continue;
        }
        loop {
            write!(out, "{} to move> ", game.player_name(mover))?;
            out.flush()?;
            raw.clear();
            if input.read_until(b'\n', &mut raw)? == 0 {
                writeln!(out)?;
                writeln!(out, "Input ended; game abandoned.")?;
                return Ok(());
            }
            // Not UTF-8: shown as U+FFFD and answered as an unparsable move.
            let line = String::from_utf8_lossy(&raw);
            let text = line.trim();
            if echo {
                writeln!(out, "{text}")?;
            }
            match text {
                "" => continue,
                "quit" | "exit" => {
                    writeln!(out, "Game abandoned.")?;
                    return Ok(());
                }
                "help" => {
                    writeln!(out, "Type a move ({}), or hint, undo, quit.", game.move_help())?;
                    continue;
                }
                "hint" => {
                    let analysis = game.solver().analyze(&pos);
                    let moves: Vec<String> = analysis
                        .moves
                        .iter()
                        .map(|m| format!("{} {:+}", game.move_text(&m.mv), m.value))
                        .collect();
                    let pv: Vec<String> = analysis.pv.iter().map(|m| game.move_text(m)).collect();
                    writeln!(out, "value: {} ({})", analysis.value, game.result_text(analysis.value))?;
                    writeln!(out, "moves: {}", moves.join(", "))?;
                    writeln!(out, "pv: {}", pv.join(" "))?;
                    continue;
                }
                "undo" => {
                    // Take back the solver's replies and then the user's last move.
                    let Some(i) = history.iter().rposition(|&(_, p)| p == human) else {
                        writeln!(out, "Nothing to undo.")?;
                        continue;
                    };
                    pos = history[i].0;
                    history.truncate(i);
                    writeln!(out, "Move taken back.")?;
                    break;
                }
                _ => match game.parse_move(&pos, text) {
                    Ok(mv) => {
                        history.push((pos, mover));
                        pos = game.solver().game().play(&pos, mv).0;
                        break;
                    }
                    Err(msg) => writeln!(out, "{msg}")?,
                },
            }
        }
    }
}

/// The first move, in generation order, of the best value for the side to move.
fn best_move<G: Game>(solver: &mut search_core::Solver<G>, pos: &G::Position) -> G::Move {
    let values = solver.move_values(pos);
    let best = values.iter().map(|&(_, v)| v).max().expect("a non-terminal position has moves");
    values.into_iter().find(|&(_, v)| v == best).expect("the best value belongs to a move").0
}

/// A cell typed as `row,col` or `row col` (0-based), for the board games' `parse_move`.
pub fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a cell as `row,col` (0-based, e.g. `1,2`), found `{text}`");
    let nums: Vec<&str> =
        text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()).collect();
    let [r, c] = nums[..] else { return Err(bad()) };
    Ok((r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?))
}

/// A final margin in words: `{first} wins by N`, `{second} wins by N` or `draw`.
pub fn margin_words(value: Value, first: &str, second: &str) -> String {
    match value.signum() {
        1 => format!("{first} wins by {value}"),
        -1 => format!("{second} wins by {}", -value),
        _ => "draw".to_string(),
    }
}

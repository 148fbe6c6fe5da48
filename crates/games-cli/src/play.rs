//! `games-cli play GAME [OPTIONS]`: play against the perfect solver in the terminal (or through
//! a pipe), written once over [`Front`].
//!
//! The board is drawn after every move; the user types moves in the judge's notation, or
//! `hint` (the analysis: every move's value and the best line), `undo` (take back your last
//! move and the solver's replies), `help`, `quit` (or `q`). Bad or illegal moves get a message
//! and a new prompt. The solver plays the first move, in move-generation order, of the best
//! value. On a terminal, lines are edited with rustyline (arrows, history); piped input is read
//! line by line and echoed (control characters such as ESC written as `\u{1b}`), so that a
//! transcript reads like a session.

use std::io::{self, BufRead, IsTerminal, Write};

use anyhow::Result;
use search_core::{Game, Player};

use crate::connect_four::ConnectFourFront;
use crate::front::{Front, Pos};
use crate::tic_tac_toe::TicTacToeFront;
use crate::triangle_war::TriangleWarFront;
use crate::young_chess::YoungChessFront;

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Which side you play: `first` (A, Black, x) or `second`.
    #[arg(long, value_enum, default_value_t = Side::First, global = true)]
    you: Side,
    /// Seconds the solver may think about one reply or one hint; a reply not proven in time is
    /// the first legal move, said so (no limit by default).
    #[arg(long, value_name = "SECONDS", value_parser = crate::common::parse_seconds, global = true)]
    time_limit: Option<std::time::Duration>,
    #[command(subcommand)]
    game: PlayGame,
}

/// The games that can be played, each with its own options.
#[derive(clap::Subcommand, Debug)]
enum PlayGame {
    /// Triangle War: moves are segments `i j` (dot numbers).
    TriangleWar(crate::triangle_war::Options),
    /// Tic-tac-toe (any m,n,k-game up to 8x8), scored as CCF 201803-4: moves are cells `r,c`.
    TicTacToe(crate::tic_tac_toe::Options),
    /// The Young-diagram game (LOJ 2471): moves are cells `r,c`.
    YoungChess(crate::young_chess::Options),
    /// Connect Four (any board up to 64 cells with the spare row): moves are columns 1 to W.
    ConnectFour(crate::connect_four::Options),
}

/// The side the user plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Move first (A in Triangle War, Black in the Young-diagram game, x in tic-tac-toe).
    First,
    /// Move second.
    Second,
}

/// Runs `play` on standard input.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let human = match args.you {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let mut lines = Lines::stdin()?;
    let t = args.time_limit;
    match &args.game {
        PlayGame::TriangleWar(options) => {
            session(&TriangleWarFront::new(options)?, human, t, &mut lines, out)
        }
        PlayGame::TicTacToe(options) => session(&TicTacToeFront::new(options)?, human, t, &mut lines, out),
        PlayGame::YoungChess(options) => session(&YoungChessFront::new(options)?, human, t, &mut lines, out),
        PlayGame::ConnectFour(options) => {
            session(&ConnectFourFront::new(options)?, human, t, &mut lines, out)
        }
    }
}

/// Where the user's lines come from.
pub enum Lines<'a> {
    /// A terminal, with line editing and history.
    Editor(Box<rustyline::DefaultEditor>),
    /// Anything else, read line by line and echoed after the prompt.
    Plain(Box<dyn BufRead + 'a>),
}

impl Lines<'_> {
    /// Standard input: the line editor on a terminal, plain lines otherwise.
    fn stdin() -> Result<Lines<'static>> {
        if io::stdin().is_terminal() {
            if let Ok(editor) = rustyline::DefaultEditor::new() {
                return Ok(Lines::Editor(Box::new(editor)));
            }
        }
        Ok(Lines::Plain(Box::new(io::stdin().lock())))
    }

    /// The next line after showing `prompt`, trimmed; `None` at the end of the input (or
    /// Ctrl-D / Ctrl-C on a terminal).
    fn next(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Option<String>> {
        match self {
            Lines::Editor(editor) => {
                out.flush()?;
                match editor.readline(prompt) {
                    Ok(line) => {
                        let line = line.trim().to_string();
                        if !line.is_empty() {
                            let _ = editor.add_history_entry(line.as_str());
                        }
                        Ok(Some(line))
                    }
                    Err(
                        rustyline::error::ReadlineError::Eof | rustyline::error::ReadlineError::Interrupted,
                    ) => Ok(None),
                    Err(err) => Err(err.into()),
                }
            }
            Lines::Plain(input) => {
                write!(out, "{prompt}")?;
                out.flush()?;
                let mut raw = Vec::new();
                if input.read_until(b'\n', &mut raw)? == 0 {
                    return Ok(None);
                }
                // Not UTF-8: shown as U+FFFD and answered as an unparsable move.
                let line = String::from_utf8_lossy(&raw).trim().to_string();
                writeln!(out, "{}", escape_controls(&line))?;
                Ok(Some(line))
            }
        }
    }
}

/// `text` with every control character (ESC, BEL, …) written as a `\u{..}` escape, so that
/// echoing piped input cannot drive the terminal; the rest as is.
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// One game from `front`'s start position: `human` plays one side, the solver the other.
/// Everything is written to `out`.
pub fn session<F: Front>(
    front: &F,
    human: Player,
    time_limit: Option<std::time::Duration>,
    lines: &mut Lines<'_>,
    out: &mut dyn Write,
) -> Result<()> {
    let limits = || search_core::Limits { time: time_limit, ..search_core::Limits::default() };
    let mut solver = front.solver();
    writeln!(
        out,
        "You play {}. Moves: {}. Commands: hint, undo, help, quit.",
        front.player_name(human),
        front.move_help()
    )?;
    // Positions before each move, with the player who made it.
    let mut history: Vec<(Pos<F>, Player)> = Vec::new();
    let mut pos = front.start();
    loop {
        writeln!(out)?;
        write!(out, "{}", front.draw(&pos))?;
        writeln!(out, "score: {}", front.score_text(&pos))?;
        let game = solver.game();
        if let Some(rest) = game.terminal_value(&pos) {
            let value = game.banked(&pos) + game.to_move(&pos).sign() * rest;
            writeln!(out, "Game over: {}.", front.result_text(value))?;
            return Ok(());
        }
        let mover = game.to_move(&pos);
        if mover != human {
            if matches!(lines, Lines::Editor(_)) {
                // On a terminal, show the position now and say the solver is at work.
                writeln!(out, "{} is thinking…", front.player_name(mover))?;
                out.flush()?;
            }
            let mv = match time_limit {
                None => front.best_move(&mut solver, &pos),
                Some(t) => match front.try_best_move(&mut solver, &pos, limits()) {
                    Ok(mv) => mv,
                    Err(_) => {
                        let mut moves = Vec::new();
                        solver.game().generate_moves(&pos, &mut moves);
                        writeln!(
                            out,
                            "(no move proven best within {} s: playing the first legal move)",
                            t.as_secs_f64()
                        )?;
                        moves[0]
                    }
                },
            };
            writeln!(out, "{} plays {}", front.player_name(mover), front.move_text(&mv))?;
            history.push((pos, mover));
            pos = solver.game().play(&pos, mv).0;
            continue;
        }
        loop {
            let prompt = format!("{} to move> ", front.player_name(mover));
            let Some(text) = lines.next(&prompt, out)? else {
                writeln!(out)?;
                writeln!(out, "Input ended; game abandoned.")?;
                return Ok(());
            };
            match text.as_str() {
                "" => continue,
                "quit" | "exit" | "q" => {
                    writeln!(out, "Game abandoned.")?;
                    return Ok(());
                }
                "help" => {
                    writeln!(out, "Type a move ({}), or hint, undo, quit.", front.move_help())?;
                    continue;
                }
                "hint" => {
                    let analysis = match time_limit {
                        None => front.analyze(&mut solver, &pos),
                        Some(t) => match front.try_analyze(&mut solver, &pos, limits()) {
                            Ok(a) => a,
                            Err(_) => {
                                writeln!(out, "no exact hint within {} s", t.as_secs_f64())?;
                                continue;
                            }
                        },
                    };
                    let moves: Vec<String> = analysis
                        .moves
                        .iter()
                        .map(|m| format!("{} {:+}", front.move_text(&m.mv), m.value))
                        .collect();
                    let pv: Vec<String> = analysis.pv.iter().map(|m| front.move_text(m)).collect();
                    writeln!(out, "value: {} ({})", analysis.value, front.result_text(analysis.value))?;
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
                _ => match front.parse_move(&pos, &text) {
                    Ok(mv) => {
                        history.push((pos, mover));
                        pos = solver.game().play(&pos, mv).0;
                        break;
                    }
                    Err(msg) => writeln!(out, "{msg}")?,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(super::escape_controls("4\u{1b}[2J\u{7}é"), "4\\u{1b}[2J\\u{7}é");
    }
}

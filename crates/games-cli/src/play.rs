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
use game_front::{Front, Session, Solver as _, SolverSettings, Visit};
use search_core::{unlimited, Limits, Player};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Which side you play: `first` (A, Black, x) or `second`.
    #[arg(long, value_enum, default_value_t = Side::First, global = true)]
    you: Side,
    /// Seconds the solver may think about one reply or one hint; a reply not proven in time is
    /// the first legal move, said so (no limit by default).
    #[arg(long, value_name = "SECONDS", value_parser = long_solve::parse_seconds, global = true)]
    time_limit: Option<std::time::Duration>,
    /// Start from one case of the game's judge input format read from FILE (the Young-diagram
    /// game: the board's values, LOJ 2471) instead of the start position.
    #[arg(long, value_name = "FILE", global = true)]
    file: Option<std::path::PathBuf>,
    /// An opening book of the game's board (`cargo xtask book`): positions within its depth
    /// are answered from it, the others searched faster; a book of another game or board is
    /// refused.
    ///
    /// Without it, the book bundled for the board is read (Connect Four 7x6: every position
    /// within 8 plies of the start).
    #[arg(long, value_name = "FILE", global = true)]
    book: Option<std::path::PathBuf>,
    /// Read no opening book, not even the one bundled for the board.
    #[arg(long, global = true, conflicts_with = "book")]
    no_book: bool,
    /// Search threads of the solver (0: every core). The replies and hints do not depend on
    /// it (the first best move in the game's order), only their time.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = crate::common::threads_parser(), global = true)]
    threads: u16,
    #[command(subcommand)]
    game: PlayGame,
}

/// The game to play and its board parameters: one subcommand per game of the registry
/// ([`game_registry::GAMES`]), each with an option per parameter.
#[derive(Debug)]
struct PlayGame {
    name: String,
    params: Vec<(String, String)>,
}

/// The subcommand of a registered game: `--NAME VALUE` per parameter, checked by the game.
fn game_command(game: &game_registry::GameInfo) -> clap::Command {
    let mut command = clap::Command::new(game.name).about(format!("{} (e.g. {})", game.title, game.example));
    for p in game.params {
        let check = p.check;
        let mut arg = clap::Arg::new(p.name)
            .long(p.name)
            .value_name(p.value_name)
            .help(p.help)
            .value_parser(move |text: &str| check(text).map(|()| text.to_string()));
        if let Some(default) = p.default {
            arg = arg.default_value(default);
        }
        command = command.arg(arg);
    }
    command
}

impl clap::FromArgMatches for PlayGame {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = matches.subcommand() else {
            return Err(clap::Error::new(clap::error::ErrorKind::MissingSubcommand));
        };
        let Some(game) = game_registry::find(name) else {
            return Err(clap::Error::new(clap::error::ErrorKind::InvalidSubcommand));
        };
        let params = game
            .params
            .iter()
            .filter_map(|p| sub.get_one::<String>(p.name).map(|v| (p.name.to_string(), v.clone())))
            .collect();
        Ok(PlayGame { name: name.to_string(), params })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for PlayGame {
    fn augment_subcommands(command: clap::Command) -> clap::Command {
        game_registry::GAMES
            .iter()
            .fold(command, |c, g| c.subcommand(game_command(g)))
            .subcommand_required(true)
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        game_registry::find(name).is_some()
    }
}

/// The side the user plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Move first (A in Triangle War, Black in the Young-diagram game, x in tic-tac-toe).
    First,
    /// Move second.
    Second,
}

/// A session of the front the registry opened, played on `lines` into `out`.
struct Play<'a, 'b> {
    human: Player,
    time_limit: Option<std::time::Duration>,
    setup: Option<String>,
    book: Option<(std::path::PathBuf, std::sync::Arc<search_core::Book>)>,
    no_book: bool,
    threads: usize,
    lines: &'a mut Lines<'b>,
    out: &'a mut dyn Write,
}

impl Visit for Play<'_, '_> {
    type Output = Result<()>;
    fn visit<F: Front>(self, front: F) -> Result<()> {
        let mut settings = SolverSettings {
            no_bundled_book: self.no_book,
            threads: Some(self.threads),
            ..SolverSettings::default()
        };
        if let Some((path, book)) = self.book {
            front.check_book(&book).map_err(|e| anyhow::anyhow!("--book {}: {e}", path.display()))?;
            settings.book = Some(book);
        }
        let session = match &self.setup {
            Some(text) => {
                Session::from_setup(front, text, settings).map_err(|e| anyhow::anyhow!("--file: {e}"))?
            }
            None => Session::with_settings(front, settings),
        };
        session_loop(session, self.human, self.time_limit, self.lines, self.out)
    }
}

/// Runs `play` on standard input.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let human = match args.you {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let setup = match &args.file {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let book = match &args.book {
        Some(path) => Some((path.clone(), crate::common::read_book(path)?)),
        None => None,
    };
    let mut lines = Lines::stdin()?;
    let params: Vec<(&str, &str)> = args.game.params.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let play = Play {
        human,
        time_limit: args.time_limit,
        setup,
        book,
        no_book: args.no_book,
        threads: crate::common::thread_count(args.threads),
        lines: &mut lines,
        out,
    };
    game_registry::visit(&args.game.name, &params, play)?
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

/// One game from `session`'s position: `human` plays one side, the solver the other.
/// Everything is written to `out`.
fn session_loop<F: Front>(
    mut session: Session<F>,
    human: Player,
    time_limit: Option<std::time::Duration>,
    lines: &mut Lines<'_>,
    out: &mut dyn Write,
) -> Result<()> {
    let limits = || Limits { time: time_limit, ..Limits::default() };
    let name = |p: Player| session_name(&session, p);
    writeln!(
        out,
        "You play {}. Moves: {}. Commands: hint, undo, help, quit.",
        name(human),
        session.front().move_help()
    )?;
    loop {
        let (front, _, pos) = session.parts();
        writeln!(out)?;
        write!(out, "{}", front.draw(pos))?;
        writeln!(out, "score: {}", front.score_text(pos))?;
        if let Some(value) = session.final_value() {
            writeln!(out, "Game over: {}.", session.front().result_text(value))?;
            return Ok(());
        }
        let mover = session.to_move();
        if mover != human {
            if matches!(lines, Lines::Editor(_)) {
                // On a terminal, show the position now and say the solver is at work.
                writeln!(out, "{} is thinking…", session_name(&session, mover))?;
                out.flush()?;
            }
            let (_, solver, pos) = session.parts();
            let mv = match time_limit {
                None => unlimited(solver.try_best_move(pos, Limits::default())),
                Some(t) => match solver.try_best_move(pos, limits()) {
                    Ok(mv) => mv,
                    Err(_) => {
                        writeln!(
                            out,
                            "(no move proven best within {} s: playing the first legal move)",
                            t.as_secs_f64()
                        )?;
                        session.legal_moves()[0]
                    }
                },
            };
            writeln!(out, "{} plays {}", session_name(&session, mover), session.front().move_text(&mv))?;
            session.play(mv);
            continue;
        }
        loop {
            let prompt = format!("{} to move> ", session_name(&session, mover));
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
                    writeln!(out, "Type a move ({}), or hint, undo, quit.", session.front().move_help())?;
                    continue;
                }
                "hint" => {
                    let (front, solver, pos) = session.parts();
                    let analysis = match time_limit {
                        None => unlimited(solver.try_analyze(pos, Limits::default())),
                        Some(t) => match solver.try_analyze(pos, limits()) {
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
                    if !session.undo_turn_of(human) {
                        writeln!(out, "Nothing to undo.")?;
                        continue;
                    }
                    writeln!(out, "Move taken back.")?;
                    break;
                }
                _ => match session.play_text(&text) {
                    Ok(_) => break,
                    Err(msg) => writeln!(out, "{msg}")?,
                },
            }
        }
    }
}

/// The name of `player` in `session`'s game.
fn session_name<F: Front>(session: &Session<F>, player: Player) -> &'static str {
    session.front().player_name(player)
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(super::escape_controls("4\u{1b}[2J\u{7}é"), "4\\u{1b}[2J\\u{7}é");
    }
}

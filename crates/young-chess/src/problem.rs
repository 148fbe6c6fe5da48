//! The Young-diagram game as a judge subcommand ([`YoungChessProblem`], LOJ 2471): Black's
//! score minus White's under perfect play, one integer.
//!
//! Before solving, the memory the solve needs ([`dp::memory_estimate`]) is compared with the
//! memory available, and a board that would not fit is refused with the estimate instead of
//! being killed. `--analyze` explains the answer from the DP table of every staircase.

use game_front::{
    CaseReport, Explained, Features, NoLongSolve, Numbered, OptionSpec, Problem, ProblemOptions, Reply,
    Request, Tables,
};
use search_core::Analysis;

use crate::{dp, player_name, Board, Cell, Staircase, YoungGame, VALUE_NOTE};

/// Solves report their progress above this many staircases (15 x 15 and up: a second or more).
const PROGRESS_STATES: u128 = 100_000_000;

/// `games-cli young-chess`: the LOJ 2471 judge.
pub struct YoungChessProblem;

impl Problem for YoungChessProblem {
    type Case = Board;
    type Search = YoungGame<'static>;
    type Long = NoLongSolve<YoungGame<'static>>;

    const COMMAND: &'static str = "young-chess";
    const ABOUT: &'static str =
        "The Young-diagram game (LOJ 2471 \"一双木棋\"): Black's score minus White's.";
    const AFTER_HELP: &'static str = "\
Input (LOJ 2471): `n m`, then n lines of m values A (Black's), then n lines of m values B
(White's); values 0 to 100000. Output: Black's score minus White's under perfect play.

Example:
  $ printf '2 3\\n2 7 3\\n9 1 2\\n3 7 2\\n2 3 1\\n' | games-cli young-chess
  2";
    const OPTIONS: &'static [OptionSpec] = &[];
    const FEATURES: Features = Features {
        empty: false,
        table: Tables::None,
        long: false,
        algorithm: true,
        book: false,
        unit: "case",
    };

    fn new(_: &ProblemOptions, _: &Request) -> Result<Self, String> {
        Ok(YoungChessProblem)
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Board>>> + 'a> {
        let board = crate::parse_from(input);
        Box::new(std::iter::once(board.map(|case| Numbered { number: 1, case }).map_err(Into::into)))
    }

    fn empty_case(&self) -> Board {
        unreachable!("young-chess offers no --empty")
    }

    fn answer(
        &mut self,
        _: usize,
        board: &Board,
        request: &Request,
        progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        let black = player_name(search_core::Player::First).to_string();
        if !request.analyze {
            let mut algorithm = None;
            let value = if let Some(algo) = request.algorithm {
                let game = YoungGame::new(board);
                let tt_bits = YoungGame::SEARCH_OPTIONS.tt_bits;
                let (v, stats) = search_core::reference::solve_with(algo, &game, &board.start(), tt_bits);
                algorithm = Some((v, stats));
                v
            } else {
                check_memory(board, dp::memory_estimate(board), "solving it", request.memory_available)?;
                let states = dp::staircase_count(board.rows(), board.cols());
                if states < PROGRESS_STATES || !request.terminal {
                    dp::solve(board)?
                } else {
                    dp::solve_with_progress(board, &mut |done, total| {
                        let percent = done as f64 * 100.0 / total.max(1) as f64;
                        progress(&format!("{percent:.0}% of {total} staircases"));
                    })?
                }
            };
            let answer = value.to_string();
            return Ok(Reply::Answer {
                answer,
                to_move: black,
                value: Some(value),
                explained: None,
                algorithm,
                json: None,
            });
        }
        let need = dp::table_memory_estimate(board);
        check_memory(board, need, "analysing it (every staircase kept)", request.memory_available)?;
        let analysis = crate::analyze_start(board)?;
        let answer = analysis.value.to_string();
        // Judge boards may exceed a session's size: the notation is the front's, without a front.
        let report = CaseReport::with_notation(1, answer.clone(), &analysis, player_name, Cell::to_string);
        let explained = Box::new(Explained {
            report,
            board: diagram(board, &analysis),
            score: "Black 0, White 0".to_string(),
            note: VALUE_NOTE,
        });
        Ok(Reply::Answer {
            answer,
            to_move: black,
            value: Some(analysis.value),
            explained: Some(explained),
            algorithm: None,
            json: None,
        })
    }
}

/// The empty board, and the board filled along the PV with who took each cell.
fn diagram(board: &Board, analysis: &Analysis<Cell>) -> String {
    let (n, m) = (board.rows(), board.cols());
    let mut owner = vec!['.'; n * m];
    let mut pos = board.start();
    for &c in &analysis.pv {
        owner[c.row as usize * m + c.col as usize] = if pos.black_to_move() { 'B' } else { 'W' };
        pos = pos.fill(c).unwrap_or(pos);
    }
    let start: Staircase = board.start();
    let mut s = String::from("board (# filled, . empty):\n");
    for line in start.diagram().lines() {
        s.push_str(&spaced(line.chars()));
    }
    s.push_str("after the PV (B Black, W White):\n");
    for row in owner.chunks(m) {
        s.push_str(&spaced(row.iter().copied()));
    }
    s
}

fn spaced(cells: impl Iterator<Item = char>) -> String {
    let mut line: String = cells.flat_map(|c| [c, ' ']).collect();
    line.pop();
    line.push('\n');
    line
}

/// Refuses, before allocating, a board for which `what` (e.g. "solving it") would need `need`
/// bytes, more than `available` (unknown: not checked), with a margin of 5% + 64 MiB.
fn check_memory(board: &Board, need: u128, what: &str, available: Option<u128>) -> anyhow::Result<()> {
    let Some(available) = available else { return Ok(()) };
    if need + need / 20 + (64 << 20) <= available {
        return Ok(());
    }
    let states = dp::staircase_count(board.rows(), board.cols());
    anyhow::bail!(
        "board {} x {} has {} staircases; {what} needs about {}, more than the memory available",
        board.rows(),
        board.cols(),
        if states == u128::MAX { "too many".to_string() } else { states.to_string() },
        judge_text::human_bytes(need)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_checked_before_solving() {
        let n = 30;
        let board = Board::new(n, n, vec![0; n * n], vec![0; n * n]).unwrap();
        let need = dp::memory_estimate(&board);
        let err = check_memory(&board, need, "solving it", Some(1 << 40)).unwrap_err().to_string();
        assert!(err.contains("needs about 6.6 EiB, more than the memory available"), "{err}");
        // A board that fits, with the margin, is accepted; unknown availability is not checked.
        let small = Board::new(2, 2, vec![1; 4], vec![1; 4]).unwrap();
        assert!(check_memory(&small, dp::memory_estimate(&small), "solving it", Some(1 << 30)).is_ok());
        assert!(check_memory(&board, need, "solving it", None).is_ok());
    }
}

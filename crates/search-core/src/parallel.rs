//! One search on every thread of an engine ([`Search::run`]): lazy SMP with simplified ABDADA
//! over the shared TT, after a first part on the calling thread alone; and the game's hooks
//! picked once per search ([`crate::Game::visit_search`]), so that the negamax is compiled
//! for them.
//!
//! Lazy SMP (shared-memory parallel search without split points): every thread searches the
//! same root with the same window, all of them probing and storing one shared TT, and the
//! search ends when the first thread finishes; the others are then stopped. Since every thread
//! runs a complete fail-soft alpha-beta search over a TT that only ever holds correct bounds,
//! the finished thread's result satisfies the window's contract ([`crate::Engine::search`])
//! whatever the others did: values are exactly those of one thread (a fail-soft bound outside
//! the window may differ, its meaning does not).
//!
//! For the threads to split the work instead of racing down the same line, a thread entering a
//! child of a node near the root marks the child as busy in a small shared table; another
//! thread reaching the same child as a later move of its node puts it off and searches the
//! node's other moves first, coming back to it at the end (by then usually a TT hit). This is
//! T. Kerrigan's simplified form of ABDADA (J.-C. Weill, "The ABDADA distributed minimax search
//! algorithm", *ICCA Journal* 19, 1996). The classic lazy SMP alternative, helpers with a
//! perturbed move order ([`crate::Engine::set_perturb`]), made Connect Four search about 1.7
//! times the one-thread tree in total where deferral made it 1.07 times (Test_L1_R2, first 20
//! positions, 2 threads, TT 2^16: 618k and 375k mean nodes against 349k on one thread).
//!
//! Small searches do not pay for waking threads: each search first runs on the calling thread
//! alone for [`crate::Engine::set_solo_nodes`] nodes; only if it has not finished by then do
//! the helpers start (on the same TT, so the first part's results are not lost). Threads are
//! started per search ([`std::thread::scope`]), which costs tens of microseconds against
//! searches of at least [`crate::DEFAULT_SOLO_NODES`] nodes. A helper thread the system refuses
//! to create (a thread or address-space limit) is skipped, not a panic: the search runs on the
//! threads that started, the calling one at least, with the same values.
//!
//! # Sources
//! - Lazy SMP: D. Dailey's "Lazy SMP" posts (Computer Chess Club, 2013); here without depth
//!   variation (an exact solver always searches to the end).
//! - ABDADA: J.-C. Weill (1996), in T. Kerrigan's simplified form with a table of busy
//!   positions.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use crate::exchange::Exchange;
use crate::game::{Expansion, Game, SearchVisitor, Value};
use crate::negamax::{BusyTable, Ctx, GameHooks, Hooks, LimitCheck, NoHooks, Worker};
use crate::options::{Limits, SearchOptions};
use crate::table::Tables;

/// log2 of the number of slots of the table of positions being searched.
pub(crate) const BUSY_BITS: u32 = 14;

/// One search of `pos` with the window `(alpha, beta)` over an engine's parts.
pub(crate) struct Search<'a, G: Game> {
    pub(crate) game: &'a G,
    pub(crate) tt: &'a mut Tables<G::Key, G::Move>,
    pub(crate) workers: &'a mut [Worker<G::Move, G::Position, G::Key>],
    pub(crate) busy: Option<&'a BusyTable>,
    pub(crate) options: &'a SearchOptions,
    /// [`crate::Engine::set_solo_nodes`].
    pub(crate) solo_nodes: u64,
    /// [`crate::Engine::set_perturb`].
    pub(crate) perturb: bool,
    /// [`crate::Engine::set_etc_min_reach`].
    pub(crate) etc_min_reach: Value,
    /// The limits, checked when `limited` and some are set.
    pub(crate) limits: &'a Limits,
    pub(crate) limited: bool,
    /// When the current run of limited searches started (for [`Limits::time`]).
    pub(crate) started: Option<Instant>,
    /// [`Game::own_nodes`] when the engine's statistics were last zeroed.
    pub(crate) own_nodes_base: u64,
    /// [`crate::Engine::set_book`].
    pub(crate) book: Option<&'a crate::Book>,
    /// [`crate::Engine::set_exchange`].
    pub(crate) exchange: Option<&'a Exchange<G::Key, G::Move>>,
    pub(crate) pos: &'a G::Position,
    pub(crate) alpha: Value,
    pub(crate) beta: Value,
}

impl<G: Game> Search<'_, G> {
    /// The search on all threads: its value, or `None` when a limit stopped it.
    pub(crate) fn run(self) -> Option<Value> {
        G::visit_search(self)
    }
}

impl<G: Game> SearchVisitor<G> for Search<'_, G> {
    type Output = Option<Value>;

    fn plain(self) -> Option<Value> {
        self.run_with::<NoHooks>()
    }

    fn expanded(self) -> Option<Value>
    where
        G: Expansion,
    {
        self.run_with::<GameHooks>()
    }
}

impl<G: Game> Search<'_, G> {
    /// [`Search::run`] with the hooks `H`.
    fn run_with<H: Hooks<G>>(self) -> Option<Value> {
        let Search { game, tt, workers, busy, options, pos, alpha, beta, .. } = self;
        let stop = AtomicBool::new(false);
        let check = (self.limited && self.limits.is_set()).then(|| LimitCheck {
            limits: self.limits,
            started: self.started,
            nodes: AtomicU64::new(
                workers.iter().map(|w| w.stats.nodes).sum::<u64>()
                    + game.own_nodes().saturating_sub(self.own_nodes_base),
            ),
            own_nodes_start: game.own_nodes(),
            interrupted: AtomicBool::new(false),
        });
        let mut ctx: Ctx<'_, G, H> = Ctx {
            game,
            hooks: PhantomData,
            stop: &stop,
            pvs: options.principal_variation_search,
            etc: options.enhanced_transposition_cutoff,
            etc_min_moves: options.etc_min_moves,
            prefetch_children: options.prefetch_children,
            etc_min_reach: self.etc_min_reach,
            busy: None,
            defer_plies: 0,
            check,
            book: self.book,
            book_plies: self.book.map_or(0, |b| b.plies() as usize),
            exchange: self.exchange,
        };
        if let Some(given) = self.exchange.and_then(Exchange::take_given) {
            tt.store_all(&given);
        }
        let perturb = self.perturb;
        let path_plies = self.exchange.map_or(0, Exchange::defer_plies);
        for w in workers.iter_mut() {
            w.perturb = perturb && w.id > 0;
            w.path.resize(path_plies, 0);
        }
        let (main, helpers) = workers.split_first_mut().expect("at least one thread");
        main.stopped = false;
        main.budget =
            if helpers.is_empty() { u64::MAX } else { main.stats.nodes.saturating_add(self.solo_nodes) };
        let mut v = match &mut *tt {
            Tables::Serial(tt) => main.negamax(&ctx, tt, pos, alpha, beta, 0, None),
            Tables::Bounds(tt) => main.negamax(&ctx, tt, pos, alpha, beta, 0, None),
            Tables::Packed(tt) => main.negamax(&ctx, tt, pos, alpha, beta, 0, None),
            Tables::Shared(tt) => main.negamax(&ctx, &mut &*tt, pos, alpha, beta, 0, None),
        };
        let interrupted =
            |ctx: &Ctx<'_, G, H>| ctx.check.as_ref().is_some_and(|c| c.interrupted.load(Ordering::Relaxed));
        let mut stopped = main.stopped && interrupted(&ctx);
        if main.stopped && !stopped {
            // Not finished alone: every thread searches the root from here on.
            let Tables::Shared(tt) = &*tt else { unreachable!("one thread has no solo budget") };
            main.stopped = false;
            main.budget = u64::MAX;
            ctx.busy = busy;
            ctx.defer_plies = options.defer_plies;
            let ctx_ref = &ctx;
            let result = OnceLock::new();
            let pos = *pos;
            std::thread::scope(|s| {
                let run = |w: &mut Worker<G::Move, G::Position, G::Key>| {
                    w.stopped = false;
                    let v = w.negamax(ctx_ref, &mut &*tt, &pos, alpha, beta, 0, None);
                    if !w.stopped {
                        // The first finished thread's value; the others stop.
                        let _ = result.set(v);
                        stop.store(true, Ordering::Relaxed);
                    }
                };
                for w in helpers.iter_mut() {
                    // A thread the system refuses to create (a thread or memory limit) is not
                    // an error: the search goes on with the threads it has, this one at least.
                    let _ = spawn_helper(s, move || run(w));
                }
                run(main);
            });
            // A finished thread's value is exact even if a limit was reached meanwhile.
            match result.get() {
                Some(&r) => v = r,
                None => {
                    debug_assert!(
                        interrupted(&ctx),
                        "a search ends when a thread finished or a limit stopped it"
                    );
                    stopped = true;
                }
            }
        }
        if let Some(x) = ctx.exchange {
            for w in workers.iter_mut() {
                x.hand_over(&mut w.proven);
            }
            if path_plies > 0 {
                x.hand_path(&[]);
            }
        }
        (!stopped).then_some(v)
    }
}

/// Starts a helper thread of a search in `scope`: `Err` when the system refuses to create it
/// (never a panic, unlike [`std::thread::Scope::spawn`]); the helper's work is then not done.
fn spawn_helper<'scope, F>(scope: &'scope std::thread::Scope<'scope, '_>, f: F) -> std::io::Result<()>
where
    F: FnOnce() + Send + 'scope,
{
    #[cfg(test)]
    if tests::REFUSE_SPAWNS.with(std::cell::Cell::get) {
        tests::REFUSED.with(|n| n.set(n.get() + 1));
        return Err(std::io::Error::other("thread creation refused by the test"));
    }
    std::thread::Builder::new().spawn_scoped(scope, f).map(drop)
}

#[cfg(test)]
mod tests {
    use crate::{Engine, Player, SearchOptions};
    use std::cell::Cell;

    thread_local! {
        /// Whether [`super::spawn_helper`] refuses every thread on this (the test's) thread.
        pub(super) static REFUSE_SPAWNS: Cell<bool> = const { Cell::new(false) };
        /// How many threads it refused.
        pub(super) static REFUSED: Cell<usize> = const { Cell::new(0) };
    }

    use crate::test_games::Take3;

    /// A search whose helper threads the system refuses runs on the calling thread and gets
    /// the one-thread value, without a panic.
    #[test]
    fn refused_helper_threads_leave_the_search_to_the_calling_thread() {
        let root = (18, 1, Player::First);
        let expected = Engine::new(Take3, 16).solve(&root);
        assert_eq!(expected, 1, "18 is not a multiple of 4: the first player wins");
        REFUSE_SPAWNS.with(|r| r.set(true));
        let options = SearchOptions { threads: 4, tt_bits: 16, ..SearchOptions::DEFAULT };
        let mut engine = Engine::with_options(Take3, options);
        engine.set_solo_nodes(0);
        assert_eq!(engine.solve(&root), expected);
        REFUSE_SPAWNS.with(|r| r.set(false));
        assert!(REFUSED.with(Cell::get) >= 3, "the helpers were asked for and refused");
        // And with threads granted, the same value.
        let mut engine = Engine::with_options(Take3, options);
        engine.set_solo_nodes(0);
        assert_eq!(engine.solve(&root), expected);
    }
}

//! The opening book bundled with the crate (`books/7x6.book`, built by `cargo xtask book
//! connect-four`): the exact score of every 7 x 6 position within its depth of the empty board,
//! which the fronts' solvers read unless told otherwise, so that the opening is answered at
//! once; and the reply book bundled beside it (`books/7x6.replies`, built by `cargo xtask book
//! connect-four --replies`): the solver's reply in every position it faces within its depth
//! when it plays by these replies, so that its moves of the opening come at once too.

use std::sync::{Arc, OnceLock};

use search_core::Book;

use crate::{ConnectFour, Geometry, Replies};

/// The bytes of the bundled book: a book file ([`Book::from_bytes`]) of the 7 x 6 board.
pub const BUNDLED_BOOK_BYTES: &[u8] = include_bytes!("../books/7x6.book");

/// The bundled book when `geom` is the standard 7 x 6 board, read and verified once (its
/// checksum, and that it is a book of this game and board: [`Book::check`]); `None` on every
/// other board. A book that fails either check is never read (`None`); the crate's tests
/// keep the bundled one intact.
#[must_use]
pub fn bundled_book(geom: Geometry) -> Option<Arc<Book>> {
    static BOOK: OnceLock<Option<Arc<Book>>> = OnceLock::new();
    if (geom.width(), geom.height(), geom.k()) != (7, 6, 4) {
        return None;
    }
    BOOK.get_or_init(|| {
        let book = Book::from_bytes(BUNDLED_BOOK_BYTES).ok()?;
        book.check(&ConnectFour::new(geom).book_identity()).ok()?;
        Some(Arc::new(book))
    })
    .clone()
}

/// The bytes of the bundled reply book: a [`Replies`] file of the 7 x 6 board.
pub const BUNDLED_REPLIES_BYTES: &[u8] = include_bytes!("../books/7x6.replies");

/// The bundled reply book when `geom` is the standard 7 x 6 board, read and verified once
/// ([`Replies::from_bytes`]: its checksum, its board, every column on the board); `None` on
/// every other board or when it fails a check.
#[must_use]
pub fn bundled_replies(geom: Geometry) -> Option<Arc<Replies>> {
    static REPLIES: OnceLock<Option<Arc<Replies>>> = OnceLock::new();
    if geom != Geometry::STANDARD {
        return None;
    }
    REPLIES.get_or_init(|| Replies::from_bytes(geom, BUNDLED_REPLIES_BYTES).ok().map(Arc::new)).clone()
}

/// The reply book a solver of `geom` answers from: the bundled one unless `no_bundled`.
pub(crate) fn replies_to_read(geom: Geometry, no_bundled: bool) -> Option<Arc<Replies>> {
    if no_bundled {
        None
    } else {
        bundled_replies(geom)
    }
}

/// The book a solver of `geom` reads: `given` if any, else the bundled one unless
/// `no_bundled`.
pub(crate) fn book_to_read(geom: Geometry, given: Option<Arc<Book>>, no_bundled: bool) -> Option<Arc<Book>> {
    given.or_else(|| if no_bundled { None } else { bundled_book(geom) })
}

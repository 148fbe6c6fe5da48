"""book= of the solving functions and of Bot, with the opening book in the repository
(books/connect-four-7x6-p4.book: every Connect Four 7x6 position within 4 plies of the start):
the same values as without it on the empty board, within its depth and beyond it, and a book
that cannot be read (OSError), or is damaged, truncated or of another game or board
(ValueError), refused with a message naming the file. Run by `cargo xtask test`.

The empty board and the positions of up to 3 stones cost minutes without the book (the empty
board 131 M nodes for its value alone): their values are compared with the published ones
(J. Tromp; P. Pons) and with Pons' test set. An analysis (move_values, analyze) computes a principal
variation to the end of the game, beyond the book: seconds on the empty board with the book,
so that the positions of up to 3 stones are checked column by column with value()."""

import os
import shutil
from pathlib import Path

import pytest

import game_solvers as gs

ROOT = Path(__file__).resolve().parents[3]
BOOK = ROOT / "books" / "connect-four-7x6-p4.book"
PONS = ROOT / "testdata" / "connect-four"

# The empty 7x6 board: each column's score for the first player (Pons' convention: a win with
# one's 21st stone scores 1; the middle column wins, its neighbours draw).
EMPTY_BOARD = {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}

SOLVERS = [gs.value, gs.move_values, gs.best_action, gs.principal_variation, gs.analyze]


def connect_four(moves=""):
    """A 7x6 state after `moves` (Pons' notation: columns 1-based)."""
    state = gs.load_game("connect_four").new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    return state


def pons(name, stones):
    """The (moves, score) lines of Pons' test set `name` whose positions have `stones` stones
    (a range)."""
    lines = [line.split() for line in (PONS / name).read_text().splitlines()]
    return [(moves, int(score)) for moves, score in lines if len(moves) in stones]


def column_values(state, **options):
    """Each legal column's value for the player to move, from value() of the position after it
    (no game ends within 4 stones)."""
    values = {}
    for action in state.legal_actions():
        child = state.child(action)
        assert not child.is_terminal()
        values[action] = -gs.value(child, **options)
    return values


def test_the_book_is_in_the_repository():
    assert BOOK.is_file(), f"{BOOK} missing"


def test_empty_board_from_the_book():
    state = connect_four()
    # From the book at once (the search alone takes far longer than the limit).
    assert gs.value(state, book=BOOK, time_limit=5) == 1
    assert column_values(state, book=BOOK, time_limit=5) == EMPTY_BOARD
    assert gs.move_values(state, book=BOOK) == EMPTY_BOARD
    report = gs.analyze(state, book=BOOK)
    assert report["value"] == 1 and report["pv"][0] == 3
    assert {m["action"]: m["value"] for m in report["moves"]} == EMPTY_BOARD
    assert gs.best_action(state, book=BOOK) == 3
    # The same file named by its string: the same book (read once), so the state keeps its
    # solver and TT: the analysis again in a few nodes.
    again = gs.analyze(state, book=str(BOOK))
    assert again["moves"] == report["moves"] and again["pv"] == report["pv"]
    assert again["nodes"] < 1000, again["nodes"]


def test_a_relative_path(monkeypatch):
    # The README's example, run from the repository's root.
    monkeypatch.chdir(ROOT)
    state = connect_four()
    assert gs.value(state, book="books/connect-four-7x6-p4.book", time_limit=5) == 1
    assert gs.value(state, book=Path("books") / "connect-four-7x6-p4.book", time_limit=5) == 1


@pytest.mark.parametrize("moves,score", pons("Test_L1_R3", range(0, 4))[:12])
def test_openings_of_up_to_three_stones_are_pons_scores(moves, score):
    # Pons' "begin hard" positions of 1 to 3 stones: they and each column's position are in
    # the book.
    state = connect_four(moves)
    assert gs.value(state, book=BOOK, time_limit=5) == score
    assert max(column_values(state, book=BOOK, time_limit=5).values()) == score


@pytest.mark.parametrize("moves", ["4737", "5544"])
def test_same_values_within_the_depth(moves):
    # Positions of 4 stones (the book's deepest ply, Pons' "begin easy" set): the value from
    # the book, every column's value with and without it.
    score = dict(pons("Test_L1_R1", range(4, 5)))[moves]
    state = connect_four(moves)
    assert gs.value(state, book=BOOK) == score
    assert gs.value(connect_four(moves)) == score
    assert gs.move_values(state, book=BOOK) == gs.move_values(connect_four(moves))


@pytest.mark.parametrize(
    "moves,score", pons("Test_L1_R1", range(6, 9))[:4] + pons("Test_L2_R1", range(14, 29))[:4]
)
def test_same_values_beyond_the_depth(moves, score):
    state = connect_four(moves)
    with_book = gs.analyze(state, book=BOOK)
    without = gs.analyze(state)
    assert with_book["value"] == without["value"] == score
    assert {m["action"]: m["value"] for m in with_book["moves"]} == {
        m["action"]: m["value"] for m in without["moves"]
    }


def test_the_bot_reads_the_book():
    # With a time limit the bot solves each column's position: from the book at once.
    bot = gs.Bot("connect_four", book=BOOK, time_limit=30)
    assert bot.step(connect_four()) == 3
    assert bot.last_value == 1 and bot.last_move_proven


def copy_of_book(tmp_path, name="copy.book"):
    path = tmp_path / name
    shutil.copyfile(BOOK, path)
    return path


def raises_naming(kind, path, *words, state=None):
    """Every solving function and the bot's constructor raise `kind` with `path` and `words`
    in the message."""
    state = state or connect_four()
    for solve in SOLVERS:
        with pytest.raises(kind) as caught:
            solve(state, book=path)
        assert type(caught.value) is kind or kind is OSError, caught.value
        message = str(caught.value)
        assert str(path) in message and all(w in message for w in words), message
    with pytest.raises(kind) as caught:
        gs.Bot(state.get_game(), book=path)
    assert str(path) in str(caught.value)
    # The state is still usable, and so is its solver with the right book.
    assert gs.value(connect_four(), book=BOOK) == 1


def test_a_missing_file(tmp_path):
    path = tmp_path / "missing.book"
    raises_naming(FileNotFoundError, path, "cannot read the opening book")
    with pytest.raises(FileNotFoundError) as caught:
        gs.value(connect_four(), book=path)
    assert caught.value.filename == str(path)


def test_a_directory(tmp_path):
    raises_naming(OSError, tmp_path, "cannot read the opening book")


def test_a_damaged_book(tmp_path):
    data = BOOK.read_bytes()
    path = tmp_path / "damaged.book"
    path.write_bytes(data[:1000] + bytes([data[1000] ^ 0x10]) + data[1001:])
    raises_naming(ValueError, path, "damaged")


def test_every_flipped_byte_is_refused(tmp_path):
    # One bit flipped in any byte: the magic, the version, or the CRC-32 over the rest.
    data = BOOK.read_bytes()
    for i in range(len(data)):
        path = tmp_path / f"flip{i}.book"
        path.write_bytes(data[:i] + bytes([data[i] ^ 1]) + data[i + 1 :])
        with pytest.raises(ValueError) as caught:
            gs._native._check_book(gs.load_game("connect_four"), path)
        assert str(path) in str(caught.value), (i, str(caught.value))


@pytest.mark.parametrize("keep", [0, 5, 10, 20, 1006, -1])
def test_a_truncated_book(tmp_path, keep):
    data = BOOK.read_bytes()
    path = tmp_path / "truncated.book"
    path.write_bytes(data[: len(data) + keep if keep < 0 else keep])
    raises_naming(ValueError, path, "truncated")


def test_not_a_book(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("4453 1\n" * 100)
    raises_naming(ValueError, path, "not a book file")


@pytest.mark.parametrize(
    "spec,words",
    [
        ("connect_four(rows=5,columns=6)", ['"connect-four 7x6"', '"connect-four 6x5"']),
        ("connect_four(size=8x6)", ['"connect-four 7x6"', '"connect-four 8x6"']),
        ("tic_tac_toe", ["no opening book"]),
        ("dots_and_boxes(size=2x2)", ["no opening book"]),
        ("triangle_war(side=2)", ["no opening book"]),
    ],
)
def test_a_book_of_another_game_or_board(spec, words):
    state = gs.load_game(spec).new_initial_state()
    raises_naming(ValueError, BOOK, *words, state=state)


def test_a_book_changed_on_disk_is_read_again(tmp_path):
    path = copy_of_book(tmp_path)
    state = connect_four()
    assert gs.value(state, book=path) == 1
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    with pytest.raises(ValueError, match="truncated"):
        gs.value(state, book=path)
    path.write_bytes(data)
    assert column_values(state, book=path, time_limit=5) == EMPTY_BOARD
    path.unlink()
    with pytest.raises(FileNotFoundError):
        gs.value(state, book=path)


def test_other_types_raise_type_error():
    for bad in (3, 1.5, ["books"]):
        with pytest.raises(TypeError):
            gs.value(connect_four(), book=bad)


def test_the_bundled_book_is_read_unless_book_is_false():
    # Without book=, the empty 7x6 board is answered from the book bundled with the module, at
    # once: its value and every column's, the published ones; with book=False the search takes
    # minutes (stopped here by its time limit). book=True is not a book.
    state = connect_four()
    assert gs.value(state, time_limit=5) == 1
    assert gs.move_values(state, time_limit=5) == EMPTY_BOARD
    with pytest.raises(gs.SearchInterrupted):
        gs.value(state, time_limit=0.2, book=False)
    with pytest.raises(TypeError, match="False for none"):
        gs.value(state, book=True)

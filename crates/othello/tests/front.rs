//! The front's texts read back: OBF setups, move names (upper and lower case, `pass`), and
//! the board JSON's moves are the legal moves, on seeded random games of every board size.

use game_front::{Front, Params, Solvable};
use othello::{answer_line, obf_line, parse_obf, parse_obf_line, Geometry, Move, OthelloFront, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[test]
fn setups_and_moves_read_back_along_random_games() {
    let mut rng = SmallRng::seed_from_u64(8);
    for size in [4, 6, 8] {
        let params = Params::new(OthelloFront::PARAMS, [("size", size.to_string().as_str())]).unwrap();
        let front = OthelloFront::new(&params).unwrap();
        let g = Geometry::new(size).unwrap();
        for _ in 0..20 {
            let mut pos = front.start();
            let mut moves = Vec::new();
            while !pos.is_over() {
                let text = front.setup_text(&front.start(), &moves);
                let case = front.parse_setup(&text).unwrap();
                assert_eq!(case.start, pos);
                assert_eq!(parse_obf_line(g, &obf_line(&pos)).unwrap(), pos);
                let legal = pos.legal_moves();
                let json = front.board_json(&pos);
                let anchored: Vec<String> = json["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["move"].as_str().unwrap().to_string())
                    .collect();
                let names: Vec<String> = legal.iter().map(|m| front.move_text(m)).collect();
                assert_eq!(anchored, names);
                for mv in &legal {
                    let text = front.move_text(mv);
                    assert_eq!(front.parse_move(&pos, &text), Ok(*mv));
                    assert_eq!(front.parse_move(&pos, &text.to_lowercase()), Ok(*mv));
                }
                if legal == [Move::Pass] {
                    assert!(pos.must_pass());
                    assert_eq!(front.parse_move(&pos, "pass"), Ok(Move::Pass));
                } else {
                    assert!(front.parse_move(&pos, "pass").is_err());
                }
                let mv = legal[rng.gen_range(0..legal.len())];
                moves.push(mv);
                pos = pos.play(mv);
            }
            assert!(front.parse_move(&pos, "pass").is_err());
            assert!(front.score_text(&pos).contains("game over"));
        }
    }
}

#[test]
fn bad_texts_are_refused_with_their_place() {
    let front = OthelloFront::with_geometry(Geometry::new(4).unwrap());
    let start = front.start();
    assert_eq!(front.parse_move(&start, "e1"), Err("e1 is off the board".to_string()));
    assert!(start.try_play(Move::Play(othello::Square(200))).is_err());
    assert!(front.parse_move(&start, "zz").unwrap_err().contains("expected a square a1 to d4 or PASS"));
    assert_eq!(front.parse_setup("\n").unwrap().start, start);
    let err = front.parse_setup("\n-----OX--XO----- X\n-----OX--XO----- O\n").err().unwrap();
    assert!(err.starts_with("line 3:"), "{err}");
    let err = front.parse_setup("\n-----OX--XO---- X\n").err().unwrap();
    assert!(err.starts_with("line 2, column 16:"), "{err}");
    for size in ["5", "10", "x", ""] {
        assert!(Params::new(OthelloFront::PARAMS, [("size", size)]).is_err(), "{size}");
    }
    // Arbitrary bytes never panic the readers.
    let mut rng = SmallRng::seed_from_u64(3);
    let alphabet = ['X', 'O', '-', ' ', ';', 'x', '\t', '\n', 'é', '+', ':', '9'];
    for _ in 0..2000 {
        let len = rng.gen_range(0..40);
        let text: String = (0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
        let _ = parse_obf(Geometry::new(4).unwrap(), &text).count();
        let _ = othello::parse_move_scores(Geometry::new(4).unwrap(), &text);
        let _ = front.parse_setup(&text);
    }
}

#[test]
fn the_judge_line_and_the_long_solve_texts() {
    let g = Geometry::standard();
    let front = OthelloFront::with_geometry(g);
    let start = Position::start(g);
    let line = answer_line(&start, 0);
    assert_eq!(line, "---------------------------OX------XO--------------------------- X 0");
    let identity = front.solve_identity(&start);
    assert_eq!(identity.game, "othello");
    assert_eq!(front.bounds_text(&start, (-200, 4)), "disc difference in [-64, +4]");
    assert_eq!(front.root_move_text(Move::Pass), "PASS");
}

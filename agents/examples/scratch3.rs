use stickdice::games::issiren::{Piece, State};
use stickdice::{Game, Issiren};
use stickdice_agents::solve::{self, tablebase::Tablebase};
fn main() {
    let t0 = std::time::Instant::now();
    let (tb, st) = Tablebase::build_partial(2, |_, _, _| {});
    println!("{st:?} {:?}", t0.elapsed());
    let g = Issiren::with_seats(2).unwrap();
    let cases: Vec<(Vec<Piece>, Vec<Piece>, u8)> = vec![
        (vec![Piece::moved(5)], vec![Piece::moved(30)], 0),
        (vec![Piece::start(3)], vec![Piece::moved(40)], 1),
        (vec![Piece::moved(70)], vec![Piece::moved(2), Piece::start(7)], 0),
        (vec![Piece::moved(10), Piece::moved(50)], vec![Piece::moved(20)], 1),
    ];
    for (p1, p2, turn) in cases {
        let mut s = State::from_pieces(&p1, &p2).unwrap();
        s.turn = turn;
        g.validate(&s).unwrap();
        let t1 = std::time::Instant::now();
        let sol = solve::solve_from(&g, &s).unwrap();
        let exact = sol.first_probability(&s, 0).unwrap();
        let tbv = tb.win_probability(&s, 0).unwrap();
        println!("{:?} states {} sweeps {} -> solver {exact:.12} tb {tbv:.12} diff {:e} ({:?})", (p1, p2, turn), sol.stats().states, sol.stats().sweeps, exact - tbv, t1.elapsed());
        // decision nodes
        let mut worst: f64 = 0.0;
        for st in sol.states().iter().take(20000) {
            if let (Some(a), Some(b)) = (sol.first_probability(st, 0), tb.win_probability(st, 0)) { worst = worst.max((a-b).abs()); }
        }
        println!("   worst over 20000 reachable states {worst:e}");
    }
}

use stickdice::{Game, SigWaDuqqan};
use stickdice_agents::solve;
fn main() {
    let what = std::env::args().nth(1).unwrap_or_default();
    if what == "tb" {
        let t0 = std::time::Instant::now(); let (tb, st) = solve::tablebase::Tablebase::build_with_progress(|l, s, r| eprintln!("{:?} layer {l} sweep {s} residual {r:e}", t0.elapsed()));
        println!("{st:?} bytes {}", tb.bytes());
        return;
    }
    for seats in [2, 3] {
        for ex in ["false", "true"] {
            let mut g = SigWaDuqqan::with_seats(seats).unwrap();
            g.set_option("exact_waiting_square", ex).unwrap();
            let sol = solve::solve(&g).unwrap();
            println!("{seats} {ex} {:?}", sol.stats());
            let s0 = g.initial_state();
            for (c, p) in sol.classes().iter().zip(sol.distribution(&s0).unwrap()) {
                println!("  {c}: {p:.12}");
            }
            println!("  throws {:.6}", sol.expected_throws(&s0).unwrap());
        }
    }
}

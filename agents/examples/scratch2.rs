use stickdice::{Game, SigElOued};
use stickdice_agents::solve;
fn main() {
    for seats in [2] {
        for ex in ["false", "true"] {
            let mut g = SigElOued::with_seats(seats).unwrap();
            g.set_option("cairo_always_three", ex).unwrap();
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

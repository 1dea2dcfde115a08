//! A tournament from code: agents as specs and as a closure, in memory, with the report
//! the command line prints. `cargo run --release --example tournament`.

use stickdice::{ActionList, Game, Issiren};
use stickdice_evaluation::tournament;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = Issiren::with_seats(2)?;
    let summary = tournament(&game)
        .agents(["random", "greedy", "mcts:iterations=200"])
        .agent_fn("first", |g, s| {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            legal[0]
        })
        .games(20) // per pair of agents
        .seed(1)
        .option("max_throws", "2000")
        .run()?; // or .out("tournament-out") for the log and the report files, resumable
    print!("{}", summary.figures());
    let report = summary.report.ok_or("stopped early")?;
    println!(
        "best: {} ({:.3})",
        report.standings[0].agent, report.standings[0].score.value
    );
    Ok(())
}

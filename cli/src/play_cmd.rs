//! `stickdice play`: one game, shown move by move.

use crate::cli::GameArgs;
use crate::error::CliError;
use clap::Args;
use stickdice::play::{play_game, Event, SeededDice};
use stickdice::{with_game, Agent, Present};
use stickdice_agents::Evaluate;
use stickdice_evaluation::builder::split_agents;

/// Arguments of `stickdice play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed of the throws and the agents: the same seed gives the same game.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Agent specs, comma-separated, one per seat or one for all (see `stickdice agents`);
    /// a piece with `=` but no `:` continues the previous spec's parameters
    /// (mcts:iterations=500,c=1.4).
    #[arg(long, short = 'a', default_value = "random")]
    agents: String,
    /// Only print the throws and actions, not the board after each.
    #[arg(long)]
    quiet: bool,
}

pub(crate) fn run(args: &PlayArgs) -> Result<(), CliError> {
    let any = args.game.build()?;
    with_game!(&any, |g| play_one(g, args))
}

fn play_one<G: Evaluate + Present>(game: &G, args: &PlayArgs) -> Result<(), CliError> {
    let n = game.seats();
    let specs = split_agents(&args.agents);
    if specs.len() != 1 && specs.len() != n {
        return Err(CliError::Invalid(format!(
            "give one agent spec for every seat or one for all: {} given for {n} seats",
            specs.len()
        )));
    }
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(n);
    for s in 0..n {
        let spec = &specs[s % specs.len()];
        let seed = stickdice::seed::derive(args.seed, &[1, s as u64]);
        agents.push(stickdice_agents::build_str(spec, game, seed)?);
    }
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    outln!(
        "{} — {} players, seed {}, {}",
        game.title(),
        game.seats(),
        args.seed,
        options.join(" ")
    );
    let names: Vec<String> = agents
        .iter()
        .enumerate()
        .map(|(s, a)| format!("P{} {}", s + 1, a.name()))
        .collect();
    outln!("agents: {}", names.join(", "));
    let start = game.initial_state();
    if !args.quiet {
        outln!("{}", game.render(&start));
    }
    let mut state = start;
    let mut dice = SeededDice::new(args.seed);
    let sticks = game.sticks();
    let ranking = play_game(
        game,
        &mut state,
        &mut agents,
        |seat, _| dice.throw(seat, sticks),
        |event, before, after| {
            match event {
                Event::Throw(seat, t) => outln!(
                    "throw {:>4}  P{}: {}",
                    game.throws_made(after),
                    seat + 1,
                    game.describe_throw(before, t)
                ),
                Event::Action(seat, a) => outln!("            P{} plays {a}", seat + 1),
            }
            // One board per throw: once the turn's moves are made (the next node is a
            // throw or the end), not after the throw and again after its action.
            if !args.quiet && !matches!(game.node(after), stickdice::Node::Decide(_)) {
                outln!("{}", game.render(after));
            }
        },
    )?;
    outln!(
        "ranking after {} throws: {ranking}",
        game.throws_made(&state)
    );
    for s in 0..game.seats() {
        outln!(
            "  P{}: place {}, score {:.3}",
            s + 1,
            ranking.place(s) + 1,
            ranking.score(s)
        );
    }
    Ok(())
}

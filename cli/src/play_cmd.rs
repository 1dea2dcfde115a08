//! `stickdice play`: one game, shown move by move.

use crate::cli::GameArgs;
use clap::Args;
use stickdice::play::{play_game, Event, SeededDice};
use stickdice::{with_game, Agent};
use stickdice_agents::Evaluate;

/// Arguments of `stickdice play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed of the throws and the agents: the same seed gives the same game.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Agent specs, one per seat or one for all (see `stickdice agents`).
    #[arg(long, short = 'a', value_delimiter = ',', default_value = "random")]
    agents: Vec<String>,
    /// Only print the throws and actions, not the board after each.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &PlayArgs) -> Result<(), String> {
    let any = args.game.build().map_err(|e| e.to_string())?;
    with_game!(&any, |g| play_one(g, args))
}

fn play_one<G: Evaluate>(game: &G, args: &PlayArgs) -> Result<(), String> {
    let n = game.seats();
    if args.agents.len() != 1 && args.agents.len() != n {
        return Err(format!(
            "give one agent spec for every seat or one for all: {} given for {n} seats",
            args.agents.len()
        ));
    }
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(n);
    for s in 0..n {
        let spec = &args.agents[s % args.agents.len()];
        let seed = stickdice::seed::derive(args.seed, &[1, s as u64]);
        agents.push(stickdice_agents::build_str(spec, game, seed).map_err(|e| e.to_string())?);
    }
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    println!(
        "{} — {} players, seed {}, {}",
        G::TITLE,
        game.seats(),
        args.seed,
        options.join(" ")
    );
    let names: Vec<String> = agents
        .iter()
        .enumerate()
        .map(|(s, a)| format!("P{} {}", s + 1, a.name()))
        .collect();
    println!("agents: {}", names.join(", "));
    let start = game.initial_state();
    if !args.quiet {
        println!("{}", game.render(&start));
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
                Event::Throw(seat, t) => println!(
                    "throw {:>4}  P{}: {}",
                    game.throws_made(after),
                    seat + 1,
                    game.describe_throw(before, t)
                ),
                Event::Action(seat, a) => println!("            P{} plays {a}", seat + 1),
            }
            if !args.quiet {
                println!("{}", game.render(after));
            }
        },
    )
    .map_err(|e| e.to_string())?;
    println!(
        "ranking after {} throws: {ranking}",
        game.throws_made(&state)
    );
    for s in 0..game.seats() {
        println!(
            "  P{}: place {}, score {:.3}",
            s + 1,
            ranking.place(s) + 1,
            ranking.score(s)
        );
    }
    Ok(())
}

//! The search tree: nodes in an arena, selection, expansion, playouts and backup, subtree
//! reuse.

use std::sync::Arc;

use rand::{RngExt as _, SeedableRng};
use stickdice::{ActionList, Node as GameNode, Seat, SeatValues, Throw, MAX_ACTIONS};

use super::budget::Budget;
use super::playouts::Rollout;
use crate::best::FirstBest;
use crate::solve::ExactValues;

/// The edge into a tree node: what happened at its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Edge<A> {
    Root,
    Action(A),
    Throw(Throw),
}

/// A tree node in the arena. Its children are contiguous: `first_child..first_child +
/// children`. `value` sums the scores of `seat`, the seat that decided or threw at the
/// parent.
#[derive(Clone, Copy, Debug)]
pub(super) struct TreeNode<A> {
    pub(super) value: f64,
    pub(super) visits: u32,
    /// The evaluation of the state after the action, for the deciding seat (0 without a
    /// prior).
    pub(super) prior: f32,
    pub(super) first_child: u32,
    pub(super) children: u8,
    pub(super) seat: u8,
    pub(super) edge: Edge<A>,
}

impl<A> TreeNode<A> {
    pub(super) fn new(edge: Edge<A>, seat: Seat) -> Self {
        TreeNode {
            value: 0.0,
            visits: 0,
            prior: 0.0,
            first_child: 0,
            children: 0,
            seat: seat as u8,
            edge,
        }
    }

    #[inline]
    pub(super) fn child_range(&self) -> core::ops::Range<usize> {
        let f = self.first_child as usize;
        f..f + self.children as usize
    }
}

/// One search tree with its own generator; the arena is reused between searches.
pub(super) struct Tree<G: stickdice::Playouts> {
    pub(super) nodes: Vec<TreeNode<G::Action>>,
    pub(super) spare: Vec<TreeNode<G::Action>>,
    pub(super) path: Vec<u32>,
    pub(super) rng: stickdice::Rng,
    /// The node for `root_state` (0 after [`Tree::prepare`]).
    pub(super) root: u32,
    /// The state the root stands for, while the tree is valid.
    pub(super) root_state: Option<G::State>,
    /// The most nodes this tree may hold.
    pub(super) cap: usize,
    /// Exact values (the `tablebase` parameter) for the positions they cover.
    pub(super) exact: Option<Arc<dyn ExactValues<G>>>,
}

impl<G: stickdice::Playouts> Tree<G> {
    pub(super) fn new(seed: u64, cap: usize) -> Self {
        Tree {
            cap,
            nodes: Vec::new(),
            spare: Vec::new(),
            path: Vec::new(),
            rng: stickdice::Rng::seed_from_u64(seed),
            root: 0,
            root_state: None,
            exact: None,
        }
    }

    pub(super) fn forget(&mut self) {
        self.nodes.clear();
        self.root = 0;
        self.root_state = None;
    }

    /// Makes node 0 the root for `state`: the kept subtree if `reuse` and the tree has
    /// followed the game to `state`, else a fresh root.
    pub(super) fn prepare(&mut self, state: &G::State, reuse: bool) {
        if reuse && self.root_state.as_ref() == Some(state) {
            if self.root != 0 {
                self.compact();
            }
        } else {
            self.nodes.clear();
            self.nodes.push(TreeNode::new(Edge::Root, 0));
            self.root = 0;
            self.root_state = Some(*state);
        }
    }

    /// Copies the subtree under `root` to the front of the spare arena (breadth first, so
    /// children stay contiguous) and swaps arenas.
    pub(super) fn compact(&mut self) {
        self.spare.clear();
        self.spare.push(self.nodes[self.root as usize]);
        let mut i = 0;
        while i < self.spare.len() {
            let range = self.spare[i].child_range();
            if !range.is_empty() {
                self.spare[i].first_child = self.spare.len() as u32;
                self.spare.extend_from_slice(&self.nodes[range]);
            }
            i += 1;
        }
        core::mem::swap(&mut self.nodes, &mut self.spare);
        self.root = 0;
    }

    /// Follows an actual event from `before`: the root moves to the child for `edge`, or
    /// the tree is dropped when it cannot follow.
    pub(super) fn follow(&mut self, game: &G, before: &G::State, edge: Edge<G::Action>) {
        if self.root_state.as_ref() != Some(before) {
            self.forget();
            return;
        }
        let range = self.nodes[self.root as usize].child_range();
        match range.into_iter().find(|&i| self.nodes[i].edge == edge) {
            Some(child) => {
                let mut after = *before;
                match edge {
                    Edge::Action(a) => game.apply_action_unchecked(&mut after, a),
                    Edge::Throw(t) => game.apply_throw_unchecked(&mut after, t),
                    Edge::Root => unreachable!("no edge leads to the root"),
                }
                self.root = child as u32;
                self.root_state = Some(after);
            }
            None => self.forget(),
        }
    }

    /// Runs iterations from node 0 (which stands for `state`) within `budget`; returns how
    /// many ran.
    pub(super) fn run(
        &mut self,
        game: &G,
        state: &G::State,
        how: &How<G>,
        budget: Budget<'_>,
    ) -> u64 {
        let mut done = 0;
        while budget.more(done) {
            self.iterate(game, state, how);
            done += 1;
        }
        done
    }

    /// The score of a new leaf: its exact values when a tablebase covers it, else a
    /// playout's.
    #[inline]
    pub(super) fn leaf(&mut self, game: &G, state: &mut G::State, how: &How<G>) -> SeatValues {
        if let Some(x) = self.exact.as_ref().and_then(|e| e.scores(game, state)) {
            return x;
        }
        how.rollout.play(game, state, &mut self.rng)
    }

    /// One iteration: select down the tree, add one level, play out, back up.
    pub(super) fn iterate(&mut self, game: &G, root_state: &G::State, how: &How<G>) {
        let mut state = *root_state;
        let mut idx = 0usize;
        let mut actions = ActionList::new();
        self.path.clear();
        self.path.push(0);
        let rewards = loop {
            if idx != 0 {
                if let Some(x) = self.exact.as_ref().and_then(|e| e.scores(game, &state)) {
                    break x;
                }
            }
            match game.node(&state) {
                GameNode::End => break game.scores(&state).expect("an ended game has scores"),
                GameNode::Throw(seat) => {
                    if self.nodes[idx].children == 0 && !self.expand_throws(game, idx, seat) {
                        break self.leaf(game, &mut state, how);
                    }
                    let t = game.sample_throw(&mut self.rng);
                    idx = self.throw_child(idx, t);
                    game.apply_throw_unchecked(&mut state, t);
                }
                GameNode::Decide(seat) => {
                    if self.nodes[idx].children == 0 {
                        game.legal_actions(&state, &mut actions);
                        if !self.expand_actions(game, &state, idx, seat, &mut actions, how) {
                            break self.leaf(game, &mut state, how);
                        }
                    }
                    idx = self.select(idx, how);
                    let Edge::Action(a) = self.nodes[idx].edge else {
                        unreachable!("a decision's children are actions")
                    };
                    game.apply_action_unchecked(&mut state, a);
                }
            }
            self.path.push(idx as u32);
            if self.nodes[idx].visits == 0 {
                break self.leaf(game, &mut state, how);
            }
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value += rewards[n.seat as usize];
        }
    }

    /// The child of throw node `idx` for throw `t`. The children follow the game's throw
    /// outcomes, which list the counts in order from 0, so the child is the `t`-th; the
    /// search through the children is only a fallback for a game that lists them otherwise.
    #[inline]
    pub(super) fn throw_child(&self, idx: usize, t: Throw) -> usize {
        let range = self.nodes[idx].child_range();
        let guess = range.start + t.marked() as usize;
        if guess < range.end && self.nodes[guess].edge == Edge::Throw(t) {
            return guess;
        }
        range
            .into_iter()
            .find(|&i| self.nodes[i].edge == Edge::Throw(t))
            .expect("every throw has a child")
    }

    pub(super) fn expand_throws(&mut self, game: &G, idx: usize, seat: Seat) -> bool {
        let outcomes = game.throw_outcomes();
        if self.nodes.len() + outcomes.len() > self.cap {
            return false;
        }
        self.nodes[idx].first_child = self.nodes.len() as u32;
        self.nodes[idx].children = outcomes.len() as u8;
        self.nodes.extend(
            outcomes
                .iter()
                .map(|o| TreeNode::new(Edge::Throw(o.throw), seat)),
        );
        true
    }

    /// Adds a child per action, in a random order (so that untried children, tried first
    /// to last, are tried in a random order), with its prior if the search uses one.
    pub(super) fn expand_actions(
        &mut self,
        game: &G,
        state: &G::State,
        idx: usize,
        seat: Seat,
        actions: &mut ActionList<G::Action>,
        how: &How<G>,
    ) -> bool {
        if self.nodes.len() + actions.len() > self.cap || actions.len() > u8::MAX as usize {
            return false;
        }
        for i in (1..actions.len()).rev() {
            let j = self.rng.random_range(0..=i);
            actions.swap(i, j);
        }
        self.nodes[idx].first_child = self.nodes.len() as u32;
        self.nodes[idx].children = actions.len() as u8;
        match (how.prior > 0.0, how.rollout.evaluate) {
            (true, Some(evaluate)) => {
                // The values of every action at once (a fixed buffer: no allocation).
                let mut values = [0.0f64; MAX_ACTIONS];
                for chunk in actions.chunks(MAX_ACTIONS) {
                    let values = &mut values[..chunk.len()];
                    evaluate.action_values(game, state, seat, chunk, values);
                    self.nodes
                        .extend(chunk.iter().zip(values.iter()).map(|(&a, &v)| {
                            let mut node = TreeNode::new(Edge::Action(a), seat);
                            node.prior = v as f32;
                            node
                        }));
                }
            }
            _ => self.nodes.extend(
                actions
                    .iter()
                    .map(|&a| TreeNode::new(Edge::Action(a), seat)),
            ),
        }
        true
    }

    /// UCB1 among the children of a decision node: without a prior, the first untried
    /// child if any; with a prior of weight `k`, every child's mean and visit count
    /// include `k` virtual visits at its prior.
    #[inline]
    pub(super) fn select(&self, idx: usize, how: &How<G>) -> usize {
        let node = &self.nodes[idx];
        let ln_n = ln_visits(node.visits.max(1));
        let (c, k) = (how.c, how.prior);
        let mut best = FirstBest::new(node.first_child as usize);
        for i in node.child_range() {
            let child = &self.nodes[i];
            let v = if k > 0.0 {
                let n = f64::from(child.visits) + k;
                (child.value + k * f64::from(child.prior)) / n + c * (ln_n / n).sqrt()
            } else {
                if child.visits == 0 {
                    return i;
                }
                let n = f64::from(child.visits);
                child.value / n + c * (ln_n / n).sqrt()
            };
            best.offer(i, v);
        }
        best.item()
    }

    /// The root child for `action`: (visits, value sum).
    pub(super) fn root_stats(&self, action: G::Action) -> (u64, f64) {
        self.nodes[0]
            .child_range()
            .map(|i| &self.nodes[i])
            .find(|n| n.edge == Edge::Action(action))
            .map_or((0, 0.0), |n| (u64::from(n.visits), n.value))
    }
}

/// Visit counts below this have their logarithm in [`LN_VISITS`].
const LN_TABLE: usize = 1 << 12;

/// `LN_VISITS[n]`: `f64::from(n).ln()` (exactly: the same function), filled on first use.
static LN_VISITS: std::sync::LazyLock<Box<[f64]>> =
    std::sync::LazyLock::new(|| (0..LN_TABLE as u32).map(|n| f64::from(n).ln()).collect());

/// The natural logarithm of a visit count, by table for the counts most nodes have (a
/// call into libm costs about 150 instructions; selection takes one per level).
#[inline]
fn ln_visits(n: u32) -> f64 {
    match LN_VISITS.get(n as usize) {
        Some(&ln) => ln,
        None => f64::from(n).ln(),
    }
}

/// How a tree searches: the exploration constant, the prior's weight and the rollout.
pub(super) struct How<G: stickdice::Playouts> {
    pub(super) c: f64,
    pub(super) prior: f64,
    pub(super) rollout: Rollout<G>,
}

#[cfg(test)]
mod tests {
    /// The table's logarithms are the function's, bit for bit, and counts past the table
    /// fall back to it.
    #[test]
    fn the_visit_logarithms_are_exactly_ln() {
        for n in (1..super::LN_TABLE as u32 + 10).chain([1 << 20, u32::MAX]) {
            assert_eq!(
                super::ln_visits(n).to_bits(),
                f64::from(n).ln().to_bits(),
                "{n}"
            );
        }
    }
}

//! Agents for the stickdice games.

//! The three games of RULES.md.

pub mod issiren;
pub mod sig_el_oued;
pub mod sig_wa_duqqan;

pub use issiren::Issiren;
pub use sig_el_oued::SigElOued;
pub use sig_wa_duqqan::SigWaDuqqan;

//! Delve's minds, on the rules ([`delve_rules`]) and beneath the delve (DESIGN.md › Layout): the
//! party's policy and the monsters', choosing among the rules' offers and giving commands.

pub mod policy;

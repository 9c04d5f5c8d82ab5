//! The CLI's integration tests, one binary, one module per command (`cli` covers `check`,
//! `schema` and the binary's I/O).

mod cli;
mod conform;
mod diff;
mod listen;
mod listen_limits;
mod shrink;

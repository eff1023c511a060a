//! The command line, run as a process: conventions, each subcommand, reviewed outputs, the README walkthrough.

mod capture_roundtrip;
mod conventions;
mod devices;
mod errors;
mod hip;
mod identity;
mod load;
mod newcomer;
mod readme_walkthrough;
mod reviewed;
mod topology;
mod vmfb;
mod wrapped;

//! The HIP runtime symbols (`libamdhip64`), one file per object, bottom to
//! top: `context` (per-thread state, contexts), `image` (a module image's
//! extent), `device`, `error`, `operation` (what a stream operation does),
//! `stream` (streams and events), `memory` (allocations, pools, host
//! memory, copies, fills), `module` (modules, functions, launches),
//! `registration` (the fat binaries, kernels and variables a hipcc-built
//! program registers), `occupancy` (its formula), `launch` (launches and
//! queries by host function, `<<<…>>>`), `symbol` (variables by host
//! address), `graph`.

mod context;
mod device;
mod error;
mod graph;
mod image;
mod launch;
mod memory;
mod module;
mod occupancy;
mod operation;
mod registration;
mod stream;
mod symbol;

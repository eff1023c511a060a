//! The HIP runtime symbols (`libamdhip64`), one file per object, bottom to
//! top: `context` (per-thread state, contexts), `image` (a module image's
//! extent), `device`, `error`, `operation` (what a stream operation does),
//! `stream` (streams and events), `memory` (allocations, pools, host
//! memory, copies, fills), `module` (modules, functions, launches),
//! `graph`.

mod context;
mod device;
mod error;
mod graph;
mod image;
mod memory;
mod module;
mod operation;
mod stream;

//! The HIP runtime symbols (`libamdhip64`), one file per object, bottom to
//! top: `context` (per-thread state, contexts), `image` (a module image's
//! extent), `device`, `error`, `stream` (streams, events, the operations
//! they run), `memory` (allocations, pools, host memory, copies, fills),
//! `module` (modules, functions, launches), `graph`.

mod context;
mod device;
mod error;
mod graph;
mod image;
mod memory;
mod module;
mod stream;

//! The HIP runtime symbols (`libamdhip64`), one file per object, bottom to
//! top: `context` (per-thread state, contexts), `bundle` (an offload
//! bundle's bounds), `compressed_image` (compressed bundles), `image` (a
//! module image's extent), `device`,
//! `error`, `operation` (what a stream operation does, with `hostcall`, the
//! hostcall buffer a kernel's device-side `printf` reaches, and
//! `device_printf`, its formatting), `stream` (streams and events),
//! `memory` (allocations, pools, host memory, copies, fills), `pitched`
//! (2D copies and fills), `driver_copy` (the copies with their direction in the name), `device_state` (free
//! memory, device reset), `device_config` (cache and shared-memory
//! configuration), `pointer` (pointer attributes), `module` (modules,
//! functions, launches), `module_file` (modules from files),
//! `module_occupancy` (occupancy of a module's function), `cooperative`
//! (cooperative launches), `registration` (the fat binaries, kernels and
//! variables a hipcc-built program registers), `occupancy` (its formula),
//! `launch` (launches and queries by host function, `<<<…>>>`), `symbol`
//! (variables by host address), `graph`, `proc_address`
//! (`hipGetProcAddress`), and `aliases` (the other names HIP keeps for
//! calls served here).

mod aliases;
mod bundle;
mod compressed_image;
mod context;
mod cooperative;
mod device;
mod device_config;
mod device_printf;
mod device_state;
mod driver_copy;
mod error;
mod graph;
mod hostcall;
mod image;
mod launch;
mod memory;
mod module;
mod module_file;
mod module_occupancy;
mod occupancy;
mod operation;
mod pitched;
mod pointer;
mod proc_address;
mod registration;
mod stream;
mod symbol;

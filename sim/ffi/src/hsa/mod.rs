//! The HSA runtime symbols (`libhsa-runtime64`, with the AMD loader
//! extension table), one file per object, bottom to top: `init` (system),
//! `agent` (agents, ISAs, pools, regions), `executable` (code objects,
//! executables, symbols), `loader` (the loader extension), `memory`
//! (pools, copies, fills, pointer info, locks), `vmem` (virtual memory),
//! `signal`, `async_copy` (the copy engine), `packet` (packet fields),
//! `vendor` (AMD's vendor packets), `aql` (each queue's packet
//! processor), `queue`.

mod agent;
mod aql;
mod async_copy;
mod executable;
mod init;
mod loader;
mod memory;
mod packet;
mod queue;
mod signal;
mod vendor;
mod vmem;

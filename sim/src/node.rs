//! The simulated node: [`Sim`] holds a validated [`Machine`] and the mutable
//! runtime state (memory, readers, executables, HIP state, faults, call log)
//! behind one mutex, so it is `Send + Sync` and every call is atomic.
//!
//! Handles are `tag << 48 | serial`: derived from the description's order
//! and a counter, never from host addresses, so identical runs give
//! identical handles. A handle of the wrong kind is simply invalid.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;
use std::sync::{Arc, Mutex, MutexGuard};

use amdgpu_sys::hsa_values::PoolAccess;

use crate::codes::{HipCode, HsaCode};
use crate::elf::{CodeObject, ElfError};
use crate::faults::{CallRecord, Fault, FaultSet, KernelFault, MAX_CALL_LOG};
use crate::memory::{ByteStore, ImageUsage, Memory, PoolUsage, SparseStore};
use crate::validate::{Agent, Isa, Link, Machine, Pool};

pub(crate) const TAG_AGENT: u64 = 1;
pub(crate) const TAG_ISA: u64 = 2;
pub(crate) const TAG_POOL: u64 = 3;
pub(crate) const TAG_READER: u64 = 4;
pub(crate) const TAG_EXECUTABLE: u64 = 5;
pub(crate) const TAG_SYMBOL: u64 = 6;
pub(crate) const TAG_LOADED: u64 = 7;

pub(crate) fn handle(tag: u64, serial: u64) -> u64 {
    (tag << 48) | serial
}

pub(crate) fn serial(handle: u64, tag: u64) -> Option<u64> {
    (handle >> 48 == tag && handle & 0xffff_ffff_ffff != 0).then_some(handle & 0xffff_ffff_ffff)
}

fn index(handle: u64, tag: u64) -> Option<usize> {
    serial(handle, tag).and_then(|s| usize::try_from(s - 1).ok())
}

/// An agent's queue attributes (`Sim::queue_agent`): ROCr's
/// `hsa_queue_create` checks and what its `amd_queue_t` records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueAgent {
    /// A GPU (a CPU agent has no AQL packet processor).
    pub gpu: bool,
    /// `HSA_AGENT_INFO_QUEUE_TYPE`.
    pub queue_type: u32,
    /// `HSA_AGENT_INFO_QUEUE_MIN_SIZE` (packets).
    pub min_size: u32,
    /// `HSA_AGENT_INFO_QUEUE_MAX_SIZE` (packets).
    pub max_size: u32,
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT`.
    pub compute_units: u32,
    /// `HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU`.
    pub max_waves_per_cu: u32,
    /// The command processor generation of its first ISA, which decides the
    /// PM4 forms its vendor packets take; `None` where the agent has no
    /// AQL PM4-IB packets (a CPU, a GPU before gfx9).
    pub pm4: Option<crate::pm4::Generation>,
    /// Ticks per second of its clock counter (`crate::clock`): the node's
    /// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`, which the `/dev/kfd` stand-in
    /// reports the GPU counter at too.
    pub gpu_clock_hz: u64,
}

/// Objects the simulator has handed out and not yet taken back, and the
/// runtime state calls leave behind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveObjects {
    /// Memory-pool allocations.
    pub allocations: u64,
    /// Bytes they reserve.
    pub allocated_bytes: u64,
    /// Code-object readers.
    pub readers: u64,
    /// Executables.
    pub executables: u64,
    /// HIP primary-context retains not yet released.
    pub hip_contexts: u64,
    /// HIP memory pools (a destroyed pool lives until its allocations are freed).
    pub hip_pools: u64,
    /// Loaded HIP modules.
    pub hip_modules: u64,
    /// `hsa_init` references not yet dropped by `hsa_shut_down`.
    pub hsa_init_refs: u32,
    /// HIP peer-access grants (current device → peer) enabled so far:
    /// process-wide state with no object to release (IREE enables peers and
    /// never disables them).
    pub hip_peer_access: u64,
    /// The HIP current device (`hipSetDevice`; 0 before any call).
    pub hip_current_device: i32,
    /// Virtual-memory reservations (`hsa_amd_vmem_address_reserve`).
    pub vmem_reservations: u64,
    /// Virtual-memory physical handles (`hsa_amd_vmem_handle_create`).
    pub vmem_handles: u64,
    /// Virtual-memory mappings (`hsa_amd_vmem_map`).
    pub vmem_mappings: u64,
}

impl LiveObjects {
    /// True when no object is live (no allocation, reader, executable, HIP
    /// context retain, pool or module leaked). Runtime state (init
    /// references, HIP peer access and current device) is not an object:
    /// compare those fields where they matter.
    pub fn is_empty(&self) -> bool {
        self.allocations == 0
            && self.allocated_bytes == 0
            && self.readers == 0
            && self.executables == 0
            && self.hip_contexts == 0
            && self.hip_pools == 0
            && self.hip_modules == 0
            && self.vmem_reservations == 0
            && self.vmem_handles == 0
            && self.vmem_mappings == 0
    }
}

pub(crate) struct Reader {
    pub(crate) bytes: crate::SharedBytes,
    pub(crate) parsed: Result<Arc<CodeObject>, ElfError>,
    /// What every load of this reader shares, made at its first load (it
    /// outlives the reader while loaded).
    pub(crate) loadable: Option<Arc<Loadable>>,
}

/// A code object as loads share it, whatever agent they are on: the
/// parsed object, its loaded image and its symbols by name.
pub(crate) struct Loadable {
    pub(crate) code: Arc<CodeObject>,
    pub(crate) image: Arc<crate::memory::Image>,
    /// Indices into `code.symbols` sorted by name; of a repeated name the
    /// last one is what a lookup finds.
    by_name: Vec<u32>,
}

impl Loadable {
    pub(crate) fn new(code: Arc<CodeObject>, image: Arc<crate::memory::Image>) -> Loadable {
        let mut by_name: Vec<u32> = (0..code.symbols.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        // Stable: equal names stay in symbol order, so the last is the latest.
        by_name.sort_by(|&a, &b| name_of(&code, a).cmp(name_of(&code, b)));
        Loadable {
            code,
            image,
            by_name,
        }
    }

    /// The index of the symbol `name` (the last of that name).
    pub(crate) fn find(&self, name: &str) -> Option<u64> {
        let end = self
            .by_name
            .partition_point(|&i| name_of(&self.code, i) <= name);
        let &i = self.by_name.get(end.checked_sub(1)?)?;
        (name_of(&self.code, i) == name).then_some(u64::from(i))
    }
}

fn name_of(code: &CodeObject, i: u32) -> &str {
    code.symbols
        .get(i as usize)
        .map_or("", |symbol| symbol.name.as_str())
}

pub(crate) struct Executable {
    pub(crate) frozen: bool,
    pub(crate) loaded: Vec<u64>,
}

/// A code object loaded on one agent. Its symbols' serials are the
/// `code.symbols.len()` serials from `first_symbol`, in symbol order, taken
/// just before its own: one record per load, not per symbol.
pub(crate) struct Loaded {
    pub(crate) agent: usize,
    pub(crate) base: u64,
    pub(crate) delta: i64,
    pub(crate) size: u64,
    pub(crate) first_symbol: u64,
    pub(crate) code: Arc<Loadable>,
}

pub(crate) struct State {
    pub(crate) init_refs: u32,
    pub(crate) memory: Memory,
    pub(crate) readers: BTreeMap<u64, Reader>,
    pub(crate) executables: BTreeMap<u64, Executable>,
    pub(crate) loaded: BTreeMap<u64, Loaded>,
    /// First symbol serial of a load → the load's serial (loads that define
    /// symbols): a symbol handle's load is the range below it.
    pub(crate) symbol_ranges: BTreeMap<u64, u64>,
    pub(crate) next_serial: u64,
    pub(crate) code_next: Vec<u64>,
    pub(crate) access: BTreeMap<u64, BTreeSet<usize>>,
    pub(crate) hip_current: i32,
    pub(crate) hip_peers: BTreeSet<(i32, i32)>,
    pub(crate) hip_rt: crate::hip_memory::HipRuntime,
    pub(crate) vmem: crate::vmem::VirtualMemory,
    hsa_faults: FaultSet<HsaCode>,
    hip_faults: FaultSet<HipCode>,
    log: Vec<CallRecord>,
    log_dropped: u64,
    log_enabled: bool,
    trace: bool,
    trace_threads: bool,
}

impl State {
    pub(crate) fn serial(&mut self) -> u64 {
        self.next_serial += 1;
        self.next_serial
    }

    /// Logs one call. The record is rendered only when it will be kept:
    /// formatting every call's arguments is most of a cheap call's cost.
    fn record(&mut self, record: impl FnOnce() -> CallRecord) {
        if self.trace {
            let record = record();
            if self.trace_threads {
                eprintln!("amdgpu-sim: [{:?}] {record}", std::thread::current().id());
            } else {
                eprintln!("amdgpu-sim: {record}");
            }
            if self.log_enabled && self.log.len() < MAX_CALL_LOG {
                self.log.push(record);
            }
            return;
        }
        if !self.log_enabled {
            return;
        }
        if self.log.len() < MAX_CALL_LOG {
            self.log.push(record());
        } else {
            self.log_dropped += 1;
        }
    }
}

/// The flattened, immutable lookup tables of a machine.
pub(crate) struct Tables {
    /// (agent, pool index within the agent) of each global pool index.
    pub(crate) pools: Vec<(usize, usize)>,
    /// First global pool index of each agent.
    pub(crate) pool_start: Vec<usize>,
    /// Distinct ISAs machine-wide (ROCr shares an ISA handle between agents).
    pub(crate) isas: Vec<Isa>,
    /// ISA ids of each agent, in priority order.
    pub(crate) agent_isas: Vec<Vec<usize>>,
    /// HIP ordinal → agent index.
    pub(crate) gpus: Vec<usize>,
}

/// A simulated ROCm node.
pub struct Sim {
    pub(crate) machine: Arc<Machine>,
    pub(crate) tables: Tables,
    state: Mutex<State>,
}

impl Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim")
            .field("machine", &self.machine.name)
            .finish_non_exhaustive()
    }
}

/// Renders a result for the call log.
pub(crate) fn outcome<T: Debug, C: Debug>(result: &Result<T, C>) -> String {
    match result {
        Ok(value) => format!("ok {value:x?}"),
        Err(code) => format!("{code:x?}"),
    }
}

impl Sim {
    /// A node running `machine`, HSA not yet initialized, its memory in
    /// the simulator's own pages.
    pub fn new(machine: Machine) -> Sim {
        Sim::with_store(machine, Box::new(SparseStore::new()))
    }

    /// A node running `machine` whose memory's bytes `store` holds (the C
    /// library's store makes them process memory at the simulated
    /// addresses).
    pub fn with_store(machine: Machine, store: Box<dyn ByteStore>) -> Sim {
        let mut pools = Vec::new();
        let mut pool_start = Vec::with_capacity(machine.agents.len());
        let mut isas: Vec<Isa> = Vec::new();
        let mut isa_ids: HashMap<&Isa, usize> = HashMap::new();
        let mut agent_isas = Vec::with_capacity(machine.agents.len());
        for (a, agent) in machine.agents.iter().enumerate() {
            pool_start.push(pools.len());
            pools.extend((0..agent.pools.len()).map(|p| (a, p)));
            // A map, not a scan: 128 agents of 64 distinct ISAs each would
            // make a scan 33M comparisons.
            let ids = agent
                .isas
                .iter()
                .map(|isa| {
                    *isa_ids.entry(isa).or_insert_with(|| {
                        isas.push(isa.clone());
                        isas.len() - 1
                    })
                })
                .collect();
            agent_isas.push(ids);
        }
        let gpus = machine.gpu_indices();
        let state = State {
            init_refs: 0,
            memory: Memory::with_store(pools.len(), store),
            readers: BTreeMap::new(),
            executables: BTreeMap::new(),
            loaded: BTreeMap::new(),
            symbol_ranges: BTreeMap::new(),
            next_serial: 0,
            code_next: vec![0; machine.agents.len()],
            access: BTreeMap::new(),
            hip_current: 0,
            hip_peers: BTreeSet::new(),
            hip_rt: crate::hip_memory::HipRuntime::default(),
            vmem: crate::vmem::VirtualMemory::default(),
            hsa_faults: FaultSet::default(),
            hip_faults: FaultSet::default(),
            log: Vec::new(),
            log_dropped: 0,
            log_enabled: true,
            trace: false,
            trace_threads: false,
        };
        Sim {
            machine: Arc::new(machine),
            tables: Tables {
                pools,
                pool_start,
                isas,
                agent_isas,
                gpus,
            },
            state: Mutex::new(state),
        }
    }

    /// The machine this node runs.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-updated in a way that
        // matters more than losing the simulator: keep going.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs one HSA call: counts it, applies faults and the init check, logs
    /// it (`args` renders its arguments, only when the call is logged).
    pub(crate) fn hsa<T: Debug>(
        &self,
        op: &'static str,
        args: impl FnOnce() -> String,
        body: impl FnOnce(&Sim, &mut State) -> Result<T, HsaCode>,
    ) -> Result<T, HsaCode> {
        let mut state = self.lock();
        if let Some(code) = state.hsa_faults.on_call(op) {
            state.record(|| CallRecord {
                op,
                args: args(),
                outcome: code.to_string(),
                injected: true,
            });
            return Err(code);
        }
        let result = if op != "hsa_init" && state.init_refs == 0 {
            Err(HsaCode::NOT_INITIALIZED)
        } else {
            body(self, &mut state)
        };
        state.record(|| CallRecord {
            op,
            args: args(),
            outcome: outcome(&result),
            injected: false,
        });
        result
    }

    /// Runs one HSA call the C library models itself (signals): counted,
    /// faulted and refused before `hsa_init` like any other, then `body`
    /// runs without the node locked, and its outcome is logged.
    pub fn hsa_external<T: Debug>(
        &self,
        op: &'static str,
        args: impl FnOnce() -> String,
        body: impl FnOnce() -> Result<T, HsaCode>,
    ) -> Result<T, HsaCode> {
        {
            let mut state = self.lock();
            let refused = match state.hsa_faults.on_call(op) {
                Some(code) => Some((code, true)),
                None if state.init_refs == 0 => Some((HsaCode::NOT_INITIALIZED, false)),
                None => None,
            };
            if let Some((code, injected)) = refused {
                state.record(|| CallRecord {
                    op,
                    args: args(),
                    outcome: code.to_string(),
                    injected,
                });
                return Err(code);
            }
        }
        let result = body();
        self.lock().record(|| CallRecord {
            op,
            args: args(),
            outcome: outcome(&result),
            injected: false,
        });
        result
    }

    /// Runs one HIP call: counts it, applies faults, logs it.
    pub(crate) fn hip<T: Debug>(
        &self,
        op: &'static str,
        args: impl FnOnce() -> String,
        body: impl FnOnce(&Sim, &mut State) -> Result<T, HipCode>,
    ) -> Result<T, HipCode> {
        let mut state = self.lock();
        if let Some(code) = state.hip_faults.on_call(op) {
            state.record(|| CallRecord {
                op,
                args: args(),
                outcome: code.to_string(),
                injected: true,
            });
            return Err(code);
        }
        let result = body(self, &mut state);
        state.record(|| CallRecord {
            op,
            args: args(),
            outcome: outcome(&result),
            injected: false,
        });
        result
    }

    /// Counts a HIP call and applies its faults; the outcome is logged by
    /// [`Sim::hip_log`] once the caller has run it.
    pub(crate) fn hip_faulted(&self, op: &'static str) -> Result<(), HipCode> {
        let mut state = self.lock();
        if let Some(code) = state.hip_faults.on_call(op) {
            state.record(|| CallRecord {
                op,
                args: String::new(),
                outcome: code.to_string(),
                injected: true,
            });
            return Err(code);
        }
        Ok(())
    }

    /// Logs the outcome of a call counted by [`Sim::hip_faulted`].
    pub(crate) fn hip_log<T: Debug>(&self, op: &'static str, result: &Result<T, HipCode>) {
        self.lock().record(|| CallRecord {
            op,
            args: String::new(),
            outcome: outcome(result),
            injected: false,
        });
    }

    // --- Test controls --------------------------------------------------

    /// Prints every call, as it is logged, on stderr (`AMDGPU_SIM_TRACE`).
    pub fn set_trace(&self, enabled: bool) {
        self.lock().trace = enabled;
    }

    /// Prints every call with the calling thread's id, and the notes of
    /// [`Sim::trace_note`] (`AMDGPU_SIM_TRACE=threads`): for ordering
    /// questions between a client's threads and the node's stream workers.
    pub fn set_trace_threads(&self, enabled: bool) {
        let mut state = self.lock();
        state.trace = enabled;
        state.trace_threads = enabled;
    }

    /// Prints `note()` after the calling thread's id when threads are
    /// traced: work the node does outside any call (a stream worker running
    /// an operation).
    pub fn trace_note(&self, note: impl FnOnce() -> String) {
        if self.lock().trace_threads {
            eprintln!("amdgpu-sim: [{:?}] {}", std::thread::current().id(), note());
        }
    }

    /// Arms an HSA fault.
    pub fn inject_hsa(&self, fault: Fault<HsaCode>) {
        self.lock().hsa_faults.arm(fault);
    }

    /// Arms a HIP fault.
    pub fn inject_hip(&self, fault: Fault<HipCode>) {
        self.lock().hip_faults.arm(fault);
    }

    /// Makes kernels fault ([`KernelFault`]).
    pub fn inject_kernel_fault(&self, fault: KernelFault) {
        self.lock().hip_rt.modules.kernel_faults.push(fault);
    }

    /// Disarms every fault.
    pub fn clear_faults(&self) {
        let mut state = self.lock();
        state.hsa_faults.clear();
        state.hip_faults.clear();
        state.hip_rt.modules.kernel_faults.clear();
    }

    /// HSA calls made so far (what `Trigger::NthCall` counts).
    pub fn hsa_call_count(&self) -> u64 {
        self.lock().hsa_faults.calls()
    }

    /// HIP calls made so far.
    pub fn hip_call_count(&self) -> u64 {
        self.lock().hip_faults.calls()
    }

    /// Turns the call log on (the default) or off. Off, calls are still
    /// counted and faults still fire, but nothing is rendered or kept: for
    /// runs that never read the log (the CLI, benchmarks of the HAL).
    pub fn set_call_log(&self, enabled: bool) {
        self.lock().log_enabled = enabled;
    }

    /// The call log so far (and how many calls fell off its end).
    pub fn call_log(&self) -> (Vec<CallRecord>, u64) {
        let state = self.lock();
        (state.log.clone(), state.log_dropped)
    }

    /// Objects live right now.
    pub fn live_objects(&self) -> LiveObjects {
        let state = self.lock();
        let (allocations, allocated_bytes) =
            (0..self.tables.pools.len()).fold((0, 0), |(n, bytes), pool| {
                let usage = state.memory.usage(pool);
                (n + usage.allocations, bytes + usage.reserved_bytes)
            });
        LiveObjects {
            allocations,
            allocated_bytes,
            readers: state.readers.len() as u64,
            executables: state.executables.len() as u64,
            hip_contexts: state.hip_rt.context_refs.values().sum(),
            hip_pools: state.hip_rt.live_pools(),
            hip_modules: state.hip_rt.modules.live(),
            hsa_init_refs: state.init_refs,
            hip_peer_access: state.hip_peers.len() as u64,
            hip_current_device: state.hip_current,
            vmem_reservations: state.vmem.reservation_count(),
            vmem_handles: state.vmem.handle_count(),
            vmem_mappings: state.memory.mapping_count(),
        }
    }

    /// What the mapped code-object images hold: mappings, the shared images
    /// behind them (each counted once) and the pages writes copied into
    /// mappings. Not an object count: an image lives exactly as long as a
    /// loaded code object or HIP module maps it.
    pub fn image_usage(&self) -> ImageUsage {
        let state = self.lock();
        let owned: BTreeSet<u64> = state
            .loaded
            .values()
            .map(|l| l.base)
            .chain(state.hip_rt.modules.image_bases())
            .collect();
        ImageUsage {
            unowned_mappings: state
                .memory
                .image_bases()
                .filter(|base| !owned.contains(base))
                .count() as u64,
            ..state.memory.image_usage()
        }
    }

    /// Usage of a pool (by its handle), for tests.
    pub fn pool_usage(&self, pool: u64) -> Option<PoolUsage> {
        let index = index(pool, TAG_POOL)?;
        (index < self.tables.pools.len()).then(|| self.lock().memory.usage(index))
    }

    // --- Lookups ----------------------------------------------------------

    pub(crate) fn agent_index(&self, agent: u64) -> Result<usize, HsaCode> {
        index(agent, TAG_AGENT)
            .filter(|&i| i < self.machine.agents.len())
            .ok_or(HsaCode::INVALID_AGENT)
    }

    pub(crate) fn agent(&self, agent: u64) -> Result<&Agent, HsaCode> {
        let i = self.agent_index(agent)?;
        self.machine.agents.get(i).ok_or(HsaCode::INVALID_AGENT)
    }

    fn isa(&self, isa: u64) -> Result<&Isa, HsaCode> {
        index(isa, TAG_ISA)
            .and_then(|i| self.tables.isas.get(i))
            .ok_or(HsaCode::INVALID_ISA)
    }

    pub(crate) fn pool_index(&self, pool: u64) -> Result<usize, HsaCode> {
        index(pool, TAG_POOL)
            .filter(|&i| i < self.tables.pools.len())
            .ok_or(HsaCode::INVALID_MEMORY_POOL)
    }

    pub(crate) fn pool(&self, pool: u64) -> Result<(usize, &Pool), HsaCode> {
        let i = self.pool_index(pool)?;
        let &(agent, p) = self
            .tables
            .pools
            .get(i)
            .ok_or(HsaCode::INVALID_MEMORY_POOL)?;
        let pool = self
            .machine
            .agents
            .get(agent)
            .and_then(|a| a.pools.get(p))
            .ok_or(HsaCode::INVALID_MEMORY_POOL)?;
        Ok((agent, pool))
    }

    /// What `hsa_queue_create` checks and records for `agent` (asked by the
    /// C library's own queue code, inside its counted call; not an HSA
    /// call); `None` for a handle that is not an agent.
    pub fn queue_agent(&self, agent: u64) -> Option<QueueAgent> {
        let a = self.agent(agent).ok()?;
        Some(QueueAgent {
            gpu: a.kind == crate::machine::AgentKind::Gpu,
            queue_type: a.hsa.queue_type,
            min_size: a.hsa.queue_min_size,
            max_size: a.hsa.queue_max_size,
            compute_units: a.compute_units,
            max_waves_per_cu: a.hsa.max_waves_per_cu,
            pm4: a
                .isas
                .first()
                .and_then(|isa| crate::isa::Target::parse(&isa.name))
                .and_then(|t| crate::pm4::Generation::of_processor(&t.processor)),
            gpu_clock_hz: self.machine.system.timestamp_frequency,
        })
    }

    /// Whether `agent` is one of this node's agent handles (asked by the
    /// C library's own calls, e.g. a signal's consumers; not an HSA call).
    pub fn is_agent(&self, agent: u64) -> bool {
        self.agent_index(agent).is_ok()
    }

    /// The handle of agent `index` (HSA order).
    pub fn agent_handle(index: usize) -> u64 {
        handle(TAG_AGENT, index as u64 + 1)
    }

    // --- HSA: runtime and agents ------------------------------------------

    /// `hsa_init`.
    pub fn hsa_init(&self) -> Result<(), HsaCode> {
        self.hsa("hsa_init", String::new, |_, state| {
            state.init_refs = state
                .init_refs
                .checked_add(1)
                .ok_or(HsaCode::OUT_OF_RESOURCES)?;
            Ok(())
        })
    }

    /// `hsa_shut_down`. Objects stay alive (and counted) so that leaks stay visible.
    pub fn hsa_shut_down(&self) -> Result<(), HsaCode> {
        self.hsa("hsa_shut_down", String::new, |_, state| {
            state.init_refs -= 1;
            Ok(())
        })
    }

    /// `hsa_iterate_agents`.
    pub fn iterate_agents(&self) -> Result<Vec<u64>, HsaCode> {
        self.hsa("hsa_iterate_agents", String::new, |sim, _| {
            Ok((0..sim.machine.agents.len())
                .map(Sim::agent_handle)
                .collect())
        })
    }

    /// `hsa_agent_get_info` of one attribute, read from the validated agent.
    pub(crate) fn agent_info<T: Debug>(
        &self,
        agent: u64,
        attribute: &'static str,
        read: impl FnOnce(&Agent) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_agent_get_info",
            || format!("{agent:#x}, {attribute}"),
            |sim, _| Ok(read(sim.agent(agent)?)),
        )
    }

    /// The index of the nearest CPU agent of a GPU agent, as its handle.
    pub(crate) fn agent_nearest_cpu(&self, agent: u64) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_agent_get_info",
            || format!("{agent:#x}, HSA_AMD_AGENT_INFO_NEAREST_CPU"),
            |sim, _| {
                let a = sim.agent(agent)?;
                match a.nearest_cpu {
                    Some(cpu) => Ok(Sim::agent_handle(cpu)),
                    None => Ok(agent),
                }
            },
        )
    }

    /// `HSA_AGENT_INFO_ISA`: the agent's first ISA, or handle 0 for an
    /// agent without one (ROCr's answer for a CPU).
    pub(crate) fn agent_isa(&self, agent: u64) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_agent_get_info",
            || format!("{agent:#x}, HSA_AGENT_INFO_ISA"),
            |sim, _| {
                let i = sim.agent_index(agent)?;
                Ok(sim
                    .tables
                    .agent_isas
                    .get(i)
                    .and_then(|ids| ids.first())
                    .map_or(0, |&id| handle(TAG_ISA, id as u64 + 1)))
            },
        )
    }

    /// `hsa_system_get_info` of one attribute (the machine's `[hsa]` table
    /// resolved, [`crate::hsa_info::SystemInfo::resolve`]).
    pub(crate) fn system_info<T: Debug>(
        &self,
        attribute: &'static str,
        read: impl FnOnce(&crate::hsa_info::SystemInfo) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_system_get_info",
            || attribute.to_string(),
            |sim, _| Ok(read(&sim.machine.system)),
        )
    }

    // --- HSA: ISAs --------------------------------------------------------

    /// `hsa_agent_iterate_isas`.
    pub fn agent_iterate_isas(&self, agent: u64) -> Result<Vec<u64>, HsaCode> {
        self.hsa(
            "hsa_agent_iterate_isas",
            || format!("{agent:#x}"),
            |sim, _| {
                let i = sim.agent_index(agent)?;
                let ids = sim.tables.agent_isas.get(i).ok_or(HsaCode::INVALID_AGENT)?;
                Ok(ids
                    .iter()
                    .map(|&id| handle(TAG_ISA, id as u64 + 1))
                    .collect())
            },
        )
    }

    /// `hsa_isa_get_info_alt` of one attribute.
    pub(crate) fn isa_info<T: Debug>(
        &self,
        isa: u64,
        attribute: &'static str,
        read: impl FnOnce(&Isa) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_isa_get_info_alt",
            || format!("{isa:#x}, {attribute}"),
            |sim, _| Ok(read(sim.isa(isa)?)),
        )
    }

    // --- HSA: pools -------------------------------------------------------

    /// `hsa_amd_agent_iterate_memory_pools`.
    pub fn agent_iterate_memory_pools(&self, agent: u64) -> Result<Vec<u64>, HsaCode> {
        self.hsa(
            "hsa_amd_agent_iterate_memory_pools",
            || format!("{agent:#x}"),
            |sim, _| {
                let i = sim.agent_index(agent)?;
                let start = sim
                    .tables
                    .pool_start
                    .get(i)
                    .copied()
                    .ok_or(HsaCode::INVALID_AGENT)?;
                let count = sim.machine.agents.get(i).map_or(0, |a| a.pools.len());
                Ok((start..start + count)
                    .map(|p| handle(TAG_POOL, p as u64 + 1))
                    .collect())
            },
        )
    }

    /// `hsa_amd_memory_pool_get_info` of one attribute.
    pub(crate) fn pool_info<T: Debug>(
        &self,
        pool: u64,
        attribute: &'static str,
        read: impl FnOnce(&Pool) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_amd_memory_pool_get_info",
            || format!("{pool:#x}, {attribute}"),
            |sim, _| Ok(read(sim.pool(pool)?.1)),
        )
    }

    fn path(&self, agent: u64, pool: u64) -> Result<(usize, usize, &Pool, Option<&Link>), HsaCode> {
        let from = self.agent_index(agent)?;
        let (owner, info) = self.pool(pool)?;
        Ok((
            from,
            owner,
            info,
            if from == owner {
                None
            } else {
                self.machine.link(from, owner)
            },
        ))
    }

    /// `hsa_amd_agent_memory_pool_get_info` of one attribute, read from
    /// how `agent` reaches `pool`: the access (the owner and pools marked
    /// accessible by all: allowed by default; reachable over a link:
    /// disallowed by default; otherwise never) and the link, `None` for the
    /// agent's own pool or an unreachable one.
    pub(crate) fn agent_pool_info<T: Debug>(
        &self,
        agent: u64,
        pool: u64,
        attribute: &'static str,
        read: impl FnOnce(PoolAccess, Option<&Link>) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_amd_agent_memory_pool_get_info",
            || format!("{agent:#x}, {pool:#x}, {attribute}"),
            |sim, _| {
                let (from, owner, info, link) = sim.path(agent, pool)?;
                let access = if from == owner || info.accessible_by_all {
                    PoolAccess::AllowedByDefault
                } else if link.is_some() {
                    PoolAccess::DisallowedByDefault
                } else {
                    PoolAccess::NeverAllowed
                };
                Ok(read(access, link))
            },
        )
    }
}

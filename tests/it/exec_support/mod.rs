//! A scripted HSA node over `MockHsa` (`tests/mocks`) for executable tests
//! and benches.
//!
//! Every call passes a gate that names it (the C function), counts it, and
//! fails it when an injection says so; the node tracks live readers,
//! executables and allocations. Kernel symbols are served from the code
//! object's own metadata (as the HSA loader does), variables from a list.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use amdgpu_hal::amdgpu::agents::AgentTopology;
use amdgpu_hal::backend::{
    Agent, AgentInfo, CodeObjectReader, DevicePtr, DeviceType, Executable, ExecutableSymbol,
    ExecutableSymbolInfo, GlobalFlags, HsaResult, HsaStatus, Isa, IsaInfo, LoadedCodeObject,
    LoadedCodeObjectInfo, MemoryPool, MemoryPoolInfo, Profile, RoundingMode, Segment, SymbolKind,
};

use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;

#[allow(unused_imports)] // each test binary uses some of them
pub use crate::mocks::{MockHsa, answer, answer_cut, answer_text};

/// A query the scripted node does not answer: the HAL should not ask it
/// (as a mock without an expectation for it would fail).
fn unexpected(what: impl std::fmt::Debug) -> ! {
    panic!("the scripted node does not answer {what:?}")
}

/// How an injected failure behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only the chosen call fails.
    Transient,
    /// The chosen call and every later call of the same function fail.
    Persistent,
}

/// Fail the `index`-th call (0-based) of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injection {
    /// Call index.
    pub index: usize,
    /// Transient or persistent.
    pub mode: Mode,
}

#[derive(Clone, Debug)]
struct Kernel {
    kernarg_size: u32,
    kernarg_align: u32,
    group: u32,
    private: u32,
}

#[derive(Default)]
struct State {
    calls: Vec<&'static str>,
    injection: Option<Injection>,
    persistent_op: Option<&'static str>,
    failed: Vec<(usize, &'static str)>,
    next: u64,
    readers: HashMap<u64, Vec<u8>>,
    executables: HashMap<u64, Vec<Agent>>,
    frozen: HashSet<u64>,
    allocations: HashMap<u64, u64>,
    kernels: HashMap<String, Kernel>,
    symbols: Vec<(String, Agent)>,
    symbol_index: HashMap<(String, u64), u64>,
    loaded: HashMap<u64, (u64, Agent)>,
}

/// Configuration of the scripted node.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// ISA name of each GPU agent, in agent order.
    pub gpu_isas: Vec<String>,
    /// Device globals the code object defines (name, size).
    pub variables: Vec<(String, u32)>,
    /// Profile of each GPU (default all FULL).
    pub profiles: Vec<Profile>,
}

impl NodeConfig {
    /// `count` GPUs with the ISA `isa` (an HSA ISA name).
    pub fn uniform(count: usize, isa: &str) -> NodeConfig {
        NodeConfig {
            gpu_isas: vec![isa.to_string(); count],
            variables: vec![("counter".into(), 4)],
            profiles: vec![Profile::Full; count],
        }
    }
}

/// Handle to the node's bookkeeping.
#[derive(Clone, Default)]
pub struct Node {
    state: Arc<Mutex<State>>,
}

/// Live object counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Live {
    /// Code-object readers.
    pub readers: usize,
    /// Executables.
    pub executables: usize,
    /// Memory-pool allocations.
    pub allocations: usize,
}

impl Node {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Arms an injection for the next run and clears the call log.
    pub fn inject(&self, injection: Option<Injection>) {
        let mut s = self.lock();
        s.injection = injection;
        s.persistent_op = None;
        s.failed.clear();
        s.calls.clear();
    }

    /// The calls made since the last [`Node::inject`].
    pub fn calls(&self) -> Vec<&'static str> {
        self.lock().calls.clone()
    }

    /// The calls that failed by injection.
    pub fn failed(&self) -> Vec<(usize, &'static str)> {
        self.lock().failed.clone()
    }

    /// Live objects.
    pub fn live(&self) -> Live {
        let s = self.lock();
        Live {
            readers: s.readers.len(),
            executables: s.executables.len(),
            allocations: s.allocations.len(),
        }
    }

    fn gate(&self, op: &'static str) -> HsaResult<()> {
        let mut s = self.lock();
        let index = s.calls.len();
        s.calls.push(op);
        let fail = match (s.injection, s.persistent_op) {
            (_, Some(p)) if p == op => true,
            (Some(inj), _) if inj.index == index => {
                if inj.mode == Mode::Persistent {
                    s.persistent_op = Some(op);
                }
                true
            }
            _ => false,
        };
        if fail {
            s.failed.push((index, op));
            return Err(HsaStatus::ErrorOutOfResources);
        }
        Ok(())
    }

    fn handle(&self) -> u64 {
        let mut s = self.lock();
        s.next += 1;
        s.next
    }
}

/// GPU agent handle of ordinal `i` (CPU is agent 1).
pub fn gpu(i: usize) -> Agent {
    Agent(100 + i as u64)
}

/// The topology of the node's GPUs (2 queues each).
pub fn topology(config: &NodeConfig) -> AgentTopology {
    let gpus: Vec<Agent> = (0..config.gpu_isas.len()).map(gpu).collect();
    let n = gpus.len();
    AgentTopology::new(vec![Agent(1)], gpus, vec![0; n], 2).expect("topology")
}

fn gpu_ordinal(agent: Agent) -> Option<usize> {
    agent.0.checked_sub(100).map(|o| o as usize)
}

/// Builds the scripted mock and its bookkeeping handle.
pub fn node(config: NodeConfig) -> (MockHsa, Node) {
    let node = Node::default();
    let config = Arc::new(config);
    let mut m = MockHsa::new();

    macro_rules! gated {
        ([$n:ident, $c:ident] $expect:ident, $op:literal, |$($arg:ident),*| $body:expr) => {{
            let $n = node.clone();
            #[allow(unused_variables)]
            let $c = config.clone();
            #[allow(unused_variables)]
            m.$expect().returning(move |$($arg),*| {
                $n.gate($op)?;
                #[allow(unused_variables)]
                let ($n, $c) = (&$n, &$c);
                $body
            });
        }};
    }

    gated!([n, c] expect_iterate_agents, "hsa_iterate_agents", | | {
        let mut agents = vec![Agent(1)];
        agents.extend((0..c.gpu_isas.len()).map(gpu));
        Ok(agents)
    });
    gated!([n, c] expect_agent_get_info, "hsa_agent_get_info", |a, attribute, out| match attribute {
        AgentInfo::Device => answer(out, if a == Agent(1) {
            DeviceType::Cpu
        } else {
            DeviceType::Gpu
        }.raw()),
        AgentInfo::Node => answer(out, 0u32),
        AgentInfo::Profile => answer(out, gpu_ordinal(a)
            .and_then(|o| c.profiles.get(o).copied())
            .unwrap_or(Profile::Full).raw()),
        AgentInfo::DefaultFloatRoundingMode => answer(out, RoundingMode::Near.raw()),
        other => unexpected(other),
    });
    gated!([n, c] expect_agent_iterate_isas, "hsa_agent_iterate_isas", |a| {
        let o = gpu_ordinal(a).ok_or(HsaStatus::ErrorInvalidAgent)?;
        if c.gpu_isas.get(o).is_some_and(|name| name.is_empty()) {
            return Ok(vec![]);
        }
        Ok(vec![Isa(1000 + o as u64)])
    });
    gated!([n, c] expect_isa_get_info_alt, "hsa_isa_get_info_alt", |isa, attribute, out| {
        let name = || c.gpu_isas.get((isa.0 - 1000) as usize).ok_or(HsaStatus::ErrorInvalidIsa);
        match attribute {
            IsaInfo::NameLength => answer(out, name()?.len() as u32 + 1),
            IsaInfo::Name => answer_text(out, name()?),
            IsaInfo::WorkgroupMaxSize => answer(out, 1024u32),
            IsaInfo::WorkgroupMaxDim => answer(out, [1024u16; 3]),
            other => unexpected(other),
        }
    });

    gated!([n, c] expect_agent_iterate_memory_pools, "hsa_amd_agent_iterate_memory_pools", |a| Ok(vec![
        MemoryPool(a.0 * 10),
        MemoryPool(a.0 * 10 + 1)
    ]));
    gated!([n, c] expect_memory_pool_get_info, "hsa_amd_memory_pool_get_info", |p, attribute, out| match attribute {
        MemoryPoolInfo::Segment => answer(out, Segment::Global.raw()),
        MemoryPoolInfo::RuntimeAllocAllowed => answer(out, true),
        MemoryPoolInfo::GlobalFlags => answer(out, if p.0 % 10 == 0 {
            GlobalFlags::FINE_GRAINED
        } else {
            GlobalFlags::COARSE_GRAINED
        }.bits()),
        other => unexpected(other),
    });
    gated!([n, c] expect_memory_pool_allocate, "hsa_amd_memory_pool_allocate", |pool, size, flags| {
        let ptr = n.handle() << 24;
        n.lock().allocations.insert(ptr, size);
        Ok(DevicePtr(ptr))
    });
    gated!([n, c] expect_memory_pool_free, "hsa_amd_memory_pool_free", |ptr| {
        n.lock()
            .allocations
            .remove(&ptr.0)
            .map(|_| ())
            .ok_or(HsaStatus::ErrorInvalidAllocation)
    });
    gated!([n, c] expect_memory_copy_to_device, "hsa_memory_copy", |dst, src| {
        let s = n.lock();
        match s.allocations.get(&dst.0) {
            Some(&size) if size >= src.len() as u64 => Ok(()),
            _ => Err(HsaStatus::ErrorInvalidArgument),
        }
    });

    gated!([n, c] expect_code_object_reader_create_from_memory, "hsa_code_object_reader_create_from_memory", |bytes| {
        let metadata = CodeObjectMetadata::from_elf(bytes).map_err(|_| HsaStatus::ErrorInvalidCodeObject)?;
        let kernels: HashMap<String, Kernel> = metadata
            .kernels
            .iter()
            .map(|k| {
                (k.symbol.to_string(), Kernel {
                    kernarg_size: k.kernarg_segment_size,
                    kernarg_align: k.kernarg_segment_align,
                    group: k.group_segment_fixed_size,
                    private: k.private_segment_fixed_size,
                })
            })
            .collect();
        let h = n.handle();
        let mut s = n.lock();
        s.kernels = kernels;
        s.readers.insert(h, bytes.to_vec());
        Ok(CodeObjectReader(h))
    });
    gated!([n, c] expect_code_object_reader_destroy, "hsa_code_object_reader_destroy", |r| n
        .lock()
        .readers
        .remove(&r.0)
        .map(|_| ())
        .ok_or(HsaStatus::ErrorInvalidCodeObjectReader));
    gated!([n, c] expect_executable_create_alt, "hsa_executable_create_alt", |p, r| {
        let h = n.handle();
        n.lock().executables.insert(h, vec![]);
        Ok(Executable(h))
    });
    gated!([n, c] expect_executable_load_agent_code_object, "hsa_executable_load_agent_code_object", |e, agent, reader| {
        let h = n.handle();
        let mut s = n.lock();
        if !s.readers.contains_key(&reader.0) || s.frozen.contains(&e.0) {
            return Err(HsaStatus::ErrorInvalidArgument);
        }
        s.executables.get_mut(&e.0).ok_or(HsaStatus::ErrorInvalidExecutable)?.push(agent);
        s.loaded.insert(h, (e.0, agent));
        Ok(LoadedCodeObject(h))
    });
    gated!([n, c] expect_executable_freeze, "hsa_executable_freeze", |e| {
        n.lock().frozen.insert(e.0);
        Ok(())
    });
    gated!([n, c] expect_executable_destroy, "hsa_executable_destroy", |e| {
        let mut s = n.lock();
        s.frozen.remove(&e.0);
        s.loaded.retain(|_, (exe, _)| *exe != e.0);
        s.executables.remove(&e.0).map(|_| ()).ok_or(HsaStatus::ErrorInvalidExecutable)
    });
    gated!([n, c] expect_executable_get_symbol_by_name, "hsa_executable_get_symbol_by_name", |e, name, agent| {
        let agent = agent.ok_or(HsaStatus::ErrorInvalidAgent)?;
        let mut s = n.lock();
        let on_agent = s.executables.get(&e.0).is_some_and(|a| a.contains(&agent));
        let known = s.kernels.contains_key(name) || c.variables.iter().any(|(v, _)| v == name);
        if !on_agent || !known || !s.frozen.contains(&e.0) {
            return Err(HsaStatus::ErrorInvalidSymbolName);
        }
        let key = (name.to_string(), agent.0);
        if let Some(&h) = s.symbol_index.get(&key) {
            return Ok(ExecutableSymbol(h));
        }
        let h = s.symbols.len() as u64;
        s.symbols.push((name.to_string(), agent));
        s.symbol_index.insert(key, h);
        Ok(ExecutableSymbol(h))
    });

    fn with_symbol<T>(
        n: &Node,
        s: ExecutableSymbol,
        f: impl FnOnce(&State, &str, Agent) -> HsaResult<T>,
    ) -> HsaResult<T> {
        let st = n.lock();
        let (name, agent) = st
            .symbols
            .get(s.0 as usize)
            .cloned()
            .ok_or(HsaStatus::ErrorInvalidExecutableSymbol)?;
        f(&st, &name, agent)
    }
    fn kernel<T>(n: &Node, s: ExecutableSymbol, f: impl FnOnce(&Kernel) -> T) -> HsaResult<T> {
        with_symbol(n, s, |st, name, _| {
            st.kernels
                .get(name)
                .map(f)
                .ok_or(HsaStatus::ErrorInvalidExecutableSymbol)
        })
    }
    gated!([n, c] expect_executable_symbol_get_info, "hsa_executable_symbol_get_info", |s, attribute, out| match attribute {
        ExecutableSymbolInfo::Type => answer(out, with_symbol(n, s, |st, name, _| Ok(
            if st.kernels.contains_key(name) {
                SymbolKind::Kernel
            } else {
                SymbolKind::Variable
            }
            .raw()
        ))?),
        ExecutableSymbolInfo::KernelObject => answer(out, with_symbol(n, s, |_, _, agent| Ok(
            (agent.0 << 32) | (s.0 * 64 + 0x1000)
        ))?),
        ExecutableSymbolInfo::KernargSegmentSize => answer(out, kernel(n, s, |k| k.kernarg_size)?),
        ExecutableSymbolInfo::KernargSegmentAlignment => answer(out, kernel(n, s, |k| k.kernarg_align)?),
        ExecutableSymbolInfo::GroupSegmentSize => answer(out, kernel(n, s, |k| k.group)?),
        ExecutableSymbolInfo::PrivateSegmentSize => answer(out, kernel(n, s, |k| k.private)?),
        ExecutableSymbolInfo::VariableAddress => answer(out, with_symbol(n, s, |_, _, agent| Ok(
            (agent.0 << 32) | 0x8000_0000 | (s.0 * 16)
        ))?),
        ExecutableSymbolInfo::VariableSize => answer(out, with_symbol(n, s, |_, name, _| c
            .variables
            .iter()
            .find(|(v, _)| v == name)
            .map(|(_, size)| *size)
            .ok_or(HsaStatus::ErrorInvalidExecutableSymbol))?),
        other => unexpected(other),
    });

    gated!([n, c] expect_executable_iterate_loaded_code_objects, "hsa_ven_amd_loader_executable_iterate_loaded_code_objects", |e| {
        let s = n.lock();
        let mut lcos: Vec<u64> = s.loaded.iter().filter(|(_, (exe, _))| *exe == e.0).map(|(h, _)| *h).collect();
        lcos.sort_unstable();
        Ok(lcos.into_iter().map(LoadedCodeObject).collect())
    });
    gated!([n, c] expect_loaded_code_object_get_info, "hsa_ven_amd_loader_loaded_code_object_get_info", |l, attribute, out| match attribute {
        LoadedCodeObjectInfo::Agent => answer(out, n
            .lock()
            .loaded
            .get(&l.0)
            .map(|(_, a)| a.0)
            .ok_or(HsaStatus::ErrorInvalidArgument)?),
        LoadedCodeObjectInfo::LoadDelta => answer(out, (l.0 as i64) << 20),
        LoadedCodeObjectInfo::LoadSize => answer(out, 0x4000u64),
        other => unexpected(other),
    });
    (m, node)
}

/// What a synthetic code object declares.
#[derive(Clone, Debug)]
pub struct Synthetic<'a> {
    /// Number of kernels (`k0` … `kN-1`, symbols `kI.kd`).
    pub kernels: usize,
    /// `amdhsa.target`, if any.
    pub target: Option<&'a str>,
    /// `.reqd_workgroup_size` of every kernel, if any.
    pub reqd_workgroup_size: Option<[u32; 3]>,
}

/// A synthetic gfx942:sramecc+:xnack- code object V5: an ELF header, a
/// PT_LOAD over the file, a PT_NOTE and the AMDGPU metadata note; each kernel takes a buffer and a
/// 32-bit value (kernarg 16 bytes, 8-aligned).
pub fn synthetic_hsaco(spec: &Synthetic<'_>) -> Vec<u8> {
    let names: Vec<(String, String)> = (0..spec.kernels)
        .map(|i| (format!("k{i}"), format!("k{i}.kd")))
        .collect();
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    synthetic_hsaco_named(&pairs, spec.target, spec.reqd_workgroup_size)
}

/// [`synthetic_hsaco`] with one kernel per `(.name, .symbol)` pair.
pub fn synthetic_hsaco_named(
    kernels: &[(&str, &str)],
    target: Option<&str>,
    reqd_workgroup_size: Option<[u32; 3]>,
) -> Vec<u8> {
    use rmp::encode::{write_array_len, write_map_len, write_str, write_uint};
    let spec = Synthetic {
        kernels: kernels.len(),
        target,
        reqd_workgroup_size,
    };
    let mut md = Vec::new();
    let root = 2 + usize::from(spec.target.is_some());
    write_map_len(&mut md, root as u32).unwrap();
    write_str(&mut md, "amdhsa.version").unwrap();
    write_array_len(&mut md, 2).unwrap();
    write_uint(&mut md, 1).unwrap();
    write_uint(&mut md, 2).unwrap();
    if let Some(target) = spec.target {
        write_str(&mut md, "amdhsa.target").unwrap();
        write_str(&mut md, target).unwrap();
    }
    write_str(&mut md, "amdhsa.kernels").unwrap();
    write_array_len(&mut md, spec.kernels as u32).unwrap();
    for &(name, symbol) in kernels {
        let fields = 7 + usize::from(spec.reqd_workgroup_size.is_some());
        write_map_len(&mut md, fields as u32).unwrap();
        write_str(&mut md, ".name").unwrap();
        write_str(&mut md, name).unwrap();
        write_str(&mut md, ".symbol").unwrap();
        write_str(&mut md, symbol).unwrap();
        for (key, value) in [
            (".kernarg_segment_size", 16),
            (".kernarg_segment_align", 8),
            (".group_segment_fixed_size", 0),
            (".private_segment_fixed_size", 0),
        ] {
            write_str(&mut md, key).unwrap();
            write_uint(&mut md, value).unwrap();
        }
        if let Some(reqd) = spec.reqd_workgroup_size {
            write_str(&mut md, ".reqd_workgroup_size").unwrap();
            write_array_len(&mut md, 3).unwrap();
            for d in reqd {
                write_uint(&mut md, u64::from(d)).unwrap();
            }
        }
        write_str(&mut md, ".args").unwrap();
        write_array_len(&mut md, 2).unwrap();
        for (offset, size, kind, name) in [
            (0u64, 8u64, "global_buffer", "buf"),
            (8, 4, "by_value", "n"),
        ] {
            write_map_len(&mut md, 4).unwrap();
            write_str(&mut md, ".offset").unwrap();
            write_uint(&mut md, offset).unwrap();
            write_str(&mut md, ".size").unwrap();
            write_uint(&mut md, size).unwrap();
            write_str(&mut md, ".value_kind").unwrap();
            write_str(&mut md, kind).unwrap();
            write_str(&mut md, ".name").unwrap();
            write_str(&mut md, name).unwrap();
        }
    }
    let mut note = Vec::new();
    note.extend_from_slice(&7u32.to_le_bytes());
    note.extend_from_slice(&(md.len() as u32).to_le_bytes());
    note.extend_from_slice(&32u32.to_le_bytes());
    note.extend_from_slice(b"AMDGPU\0\0");
    note.extend_from_slice(&md);
    while note.len() % 4 != 0 {
        note.push(0);
    }
    // Header, then two program headers: a PT_LOAD covering the whole file
    // (the HSA loader needs one) and the PT_NOTE of the metadata at 176.
    let note_at = 64 + 2 * 56;
    let total = (note_at + note.len()) as u64;
    let mut elf = vec![0u8; note_at];
    elf[..4].copy_from_slice(b"\x7fELF");
    elf[4] = 2;
    elf[5] = 1;
    elf[6] = 1;
    elf[7] = 64;
    elf[8] = 3;
    elf[16..18].copy_from_slice(&3u16.to_le_bytes());
    elf[18..20].copy_from_slice(&224u16.to_le_bytes());
    elf[20..24].copy_from_slice(&1u32.to_le_bytes());
    elf[32..40].copy_from_slice(&64u64.to_le_bytes());
    elf[48..52].copy_from_slice(&(0x04cu32 | 0xc00 | 0x200).to_le_bytes());
    elf[52..54].copy_from_slice(&64u16.to_le_bytes());
    elf[54..56].copy_from_slice(&56u16.to_le_bytes());
    elf[56..58].copy_from_slice(&2u16.to_le_bytes());
    let load = &mut elf[64..120];
    load[..4].copy_from_slice(&1u32.to_le_bytes());
    load[32..40].copy_from_slice(&total.to_le_bytes());
    load[40..48].copy_from_slice(&total.to_le_bytes());
    load[48..56].copy_from_slice(&4096u64.to_le_bytes());
    let phdr = &mut elf[120..176];
    phdr[..4].copy_from_slice(&4u32.to_le_bytes());
    phdr[8..16].copy_from_slice(&(note_at as u64).to_le_bytes());
    phdr[16..24].copy_from_slice(&(note_at as u64).to_le_bytes());
    phdr[32..40].copy_from_slice(&(note.len() as u64).to_le_bytes());
    phdr[40..48].copy_from_slice(&(note.len() as u64).to_le_bytes());
    phdr[48..56].copy_from_slice(&4u64.to_le_bytes());
    elf.extend_from_slice(&note);
    elf
}

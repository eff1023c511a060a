//! HIP graphs as state: graphs of nodes added after their dependencies,
//! and instances (a copy of a graph's nodes in the order added, a
//! topological order). The entry points that build and launch them are
//! `crate::hip::graph`'s.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use amdgpu_sim::HipCode;
use amdgpu_sim::hip_module::LaunchRequest;

use super::handles::Handles;
use super::place::Place;

/// Most graphs, or graph instances, alive at once.
pub const MAX_GRAPHS: usize = 1 << 16;
/// Most nodes in one graph.
pub const MAX_GRAPH_NODES: usize = 1 << 20;

/// The shape of a strided copy: `height` rows in each of `depth` slices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rows {
    /// Rows per slice.
    pub(crate) height: usize,
    /// Slices.
    pub(crate) depth: usize,
}

/// One side of a strided copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    pub(crate) place: Place,
    pub(crate) pitch: usize,
    /// Rows per slice of the allocation (the slice stride is `pitch * slice_rows`).
    pub(crate) slice_rows: usize,
}

impl Side {
    /// The start of row `y` of slice `z`.
    pub(crate) fn row(&self, y: usize, z: usize) -> Place {
        let offset = y * self.pitch + z * self.pitch * self.slice_rows;
        match self.place {
            Place::Device(a) => Place::Device(a + offset as u64),
            Place::Host(a) => Place::Host(a + offset),
        }
    }
}

/// What a node does when its graph runs.
#[derive(Clone, Debug)]
pub(crate) enum Work {
    /// Nothing (a join of its dependencies).
    Empty,
    /// A kernel launch.
    Kernel {
        request: LaunchRequest,
        kernargs: Vec<u8>,
    },
    /// `width` elements of `pattern` in each of `rows` rows `pitch` apart.
    Memset {
        dst: Place,
        pattern: Vec<u8>,
        width: usize,
        pitch: usize,
        rows: usize,
    },
    /// `width` bytes per row.
    Memcpy {
        dst: Side,
        src: Side,
        width: usize,
        rows: Rows,
    },
    /// Records an event.
    EventRecord(u64),
}

#[derive(Debug)]
struct Graph {
    /// Node handles and work, in the order added.
    nodes: Vec<(u64, Work)>,
}

/// An instantiated graph.
#[derive(Debug)]
pub(crate) struct Exec {
    /// Its nodes' work, in the order added.
    pub(crate) work: Vec<Work>,
}

/// The live graphs, their nodes and the live instances.
#[derive(Default)]
pub(crate) struct Graphs {
    graphs: BTreeMap<u64, Graph>,
    /// Node handle → (graph, index in its nodes).
    nodes: BTreeMap<u64, (u64, usize)>,
    execs: BTreeMap<u64, Arc<Exec>>,
}

impl Graphs {
    /// Creates an empty graph; its handle.
    pub(crate) fn create(&mut self, handles: &Handles) -> Result<u64, HipCode> {
        if self.graphs.len() >= MAX_GRAPHS {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let h = handles.next();
        self.graphs.insert(h, Graph { nodes: Vec::new() });
        Ok(h)
    }

    /// Destroys a graph and its nodes (its instances live on); `None`
    /// when it is not live.
    pub(crate) fn destroy(&mut self, graph: u64) -> Option<()> {
        let removed = self.graphs.remove(&graph)?;
        for (node, _) in removed.nodes {
            self.nodes.remove(&node);
        }
        Some(())
    }

    /// Adds `work` to `graph` after `deps`; the new node's handle.
    pub(crate) fn add(
        &mut self,
        handles: &Handles,
        graph: u64,
        deps: &[u64],
        work: Work,
    ) -> Result<u64, HipCode> {
        let g = self.graphs.get(&graph).ok_or(HipCode::INVALID_VALUE)?;
        if g.nodes.len() >= MAX_GRAPH_NODES {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let mut seen = BTreeSet::new();
        for dep in deps {
            let in_graph = self
                .nodes
                .get(dep)
                .is_some_and(|&(owner, _)| owner == graph);
            if !in_graph || !seen.insert(*dep) {
                return Err(HipCode::INVALID_VALUE);
            }
        }
        let node = handles.next();
        let g = self.graphs.get_mut(&graph).ok_or(HipCode::INVALID_VALUE)?;
        self.nodes.insert(node, (graph, g.nodes.len()));
        g.nodes.push((node, work));
        Ok(node)
    }

    /// Instantiates `graph` as it is now; the instance's handle.
    pub(crate) fn instantiate(&mut self, handles: &Handles, graph: u64) -> Result<u64, HipCode> {
        if self.execs.len() >= MAX_GRAPHS {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let source = self.graphs.get(&graph).ok_or(HipCode::INVALID_VALUE)?;
        let work = source.nodes.iter().map(|(_, w)| w.clone()).collect();
        let h = handles.next();
        self.execs.insert(h, Arc::new(Exec { work }));
        Ok(h)
    }

    /// The instance of handle `exec`.
    pub(crate) fn exec(&self, exec: u64) -> Option<Arc<Exec>> {
        self.execs.get(&exec).cloned()
    }

    /// Destroys an instance (a launch in flight still completes).
    pub(crate) fn destroy_exec(&mut self, exec: u64) -> Option<()> {
        self.execs.remove(&exec).map(|_| ())
    }

    /// Live graphs and graph instances.
    pub(crate) fn live(&self) -> (usize, usize) {
        (self.graphs.len(), self.execs.len())
    }
}

/// What [`Op::Node`](super::streams::Op::Node) runs: one node of a
/// launched instance.
pub(crate) struct NodeRun {
    exec: Arc<Exec>,
    index: usize,
}

impl NodeRun {
    /// Node `index` of `exec`.
    pub(crate) fn new(exec: Arc<Exec>, index: usize) -> NodeRun {
        NodeRun { exec, index }
    }

    /// The node's work (none past the instance's end).
    pub(crate) fn work(&self) -> Option<&Work> {
        self.exec.work.get(self.index)
    }
}

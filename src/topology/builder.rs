//! The topology builder: collects every edge and NUMA node, checks them, and
//! produces the immutable [`Topology`].

use super::MAX_DEVICE_COUNT;
use super::edge::{Edge, InteropMode};
use super::matrix::Topology;
use crate::status::{Result, Status};

/// Collects the N×N edges of a topology, then checks and freezes them.
///
/// A new builder has the [self edge](Edge::SELF) on its diagonal (marked set)
/// and every other slot unset; [`finalize`](Self::finalize) refuses a matrix
/// with unset slots. Unlike IREE, the device count and reserved bits are
/// checked in every build, not by debug asserts.
#[derive(Clone, Debug)]
pub struct TopologyBuilder {
    device_count: usize,
    edges: Vec<Edge>,
    edges_set: Vec<bool>,
    numa_nodes: Vec<u8>,
}

impl TopologyBuilder {
    /// A builder for `device_count` devices.
    ///
    /// `INVALID_ARGUMENT` unless `1 <= device_count <= 32`.
    pub fn new(device_count: usize) -> Result<TopologyBuilder> {
        if !(1..=MAX_DEVICE_COUNT).contains(&device_count) {
            return Err(Status::invalid_argument(format!(
                "topology device count {device_count} is outside 1..={MAX_DEVICE_COUNT}"
            )));
        }
        let slots = device_count * device_count;
        let mut builder = TopologyBuilder {
            device_count,
            edges: vec![Edge::EMPTY; slots],
            edges_set: vec![false; slots],
            numa_nodes: vec![0; device_count],
        };
        // The diagonal: every (device_count + 1)-th slot, from 0.
        let diagonal = device_count + 1;
        for edge in builder.edges.iter_mut().step_by(diagonal) {
            *edge = Edge::SELF;
        }
        for set in builder.edges_set.iter_mut().step_by(diagonal) {
            *set = true;
        }
        Ok(builder)
    }

    /// The number of devices.
    pub fn device_count(&self) -> usize {
        self.device_count
    }

    fn slot(&self, src: usize, dst: usize) -> Result<usize> {
        if src >= self.device_count || dst >= self.device_count {
            return Err(Status::invalid_argument(format!(
                "edge [{src},{dst}] is out of range for {} devices",
                self.device_count
            )));
        }
        Ok(src * self.device_count + dst)
    }

    /// Stores the edge `src -> dst`.
    ///
    /// `INVALID_ARGUMENT` when an ordinal is out of range, when a reserved
    /// bit is set, or for a self-edge whose wait mode is not NATIVE.
    pub fn set_edge(&mut self, src: usize, dst: usize, edge: Edge) -> Result<()> {
        let slot = self.slot(src, dst)?;
        edge.check_reserved()
            .map_err(|status| status.annotate(format!("setting edge [{src},{dst}]")))?;
        if src == dst && edge.wait_mode() != InteropMode::Native {
            return Err(Status::invalid_argument(format!(
                "self-edge [{src},{src}] must have NATIVE wait mode, got {}",
                edge.wait_mode().name()
            )));
        }
        // `slot` is in range: it was checked against the same device count.
        if let (Some(stored), Some(set)) = (self.edges.get_mut(slot), self.edges_set.get_mut(slot))
        {
            *stored = edge;
            *set = true;
        }
        Ok(())
    }

    /// The edge currently stored for `src -> dst`, if that slot is set.
    pub fn edge(&self, src: usize, dst: usize) -> Option<Edge> {
        let slot = self.slot(src, dst).ok()?;
        match self.edges_set.get(slot) {
            Some(true) => self.edges.get(slot).copied(),
            _ => None,
        }
    }

    /// Records the NUMA node of `device`. `INVALID_ARGUMENT` when out of range.
    pub fn set_numa_node(&mut self, device: usize, numa_node: u8) -> Result<()> {
        let count = self.device_count;
        let slot = self.numa_nodes.get_mut(device).ok_or_else(|| {
            Status::invalid_argument(format!(
                "device {device} is out of range for {count} devices"
            ))
        })?;
        *slot = numa_node;
        Ok(())
    }

    /// The NUMA node recorded for `device`, if in range.
    pub fn numa_node(&self, device: usize) -> Option<u8> {
        self.numa_nodes.get(device).copied()
    }

    /// Checks the matrix and copies it into an immutable [`Topology`]. The
    /// builder stays usable.
    ///
    /// `INVALID_ARGUMENT` when a slot was never set (`"edge [i,j] not set"`) or
    /// when the link classes of `i -> j` and `j -> i` differ. Link class is
    /// the only field that must be symmetric: costs, modes and NUMA distance
    /// may legitimately differ by direction.
    pub fn finalize(&self) -> Result<Topology> {
        let n = self.device_count;
        for (slot, set) in self.edges_set.iter().enumerate() {
            if !set {
                return Err(Status::invalid_argument(format!(
                    "edge [{},{}] not set",
                    slot / n,
                    slot % n
                )));
            }
        }
        for i in 0..n {
            for j in (i + 1)..n {
                let (Some(forward), Some(backward)) = (self.edge(i, j), self.edge(j, i)) else {
                    continue;
                };
                if forward.link_class() != backward.link_class() {
                    return Err(Status::invalid_argument(format!(
                        "asymmetric link class between devices {i} and {j}: {} vs {}",
                        forward.link_class().name(),
                        backward.link_class().name()
                    )));
                }
            }
        }
        Ok(Topology::from_parts(
            n,
            &self.edges,
            self.numa_nodes.clone().into_boxed_slice(),
        ))
    }
}

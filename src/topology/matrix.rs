//! The immutable topology: an N×N matrix of edges plus each device's NUMA
//! node, and the peer bitmaps derived from it.

use super::edge::{Edge, InteropMode, TopologyCapabilities};
use super::{DeviceBitmap, MAX_DEVICE_COUNT};

/// The immutable N×N edge matrix of a device group (1..=32 devices).
///
/// Built only by [`TopologyBuilder::finalize`](super::TopologyBuilder::finalize),
/// so every instance has passed the builder's checks: every edge set, native
/// self-edges, no reserved bits, a symmetric link class. Edges live in a
/// fixed 32×32 array (`src * 32 + dst`, 16 KiB), so [`Topology::edge`] is
/// two compares, a shift and one load, with no multiply by the device count
/// and no second bounds check. It is plain data, hence `Send + Sync`; groups share it behind an
/// `Arc`.
#[derive(Clone, PartialEq, Eq)]
pub struct Topology {
    device_count: usize,
    edges: Box<[Edge; STRIDE * STRIDE]>,
    numa_nodes: Box<[u8]>,
}

const STRIDE: usize = MAX_DEVICE_COUNT;
const _: () = assert!(STRIDE.is_power_of_two());

/// The four peer bitmaps of one device (bit `j` for device `j`; never the
/// device's own bit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PeerBitmaps {
    /// Peers whose semaphores this device can wait on: `wait_mode(j -> i) != NONE`.
    pub can_wait_from: DeviceBitmap,
    /// Peers that can observe this device's signals: `signal_mode(i -> j) != NONE`.
    pub can_signal_to: DeviceBitmap,
    /// Peers whose buffers this device can use without a staged copy: the
    /// non-coherent or coherent read mode of `j -> i` is NATIVE or IMPORT.
    pub can_import_from: DeviceBitmap,
    /// Peers with peer-to-peer access: a read mode of `j -> i` is NATIVE, or
    /// `j -> i` has `P2P_COPY`.
    pub can_p2p_with: DeviceBitmap,
}

impl std::fmt::Debug for Topology {
    /// The device count, NUMA nodes and the N×N edges (not the unused slots).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Topology")
            .field("device_count", &self.device_count)
            .field("numa_nodes", &self.numa_nodes)
            .field("edges", &self.rows().collect::<Vec<_>>())
            .finish()
    }
}

impl Topology {
    /// `edges` is row-major with stride `device_count` (as the builder keeps it).
    pub(super) fn from_parts(
        device_count: usize,
        edges: &[Edge],
        numa_nodes: Box<[u8]>,
    ) -> Topology {
        debug_assert!((1..=MAX_DEVICE_COUNT).contains(&device_count));
        debug_assert_eq!(edges.len(), device_count * device_count);
        debug_assert_eq!(numa_nodes.len(), device_count);
        let mut grid = Box::new([Edge::EMPTY; STRIDE * STRIDE]);
        for (src, row) in edges
            .chunks_exact(device_count.max(1))
            .take(STRIDE)
            .enumerate()
        {
            if let Some(dst_row) = grid.get_mut(src * STRIDE..src * STRIDE + row.len().min(STRIDE))
            {
                dst_row.copy_from_slice(row.get(..dst_row.len()).unwrap_or_default());
            }
        }
        Topology {
            device_count,
            edges: grid,
            numa_nodes,
        }
    }

    /// The number of devices (1..=32).
    pub fn device_count(&self) -> usize {
        self.device_count
    }

    /// The edge `src -> dst`, or `None` when either ordinal is out of range.
    #[inline]
    pub fn edge(&self, src: usize, dst: usize) -> Option<Edge> {
        if src >= self.device_count || dst >= self.device_count {
            return None;
        }
        // Both are below 32 here; the masks let the compiler see it, so the
        // `get` compiles to a plain load.
        self.edges
            .get((src & (STRIDE - 1)) * STRIDE + (dst & (STRIDE - 1)))
            .copied()
    }

    /// Row `src` of the matrix (the edges from `src` to every device).
    pub fn row(&self, src: usize) -> Option<&[Edge]> {
        if src >= self.device_count {
            return None;
        }
        let start = src * STRIDE;
        self.edges.get(start..start + self.device_count)
    }

    /// Every row, in device order.
    pub fn rows(&self) -> impl Iterator<Item = &[Edge]> {
        (0..self.device_count).filter_map(|src| self.row(src))
    }

    /// NUMA node of device `device`, if in range.
    pub fn numa_node(&self, device: usize) -> Option<u8> {
        self.numa_nodes.get(device).copied()
    }

    /// The NUMA node of every device, in device order.
    pub fn numa_nodes(&self) -> &[u8] {
        &self.numa_nodes
    }

    /// The peer bitmaps of device `device` (all zero when out of range).
    ///
    /// One pass over column `device` and row `device`: O(n).
    pub fn peer_bitmaps(&self, device: usize) -> PeerBitmaps {
        let mut bitmaps = PeerBitmaps::default();
        for peer in 0..self.device_count {
            if peer == device {
                continue;
            }
            let bit: DeviceBitmap = 1 << peer;
            if let Some(from_peer) = self.edge(peer, device) {
                if from_peer.wait_mode() != InteropMode::None {
                    bitmaps.can_wait_from |= bit;
                }
                let nc = from_peer.buffer_read_mode_noncoherent();
                let c = from_peer.buffer_read_mode_coherent();
                let shareable =
                    |m: InteropMode| matches!(m, InteropMode::Native | InteropMode::Import);
                if shareable(nc) || shareable(c) {
                    bitmaps.can_import_from |= bit;
                }
                if nc == InteropMode::Native
                    || c == InteropMode::Native
                    || from_peer
                        .capabilities()
                        .contains(TopologyCapabilities::P2P_COPY)
                {
                    bitmaps.can_p2p_with |= bit;
                }
            }
            if let Some(to_peer) = self.edge(device, peer)
                && to_peer.signal_mode() != InteropMode::None
            {
                bitmaps.can_signal_to |= bit;
            }
        }
        bitmaps
    }
}

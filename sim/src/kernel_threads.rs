//! How many threads a dispatch's work-groups run on
//! (`AMDGPU_SIM_THREADS`): by default the host's available cores; `1`
//! runs them one after another in dispatch order, exactly as a run on one
//! thread always has. A race-free kernel computes the same bits on any
//! count (`amdgpu_isa::run_dispatch_threads` says what a racy one sees).

use amdgpu_isa::MAX_THREADS;

/// The environment variable the C library reads for [`KernelThreads`].
pub const THREADS_ENV: &str = "AMDGPU_SIM_THREADS";

/// Threads per dispatch: from 1 to [`MAX_THREADS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelThreads(usize);

impl Default for KernelThreads {
    /// The host's available cores (one where that cannot be known).
    fn default() -> KernelThreads {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        KernelThreads(cores.clamp(1, MAX_THREADS))
    }
}

impl KernelThreads {
    /// `count` threads; `None` outside 1 to [`MAX_THREADS`].
    pub fn new(count: usize) -> Option<KernelThreads> {
        (1..=MAX_THREADS)
            .contains(&count)
            .then_some(KernelThreads(count))
    }

    /// What a value of [`THREADS_ENV`] names (unset or empty: the
    /// default): a decimal count from 1 to [`MAX_THREADS`].
    pub fn parse(value: Option<&str>) -> Result<KernelThreads, String> {
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Ok(KernelThreads::default());
        };
        value
            .parse::<usize>()
            .ok()
            .and_then(KernelThreads::new)
            .ok_or_else(|| {
                format!("{THREADS_ENV}: `{value}` is not a thread count from 1 to {MAX_THREADS}")
            })
    }

    /// The count.
    pub fn get(self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_one_to_the_most_and_nothing_else() {
        assert_eq!(
            KernelThreads::parse(Some("1")).map(KernelThreads::get),
            Ok(1)
        );
        assert_eq!(
            KernelThreads::parse(Some("4")).map(KernelThreads::get),
            Ok(4)
        );
        assert_eq!(
            KernelThreads::parse(Some(&MAX_THREADS.to_string())).map(KernelThreads::get),
            Ok(MAX_THREADS)
        );
        assert_eq!(KernelThreads::parse(None), Ok(KernelThreads::default()));
        assert_eq!(KernelThreads::parse(Some("")), Ok(KernelThreads::default()));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(KernelThreads::default().get(), cores.min(MAX_THREADS));
        for bad in [
            "0",
            "-1",
            "two",
            "1.5",
            " 2",
            "257",
            "99999999999999999999999",
        ] {
            let e = KernelThreads::parse(Some(bad)).unwrap_err();
            assert!(
                e.contains(THREADS_ENV)
                    && e.contains(&format!("`{bad}`"))
                    && e.contains("from 1 to 256"),
                "{e}"
            );
        }
    }
}

//! The host CPU against the instruction-set extensions this build was
//! compiled to use (the repository builds for x86-64-v3:
//! `.cargo/config.toml`). A library built for more than the CPU has
//! refuses to start, with one line saying what to rebuild with, instead of
//! stopping on an illegal instruction in the middle of a kernel.

/// One extension: its name, whether this build may use it, whether the
/// CPU has it.
type Extension = (&'static str, bool, bool);

/// The x86-64-v3 extensions the compiler may emit, each as compiled and
/// as the CPU reports it.
#[cfg(target_arch = "x86_64")]
fn extensions() -> Vec<Extension> {
    macro_rules! each {
        ($($name:tt),*) => {
            vec![$(($name, cfg!(target_feature = $name), std::arch::is_x86_feature_detected!($name))),*]
        };
    }
    each!(
        "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe"
    )
}

/// No other architecture has a level above its baseline set here.
#[cfg(not(target_arch = "x86_64"))]
fn extensions() -> Vec<Extension> {
    Vec::new()
}

/// `Ok` when the CPU has every extension this build uses.
pub(crate) fn check() -> Result<(), String> {
    refusal(&extensions())
}

/// The refusal for `extensions`: the ones built in that the CPU lacks.
fn refusal(extensions: &[Extension]) -> Result<(), String> {
    let missing: Vec<&str> = extensions
        .iter()
        .filter(|&&(_, built, present)| built && !present)
        .map(|&(name, _, _)| name)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "this library was built for x86-64-v3 and this CPU lacks {}: build it with \
         RUSTFLAGS=\"-C target-cpu=x86-64\" (the same results, slower kernels)",
        missing.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extension_built_in_and_absent_is_refused_by_name() {
        let error = refusal(&[
            ("avx", true, true),
            ("avx2", true, false),
            ("fma", false, false),
        ])
        .unwrap_err();
        assert!(error.contains("lacks avx2:"), "{error}");
        assert!(error.contains("target-cpu=x86-64\""), "{error}");
        assert!(!error.contains("fma"), "{error}");
    }

    #[test]
    fn the_cpu_that_built_the_library_runs_it() {
        assert_eq!(check(), Ok(()));
        assert_eq!(
            refusal(&[("avx2", false, false), ("fma", true, true)]),
            Ok(())
        );
    }
}

//! `ncclResult_t`: the results RCCL shares with NCCL (2.18).

#![allow(non_camel_case_types, non_upper_case_globals)]

/// `ncclResult_t`.
pub type ncclResult_t = i32;

macro_rules! nccl_results {
    ($($name:ident = $value:literal;)*) => {
        $(
            #[doc = concat!("`", stringify!($name), "`.")]
            pub const $name: ncclResult_t = $value;
        )*

        /// `(value, enumerator)` of every result, `ncclSuccess` first.
        pub const NCCL_RESULTS: &[(ncclResult_t, &str)] = &[$(($value, stringify!($name))),*];
    };
}

nccl_results! {
    ncclSuccess = 0;
    ncclUnhandledCudaError = 1;
    ncclSystemError = 2;
    ncclInternalError = 3;
    ncclInvalidArgument = 4;
    ncclInvalidUsage = 5;
    ncclRemoteError = 6;
    ncclInProgress = 7;
}

/// The enumerator of `value`, if NCCL 2.18 defines it.
pub const fn nccl_result_name(value: ncclResult_t) -> Option<&'static str> {
    let mut i = 0;
    while i < NCCL_RESULTS.len() {
        if NCCL_RESULTS[i].0 == value {
            return Some(NCCL_RESULTS[i].1);
        }
        i += 1;
    }
    None
}

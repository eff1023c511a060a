//! The `Examples:` section each subcommand's `--help` ends with (clap
//! `after_help`). Every line runs as written from the repository root.

/// `machines --help` examples.
pub const MACHINES: &str = "\
Examples:
  amdgpu-hal machines
  amdgpu-hal machines --json";

/// `devices --help` examples.
pub const DEVICES: &str = "\
Examples:
  amdgpu-hal devices                                   # the default machine, mi300x-8
  amdgpu-hal devices --machine fixtures/machines/w7900.toml --json
  amdgpu-hal devices --backend hip --machine mi250x-4  # HIP ordinals, device ids, GPU- paths
  amdgpu-hal devices --backend hsa                     # the real ROCm runtime (feature `real`)";

/// `load --help` examples.
pub const LOAD: &str = "\
Examples:
  amdgpu-hal load fixtures/iree/multi_dispatch.gfx942.amd1 --json
  amdgpu-hal load fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco --affinity 0x5
  amdgpu-hal load fixtures/iree/matmul.gfx90a.amd1 --machine mi250x-4";

/// `info --help` examples.
pub const INFO: &str = "\
Examples:
  amdgpu-hal info                       # the default HIP device
  amdgpu-hal info 0,1 --machine mi250x-4
  amdgpu-hal info GPU-38616637-3035-3235-3936-383331363163 --json";

/// `topology --help` examples.
pub const TOPOLOGY: &str = "\
Examples:
  amdgpu-hal topology --machine mi250x-4
  amdgpu-hal topology --machine fixtures/machines/w7900.toml --json
  amdgpu-hal topology --machine mi300x-8 --dot | dot -Tpng -o mi300x-8.png
  amdgpu-hal topology --backend hip --device 0,1 --machine mi300x-8";

/// `pack --help` examples.
pub const PACK: &str = "\
Examples:
  amdgpu-hal pack fixtures/hsaco/vector_add.gfx1100.cov5.hsaco -o vector_add.amd1 --workgroup-size 64,1,1
  amdgpu-hal pack fixtures/hsaco/kernels.gfx942.cov5.hsaco -o k.amd1 --kernel lds_reduce --debug-names";

/// `inspect --help` examples.
pub const INSPECT: &str = "\
Examples:
  amdgpu-hal inspect fixtures/iree/matmul.gfx942.amd1
  amdgpu-hal inspect fixtures/iree/elementwise.gfx942.hip1 --json
  amdgpu-hal inspect fixtures/hsaco/vector_add.gfx90a.cov5.hsaco";

/// `capture --help` examples.
pub const CAPTURE: &str = "\
Examples:
  amdgpu-hal capture --machine mi250x-4 -o node.toml   # round-trips a simulated machine
  amdgpu-hal capture --backend hsa --name my-node -o my-node.toml   # a real node (feature `real`)
  amdgpu-hal devices --machine my-node.toml                         # replay it in the simulator";

/// `run --help` examples.
pub const RUN: &str = "\
Examples:
  amdgpu-hal run -- rocminfo
  amdgpu-hal run --machine w7900 -- iree-run-module --device=hip --module=fixtures/iree/vmfb/elementwise.gfx1100.vmfb --input=4096xf32=2 --input=4096xf32=3
  amdgpu-hal run --report node.txt -- python3 -c 'import iree.runtime as rt; print(rt.get_driver(\"hip\").query_available_devices())'
  amdgpu-hal run --faults kernel@1 -- iree-run-module --device=hip --module=fixtures/iree/vmfb/elementwise.gfx942.vmfb --input=4096xf32=2 --input=4096xf32=3
  AMDGPU_SIM_LIB_DIR=$HOME/.local/lib/amdgpu-hal amdgpu-hal run -- pytest tests/";

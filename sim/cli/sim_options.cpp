#include "sim_options.h"

namespace gemmlab::cli {

const OptionSpec& json_option() {
  static const OptionSpec o{"--json", "", "print one JSON object (the only output; accepted for scripts)", ""};
  return o;
}

const Options& plan_options() {
  static const Options o = {
      {"--problem", "M,N,K", "GEMM extents, each 1..1048576", "required"},
      {"--tile", "TM,TN[,TK]", "threadblock tile in elements, each 1..1048576 (TK needed by schedule, l2 and split-k)",
       "required without --stage"},
      {"--order", "ORDER",
       "block order: launch | identity:N | serpentine[:S] | along-m:S | along-n:S | list:m,n;...", "launch"},
      {"--split-k", "S", "split K into S slices (1..65535)", "no split"},
      {"--split-k-mode", "serial|parallel", "how split-k slices meet: in place in turn, or partials reduced after",
       "serial"},
      {"--stream-k", "", "stream-k partition: the k iterations shared evenly over the SMs", ""},
  };
  return o;
}

const Options& device_options() {
  static const Options o = {
      {"--device", "h100|h200|a100|rtx4090", "device preset (SMs, L2, occupancy limits)", "h100"},
      {"--sms", "N", "SMs used (1..4096)", "the preset's"},
      {"--l2-bytes", "B", "L2 size in bytes (1 .. 8 GiB)", "the preset's"},
      {"--l2-ways", "W", "L2 associativity (1..16)", "the preset's"},
      {"--l2-partitions", "P", "L2 partitions (1..2)", "the preset's"},
  };
  return o;
}

const Options& cost_options() {
  static const Options o = {
      {"--iter-cost", "C", "time units per k iteration of a block (> 0)", "1"},
      {"--epilogue-cost", "C", "time units of a block's epilogue (>= 0)", "1"},
      {"--partial-cost", "C", "time units to store or read a split-k / stream-k partial (>= 0)", "3"},
  };
  return o;
}

const Options& kernel_options() {
  static const Options o = {
      {"--stage", "ID", "a stage of the registry: its tile, resources, order, partition, layouts and loads",
       "none: describe the kernel with the options below"},
      {"--threads", "T", "threads per block (1..1048576)", "required for occupancy without --stage"},
      {"--regs", "R", "registers per thread (1..1048576)", "required for occupancy without --stage"},
      {"--smem", "B", "shared memory per block in bytes (0 .. 1 GiB)", "required for occupancy without --stage"},
      {"--blocks-per-sm", "B", "co-resident blocks per SM instead of the occupancy (1..64)", "1"},
      {"--dtype", "f16|f32", "A and B element type", "f16"},
      {"--layout", "tn|nn|nt|tt", "BLAS letters of A and B (n column-major, t row-major)", "tn"},
      {"--c-dtype", "f16|f32", "C element type", "f32"},
      {"--c-layout", "col|row", "C layout", "col"},
      {"--global-load", "ldg|cp.async|tma", "how the main loop reads A and B", "ldg"},
      {"--coresident", "older-first|even", "how two blocks of one SM progress", "the stage's, else older-first"},
  };
  return o;
}

Options join(std::initializer_list<Options> lists) {
  Options out;
  for (const Options& l : lists)
    for (const OptionSpec& o : l) {
      bool dup = false;
      for (const OptionSpec& x : out) dup |= x.name == o.name;
      if (!dup) out.push_back(o);
    }
  return out;
}

}  // namespace gemmlab::cli

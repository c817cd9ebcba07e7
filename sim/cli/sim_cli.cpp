#include "sim_cli.h"

#include <cstring>
#include <iostream>
#include <string>

#include "commands.h"

namespace gemmlab::cli {

const std::vector<Command>& sim_commands() {
  static const std::vector<Command> commands = {
      {"threadmap",
       "--map stripmined|warp-raked|warp-striped --shape C,S --threads T "
       "[--warp-arrangement C,S] --access V",
       cmd_threadmap,
       "which thread moves which element of a tile under a CUTLASS thread map: Iterations, Delta, each thread's (s, c) offsets, as CUTLASS computes them",
       "gemmlab sim threadmap --map stripmined --shape 128,8 --threads 256 --access 1"},
      {"layout",
       "--kind rowmajor|columnmajor|pitchlinear|padded|tensorop-multiplicand|tensorop-congruous|"
       "tensorop-crosswise|tensorop-{congruous,crosswise}-{rowmajor,columnmajor} "
       "--shape C,S (ROWS,COLS for *rowmajor/*columnmajor) [--ld L] [--pad P (padded)] "
       "[--element-bits 4|8|16|32 --crosswise X (tensorop-*)]",
       cmd_layout,
       "where each element of a tile lands in memory under a CUTLASS layout (offsets in elements)",
       "gemmlab sim layout --kind tensorop-crosswise --shape 64,8 --element-bits 16 --crosswise 64"},
      {"swizzle", "--bits B --base M --shift S --count N", cmd_swizzle,
       "CuTe's Swizzle<B,M,S>: each offset and where the swizzle moves it",
       "gemmlab sim swizzle --bits 3 --base 4 --shift 3 --count 64"},
      {"banks",
       "--op lds.32|lds.64|lds.128|sts.*|ldsm.x1|ldsm.x2|ldsm.x4[.trans]|ldgsts.4|8|16 "
       "--addresses a0,...,a31 [--mask 0xHEX]  |  --op ... --layout rowmajor|padded|swizzle|tensorop "
       "--tile R,C [--element-bits 16] [--pad-bytes P] [--swizzle B,M,S] [--crosswise X] "
       "[--pattern ldmatrix|rows|linear] [--origin R,C] [--cells 1]",
       cmd_banks,
       "the shared-memory banks one warp instruction touches: wavefronts, conflicts, which lanes share a bank",
       "gemmlab sim banks --op ldsm.x4 --layout rowmajor --tile 16,64 --pattern ldmatrix"},
      {"fragment",
       "--op ldsm.x1|ldsm.x2|ldsm.x4[.trans]|mma.m16n8k16.f16|mma.m16n8k16.bf16|mma.m8n8k32.s4|"
       "wgmma.m64nNk16.f16 "
       "--operand a|b|c (optional for ldsm: a|b maps onto the m16n8k16 operand tile) "
       "[--accumulator f32|f16] [--element R,C]",
       cmd_fragment,
       "which lane holds which element of an ldmatrix, mma or wgmma fragment",
       "gemmlab sim fragment --op mma.m16n8k16.f16 --operand a"},
      {"gmma-layout",
       "--swizzle none|32B|64B|128B --major K|MN --shape R,C [--element-bits 8|16|32] "
       "[--descriptor ROW0,K0 [--operand-rows 64]]",
       cmd_gmma_layout,
       "the shared-memory offsets of a wgmma operand tile in a swizzle mode, and a k step's matrix descriptor",
       "gemmlab sim gmma-layout --swizzle 128B --major K --shape 64,64 --descriptor 0,16"},
      {"wgmma", "--shape m64nNk16 (N = 8..256) --operand d|a", cmd_wgmma,
       "each thread's (m, n) in a warpgroup MMA's accumulator or A fragment",
       "gemmlab sim wgmma --shape m64n128k16 --operand d"},
      {"tma",
       "--global W,H [--stride BYTES] --box BW,BH --start X,Y [--element-bits 16] "
       "[--swizzle none|32B|64B|128B] [--fill zero|nan]",
       cmd_tma,
       "where each element of a TMA box lands in shared memory, with the out-of-bounds fill and the transaction bytes",
       "gemmlab sim tma --global 104,70 --box 64,32 --start 64,48 --swizzle 128B"},
      {"conv",
       "--problem N,H,W,C,K,R,S[,pad,stride[,dilation]] [--row M --col K] [--element f16|s8|s4] [--sms N]",
       cmd_conv,
       "an implicit-GEMM convolution: its GEMM shape and the (n, h, w, c) behind an element of the never-stored im2col matrix",
       "gemmlab sim conv --problem 32,56,56,64,64,3,3,1,1 --row 100 --col 10"},
      {"raster",
       "--order launch|identity:N|serpentine[:S]|along-m:S|along-n:S|list:m,n;... --problem M,N,K "
       "--tile TM,TN[,TK] [--split-k S [--split-k-mode serial|parallel] | --stream-k [--device D "
       "--blocks-per-sm B]]",
       cmd_raster,
       "the order in which a grid's blocks take their C tiles (swizzles, split-k, stream-k)",
       "gemmlab sim raster --order serpentine:8 --problem 4096,4096,4096 --tile 128,256,64"},
      {"schedule",
       "--device h100|h200|a100|rtx4090 --problem M,N,K (--stage ID [--order ...] | --tile TM,TN,TK "
       "--threads T --regs R --smem B [--order ...] [--split-k S [--split-k-mode serial|parallel] | --stream-k]) "
       "[--iter-cost C] [--epilogue-cost C] [--partial-cost C] [--sms N] [--detail 1]",
       cmd_schedule,
       "a launch on a device: occupancy, waves, when each block runs on which SM slot",
       "gemmlab sim schedule --device h100 --problem 4096,4096,4096 --stage persistent"},
      {"l2",
       "--device D --problem M,N,K (--stage ID (tile, resources, layouts, loads from the stage) | "
       "--tile TM,TN,TK [--dtype f16|f32] [--layout tn|nn|nt|tt] "
       "[--split-k S | --stream-k] [--blocks-per-sm B | --threads T --regs R --smem B] "
       "[--c-dtype f32|f16] [--c-layout col|row] [--global-load ldg|cp.async]) [--order ...] "
       "[--coresident older-first|even] [--lrc-merged SECTORS] "
       "[--l2-bytes B] [--l2-ways W] [--l2-partitions P] [--buckets N] [--heat 0|1]",
       cmd_l2,
       "a whole GEMM replayed through the L2 model: hit rate over time, DRAM bytes, per-tile reuse",
       "gemmlab sim l2 --device h100 --problem 2048,2048,2048 --stage epilogue --heat 0"},
      {"pipeline",
       "--kind pipelined2|multistage:K|mma-base|warp-specialized:K|ping-pong:K --k-iterations N "
       "[--warp-k-steps W] [--global-latency L] [--shared-latency L] [--math-cost C] "
       "[--tiles T --epilogue-cost C (warp-specialized, ping-pong)]",
       cmd_pipeline,
       "a main-loop pipeline as a trace of events per warp or warpgroup: loads, waits, barriers, MMAs",
       "gemmlab sim pipeline --kind warp-specialized:4 --k-iterations 8"},
      {"roofline", "--device h100|h200|a100|rtx4090 --problem M,N,K --stage ID|cublas-fp32|cublas-fp16 [--tflops X]",
       cmd_roofline,
       "a GEMM on a device's roofline: its least DRAM traffic and intensity, its instruction's roof, the ridge, "
       "what bounds it, and how close a measured rate comes",
       "gemmlab sim roofline --device h100 --problem 4096,4096,4096 --stage persistent --tflops 636"},
  };
  return commands;
}

static void print_help(std::ostream& os) {
  os << "usage: gemmlab sim <what> [options] [--json]\n"
        "Prints one JSON object on stdout; errors go to stderr with exit status 2.\n"
        "`gemmlab sim <what> --help`: its options and an example.\n\n";
  for (const auto& c : sim_commands()) os << "  " << c.name << ": " << c.purpose << "\n";
}

static SimCliLimits g_limits;
const SimCliLimits& sim_cli_limits() { return g_limits; }

int run_sim_cli(int argc, char** argv, int first, const SimCliLimits& limits) {
  g_limits = limits;
  if (first >= argc || !std::strcmp(argv[first], "--help") || !std::strcmp(argv[first], "-h")) {
    print_help(first >= argc ? std::cerr : std::cout);
    return first >= argc ? 2 : 0;
  }
  const std::string what = argv[first];
  for (const auto& c : sim_commands()) {
    if (what != c.name) continue;
    try {
      Args args(argc, argv, first + 1, {"--json", "--stream-k", "--help"});
      if (args.has("--help")) {
        std::cout << "gemmlab sim " << c.name << ": " << c.purpose << "\n\nusage: gemmlab sim " << c.name << " "
                  << c.usage << "\n\nexample: " << c.example << "\n";
        return 0;
      }
      std::cout << c.run(args).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";  // names may not be UTF-8
      return 0;
    } catch (const CliError& e) {
      std::cerr << "gemmlab sim " << what << ": " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "gemmlab sim " << what << ": internal error: " << e.what() << "\n";
      return 2;
    }
  }
  std::cerr << "gemmlab sim: unknown command '" << what << "'\n";
  print_help(std::cerr);
  return 2;
}

}  // namespace gemmlab::cli

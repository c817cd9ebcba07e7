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
       cmd_threadmap},
      {"layout",
       "--kind rowmajor|columnmajor|pitchlinear|padded|tensorop-multiplicand|tensorop-congruous|"
       "tensorop-crosswise|tensorop-{congruous,crosswise}-{rowmajor,columnmajor} "
       "--shape C,S (ROWS,COLS for *rowmajor/*columnmajor) [--ld L] [--pad P (padded)] "
       "[--element-bits 4|8|16|32 --crosswise X (tensorop-*)]",
       cmd_layout},
      {"swizzle", "--bits B --base M --shift S --count N", cmd_swizzle},
      {"banks",
       "--op lds.32|lds.64|lds.128|sts.*|ldsm.x1|ldsm.x2|ldsm.x4[.trans]|ldgsts.4|8|16 "
       "--addresses a0,...,a31 [--mask 0xHEX]  |  --op ... --layout rowmajor|padded|swizzle|tensorop "
       "--tile R,C [--element-bits 16] [--pad-bytes P] [--swizzle B,M,S] [--crosswise X] "
       "[--pattern ldmatrix|rows|linear] [--origin R,C] [--cells 1]",
       cmd_banks},
      {"fragment",
       "--op ldsm.x1|ldsm.x2|ldsm.x4[.trans]|mma.m16n8k16.f16|mma.m16n8k16.bf16|mma.m8n8k32.s4|"
       "wgmma.m64nNk16.f16 "
       "--operand a|b|c (optional for ldsm: a|b maps onto the m16n8k16 operand tile) "
       "[--accumulator f32|f16] [--element R,C]",
       cmd_fragment},
      {"gmma-layout",
       "--swizzle none|32B|64B|128B --major K|MN --shape R,C [--element-bits 8|16|32] "
       "[--descriptor ROW0,K0 [--operand-rows 64]]",
       cmd_gmma_layout},
      {"wgmma", "--shape m64nNk16 (N = 8..256) --operand d|a", cmd_wgmma},
      {"tma",
       "--global W,H [--stride BYTES] --box BW,BH --start X,Y [--element-bits 16] "
       "[--swizzle none|32B|64B|128B] [--fill zero|nan]",
       cmd_tma},
      {"conv",
       "--problem N,H,W,C,K,R,S[,pad,stride[,dilation]] [--row M --col K] [--element f16|s8|s4] [--sms N]",
       cmd_conv},
      {"raster",
       "--order launch|identity:N|serpentine[:S]|along-m:S|along-n:S|list:m,n;... --problem M,N,K "
       "--tile TM,TN[,TK] [--split-k S [--split-k-mode serial|parallel] | --stream-k [--device D "
       "--blocks-per-sm B]]",
       cmd_raster},
      {"schedule",
       "--device h100|h200|a100|rtx4090 --problem M,N,K (--stage ID [--order ...] | --tile TM,TN,TK "
       "--threads T --regs R --smem B [--order ...] [--split-k S [--split-k-mode serial|parallel] | --stream-k]) "
       "[--iter-cost C] [--epilogue-cost C] [--partial-cost C] [--sms N] [--detail 1]",
       cmd_schedule},
      {"l2",
       "--device D --problem M,N,K (--stage ID (tile, resources, layouts, loads from the stage) | "
       "--tile TM,TN,TK [--dtype f16|f32] [--layout tn|nn|nt|tt] "
       "[--split-k S | --stream-k] [--blocks-per-sm B | --threads T --regs R --smem B] "
       "[--c-dtype f32|f16] [--c-layout col|row] [--global-load ldg|cp.async]) [--order ...] "
       "[--coresident older-first|even] [--lrc-merged SECTORS] "
       "[--l2-bytes B] [--l2-ways W] [--l2-partitions P] [--buckets N] [--heat 0|1]",
       cmd_l2},
      {"pipeline",
       "--kind pipelined2|multistage:K|mma-base|warp-specialized:K|ping-pong:K --k-iterations N "
       "[--warp-k-steps W] [--global-latency L] [--shared-latency L] [--math-cost C] "
       "[--tiles T --epilogue-cost C (warp-specialized, ping-pong)]",
       cmd_pipeline},
  };
  return commands;
}

static void print_help(std::ostream& os) {
  os << "usage: gemmlab sim <what> [options] [--json]\n"
        "Prints one JSON object on stdout; errors go to stderr with exit status 2.\n\n";
  for (const auto& c : sim_commands()) os << "  " << c.name << " " << c.usage << "\n";
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
        std::cout << "gemmlab sim " << c.name << " " << c.usage << "\n";
        return 0;
      }
      std::cout << c.run(args).dump() << "\n";
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

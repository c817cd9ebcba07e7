#include "gemmlab/device_presets.h"

#include <algorithm>
#include <cctype>

namespace gemmlab {

namespace {

constexpr std::int64_t MiB = 1024 * 1024;

// sm_90 limits (Programming Guide table): 2048 threads, 32 blocks, 64K registers, 228 KB shared
// memory per SM of which 227 KB for one block.
DeviceDesc hopper_base() {
  DeviceDesc d;
  d.compute_capability = "9.0";
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.smem_per_sm = 228 * 1024;
  d.max_smem_per_block = 227 * 1024;
  d.l2_partitions = 2;  // hardware_rules.md: "The L2 is two partitions" (measured on H100/H200)
  // FFMA by arithmetic: 132 SMs x 128 lanes x 2 x 1.98 GHz. wgmma: the datasheets' dense FP16
  // tensor rate (1,979 TFLOPS with sparsity, half without). mma.sync: measured in register-only
  // loops on the lab's H100 and H200 (hardware_rules.md): Hopper runs the Ampere instruction at
  // about 64% of its tensor rate, and int4 has no tensor path.
  d.fp32_tflops = 66.9;
  d.mma_sync_f16_tflops = 634;
  d.mma_sync_s8_tops = 1285;
  d.mma_sync_s4_tops = 34;
  d.wgmma_f16_tflops = 989.4;
  // The datasheets' dense FP8 tensor rate (3,958 TFLOPS with sparsity, half without): wgmma k32
  // e4m3 takes as long as k16 f16, twice the multiply-adds.
  d.wgmma_e4m3_tflops = 2 * d.wgmma_f16_tflops;
  return d;
}

DeviceDesc h100() {
  DeviceDesc d = hopper_base();
  d.name = "H100 SXM5";
  d.sms = 132;                // H100 SXM5 (NVIDIA H100 Tensor Core GPU whitepaper)
  d.l2_bytes = 50 * MiB;      // cudaDeviceProp::l2CacheSize = 52428800 on H100 SXM5
  d.dram_tb_s = 3.35;         // H100 SXM5 datasheet: HBM3, 3.35 TB/s
  d.rate_notes =
      "FP32 66.9 TFLOP/s (132 SMs x 128 FFMA lanes x 2 x 1.98 GHz); wgmma 989.4 TFLOP/s (H100 SXM5 "
      "datasheet, dense FP16 tensor), e4m3 1978.8 (dense FP8 tensor); mma.sync f16 634 TFLOP/s, s8 1285, s4 34 TOP/s (measured, "
      "hardware_rules.md); DRAM 3.35 TB/s (datasheet).";
  d.notes =
      "132 SMs and 50 MB L2 (52428800 B as cudaDeviceProp reports): H100 whitepaper. Per-SM limits: "
      "CUDA Programming Guide, compute capability 9.0. Two L2 partitions: hardware_rules.md. "
      "Assumption: 16-way L2 sets (not published).";
  return d;
}

DeviceDesc h200() {
  DeviceDesc d = hopper_base();
  d.name = "H200";
  d.sms = 132;                // same GH100 configuration as H100 SXM5
  d.l2_bytes = 60 * MiB;      // cudaDeviceProp::l2CacheSize = 62914560 on the lab's H200
  d.dram_tb_s = 4.8;          // H200 datasheet: HBM3e, 4.8 TB/s
  d.rate_notes =
      "FP32 66.9 TFLOP/s (132 SMs x 128 FFMA lanes x 2 x 1.98 GHz); wgmma 989.4 TFLOP/s (H200 "
      "datasheet, dense FP16 tensor), e4m3 1978.8 (dense FP8 tensor); mma.sync f16 634 TFLOP/s, s8 1285, s4 34 TOP/s (measured, "
      "hardware_rules.md); DRAM 4.8 TB/s (datasheet).";
  d.notes =
      "Read with cudaGetDeviceProperties on the lab's H200 (CUDA 13.0): 132 SMs, l2CacheSize "
      "62914560 (60 MiB), 233472 B shared memory per SM (232448 per block opt-in, 1024 reserved "
      "per block), 65536 registers, 2048 threads and 32 blocks per SM. Two L2 partitions: "
      "hardware_rules.md. Assumption: 16-way L2 sets.";
  return d;
}

DeviceDesc a100() {
  DeviceDesc d;
  d.name = "A100 SXM4";
  d.compute_capability = "8.0";
  d.sms = 108;                // A100 whitepaper
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.smem_per_sm = 164 * 1024;
  d.max_smem_per_block = 163 * 1024;
  d.l2_bytes = 40 * MiB;      // A100 whitepaper: 40 MB L2
  d.l2_partitions = 2;        // A100 whitepaper: "The L2 cache is divided into two partitions"
  // A100 datasheet (SXM4 80GB): FP32 19.5, FP16 tensor 312 TFLOPS, INT8 624, INT4 1248 TOPS
  // (dense); mma.sync is Ampere's tensor instruction, so its rates are the tensor rates.
  d.fp32_tflops = 19.5;
  d.mma_sync_f16_tflops = 312;
  d.mma_sync_s8_tops = 624;
  d.mma_sync_s4_tops = 1248;
  d.dram_tb_s = 2.039;
  d.rate_notes = "A100 SXM4 80GB datasheet, dense rates: FP32 19.5, FP16 tensor (mma.sync) 312 TFLOP/s, "
                 "INT8 624, INT4 1248 TOP/s; DRAM 2.039 TB/s (the 40 GB part: 1.555).";
  d.notes =
      "108 SMs, 40 MB L2 in two partitions: NVIDIA A100 whitepaper. Per-SM limits: CUDA "
      "Programming Guide, compute capability 8.0. Assumption: 16-way L2 sets.";
  return d;
}

DeviceDesc rtx4090() {
  DeviceDesc d;
  d.name = "GeForce RTX 4090";
  d.compute_capability = "8.9";
  d.sms = 128;                // Ada (AD102) whitepaper: RTX 4090 has 128 SMs
  d.max_threads_per_sm = 1536;
  d.max_blocks_per_sm = 24;
  d.smem_per_sm = 100 * 1024;
  d.max_smem_per_block = 99 * 1024;
  d.l2_bytes = 72 * MiB;      // Ada whitepaper: RTX 4090 has 72 MB of L2
  d.l2_partitions = 1;        // assumption: no published partition split
  // Ada whitepaper, RTX 4090, dense: FP32 82.6, FP16 tensor with FP32 accumulate 165.2 TFLOPS,
  // INT8 660.6, INT4 1321.2 TOPS; GDDR6X 1008 GB/s.
  d.fp32_tflops = 82.6;
  d.mma_sync_f16_tflops = 165.2;
  d.mma_sync_s8_tops = 660.6;
  d.mma_sync_s4_tops = 1321.2;
  d.dram_tb_s = 1.008;
  d.rate_notes = "NVIDIA Ada whitepaper, RTX 4090, dense rates: FP32 82.6, FP16 tensor with FP32 accumulate "
                 "165.2 TFLOP/s, INT8 660.6, INT4 1321.2 TOP/s; DRAM 1.008 TB/s.";
  d.notes =
      "128 SMs and 72 MB L2: NVIDIA Ada GPU architecture whitepaper. Per-SM limits: CUDA "
      "Programming Guide, compute capability 8.9. Assumptions: one L2 partition, 16-way sets.";
  return d;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

std::vector<std::string> device_preset_names() { return {"h100", "h200", "a100", "rtx4090"}; }

Expected<DeviceDesc> device_preset(const std::string& name) {
  const std::string n = lower(name);
  if (n == "h100") return h100();
  if (n == "h200") return h200();
  if (n == "a100") return a100();
  if (n == "rtx4090" || n == "4090") return rtx4090();
  return Error{"unknown device '" + name + "': choose h100, h200, a100 or rtx4090"};
}

std::string validate_device(const DeviceDesc& d) {
  if (d.sms <= 0 || d.sms > 4096) return "device: SM count must be 1..4096";
  if (d.max_threads_per_sm <= 0 || d.max_blocks_per_sm <= 0 || d.regs_per_sm <= 0 ||
      d.smem_per_sm < 0 || d.max_smem_per_block < 0 || d.reg_alloc_unit <= 0 ||
      d.sub_partitions <= 0 || d.smem_alloc_unit <= 0 || d.max_threads_per_block <= 0)
    return "device: per-SM limits must be positive";
  if (d.l2_ways < 1 || d.l2_ways > 16) return "device: L2 ways must be 1..16";
  if (d.l2_partitions < 1 || d.l2_partitions > 2) return "device: L2 partitions must be 1 or 2";
  if (d.l2_sector_bytes != kL2ModelSectorBytes || d.l2_line_bytes != kL2ModelLineBytes)
    return "device: the L2 model uses " + std::to_string(kL2ModelSectorBytes) + "-byte sectors in " +
           std::to_string(kL2ModelLineBytes) + "-byte lines";
  const std::int64_t set_bytes = std::int64_t(d.l2_ways) * d.l2_line_bytes * d.l2_partitions;
  if (d.l2_bytes <= 0 || d.l2_bytes > (std::int64_t(1) << 33))
    return "device: L2 capacity must be 1 B .. 8 GiB";
  if (d.l2_bytes % set_bytes != 0)
    return "device: L2 capacity must be a multiple of ways x 128 B x partitions (" +
           std::to_string(set_bytes) + " B)";
  return "";
}

}  // namespace gemmlab

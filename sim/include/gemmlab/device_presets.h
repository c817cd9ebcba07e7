// Device descriptions for occupancy, dispatch and the L2 model. Every number says where it comes
// from; where NVIDIA publishes nothing (L2 associativity, partition hashing) the value is a GEMM
// Lab choice and is marked "assumption". The app lets the learner edit any field.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab {

// The L2 model's sector and line (sim/src/l2_geometry.h): NVIDIA's L2 since Volta.
inline constexpr int kL2ModelSectorBytes = 32, kL2ModelLineBytes = 128;

struct DeviceDesc {
  std::string name;
  std::string compute_capability;
  int sms = 0;
  // Per-SM limits (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability").
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 1024;
  int regs_per_sm = 65536;
  int max_regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int reg_alloc_unit = 256;        // registers, allocated per warp (cudaOccupancy.h)
  int sub_partitions = 4;          // register file split into 4 SM sub-partitions (cudaOccupancy.h)
  int smem_per_sm = 0;             // bytes, largest carve-out
  int max_smem_per_block = 0;      // bytes, opt-in maximum (cudaFuncAttributeMaxDynamicSharedMemorySize)
  int smem_alloc_unit = 128;       // bytes (cudaOccupancy.h, sm_80+)
  int reserved_smem_per_block = 1024;  // bytes the driver reserves per block on sm_80+ (cudaOccupancy.h)
  // L2.
  std::int64_t l2_bytes = 0;
  int l2_partitions = 1;
  int l2_ways = 16;       // assumption: NVIDIA does not publish the L2 associativity
  int l2_line_bytes = kL2ModelLineBytes;
  int l2_sector_bytes = kL2ModelSectorBytes;
  // Rates for the roofline (gemmlab/roofline.h); 0 where not known. Dense rates in TFLOP/s (TOP/s
  // for integers), DRAM bandwidth in TB/s; sources in rate_notes.
  double fp32_tflops = 0;         // FFMA
  double mma_sync_f16_tflops = 0; // mma.sync f16 in, f32 accumulate
  double mma_sync_s8_tops = 0;
  double mma_sync_s4_tops = 0;
  double wgmma_f16_tflops = 0;    // Hopper's wgmma, f16 in, f32 accumulate (0: no wgmma)
  double wgmma_e4m3_tflops = 0;   // Hopper's wgmma, e4m3 in, f32 accumulate (0: no FP8 wgmma)
  double dram_tb_s = 0;
  std::string rate_notes;
  std::string notes;      // sources and assumptions, shown by the CLI and the app
};

// "h100", "h200", "a100", "rtx4090" (case-insensitive).
Expected<DeviceDesc> device_preset(const std::string& name);
std::vector<std::string> device_preset_names();

// A description the simulator can use: positive limits, ways 1..16, line a multiple of the sector,
// capacity a whole number of sets per partition. Returns an empty string when valid.
std::string validate_device(const DeviceDesc& d);

}  // namespace gemmlab

// The roofline of a GEMM on a device (Williams, Waterman and Patterson, "Roofline", CACM 2009):
// a kernel can run no faster than its instruction's peak rate (the roof) nor than DRAM can feed
// it, bandwidth x arithmetic intensity (operations per byte of DRAM traffic). The Kernels view
// places every measured stage under its roof; the rates are the device's (device_presets.cpp,
// with their sources).
//   H100, 4096^3, f16 A and B, f32 C: 137.4 GFLOP over at least 134.2 MB = 1024 FLOP/B, far right
//   of the wgmma ridge (989.4 / 3.35 = 295 FLOP/B): compute-bound, as every GEMM size here is.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/raster.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab {

struct Roof {
  MathOp math;
  std::string name;  // "FP32 FFMA", "mma.sync f16", ...
  double rate = 0;   // TFLOP/s (TOP/s for the integer instructions)
};
// The device's known roofs, FFMA first; a rate of 0 (not known) gives no roof.
std::vector<Roof> device_roofs(const DeviceDesc& d);
std::optional<Roof> roof_for(const DeviceDesc& d, MathOp math);

// The least traffic of C = alpha A B + beta C: A (M x K) and B (K x N) read once, C (M x N)
// written once, and read once more when beta != 0.
struct GemmTraffic {
  double ops = 0;             // 2 M N K
  double min_dram_bytes = 0;
  double intensity = 0;       // ops / min_dram_bytes
};
GemmTraffic gemm_traffic(GemmCoord problem, double ab_bytes, double c_bytes, bool reads_c = false);

// A measured rate under its roof.
struct RooflinePoint {
  Roof roof;
  double intensity = 0;      // ops per byte (the least DRAM traffic)
  double rate = 0;           // measured, TFLOP/s
  double bandwidth_bound = 0; // DRAM bandwidth x intensity, TFLOP/s
  double attainable = 0;     // min(roof, bandwidth_bound)
  double ridge = 0;          // roof / bandwidth: the intensity where the two bounds meet
  bool memory_bound = false; // bandwidth_bound < roof
  double of_attainable = 0;  // rate / attainable
};
Expected<RooflinePoint> place_on_roofline(const DeviceDesc& d, MathOp math, GemmCoord problem, double ab_bytes,
                                          double c_bytes, double rate);

// What a bench result id multiplies with and its operand sizes: a stage of the registry, or the
// bench's references cublas-fp32 (FFMA, 4-byte A, B, C) and cublas-fp16 (wgmma where the device
// has it, else mma.sync; 2-byte A and B, 4-byte C). Nothing for the convolutions (their traffic
// is not a GEMM's) or an unknown id.
struct GemmOperands {
  MathOp math;
  double ab_bytes, c_bytes;
};
std::optional<GemmOperands> gemm_operands(std::string_view id, const DeviceDesc& d);

// The preset of a GPU as the bench names it ("NVIDIA H100 80GB HBM3" -> h100, "NVIDIA H200" ->
// h200, A100, RTX 4090); an error naming the GPU otherwise.
Expected<DeviceDesc> device_preset_for_gpu(const std::string& gpu_name);

}  // namespace gemmlab

// gemmlab sim roofline: a GEMM under its instruction's roof on a device (gemmlab/roofline.h).
//
//   gemmlab sim roofline --device h100 --problem 4096,4096,4096 --stage persistent --tflops 636
//   {"intensity":1024.0,"ridge":295.3,"attainable":989.4,"memory_bound":false,"of_attainable":0.643,...}
#include "commands.h"
#include "gemmlab/roofline.h"
#include "sched_options.h"

namespace gemmlab::cli {

Json cmd_roofline(const Args& a) {
  a.reject_unknown({"--device", "--problem", "--stage", "--tflops", "--json"});
  const auto dev = device_preset(a.str("--device"));
  if (!dev) throw CliError(dev.error());
  const std::vector<int> p = a.int_tuple_in("--problem", 3, 1, kMaxProblemExtent);
  const std::string id = a.str("--stage");
  const auto ops = gemm_operands(id, *dev);
  if (!ops)
    throw CliError("--stage " + id + ": not a GEMM stage of the registry or cublas-fp32 / cublas-fp16 "
                   "(a convolution's traffic is not a GEMM's)");
  const double tflops = read_number(a, "--tflops", 0);
  auto pt = place_on_roofline(*dev, ops->math, {p[0], p[1], p[2]}, ops->ab_bytes, ops->c_bytes, tflops);
  if (!pt) throw CliError(pt.error());
  const GemmTraffic t = gemm_traffic({p[0], p[1], p[2]}, ops->ab_bytes, ops->c_bytes);
  Json out;
  out["device"] = dev->name;
  out["dram_tb_s"] = dev->dram_tb_s;
  Json roofs = Json::array();
  for (const Roof& r : device_roofs(*dev)) roofs.push_back({{"name", r.name}, {"rate", r.rate}});
  out["roofs"] = roofs;
  out["rates_from"] = dev->rate_notes;
  out["roof"] = pt->roof.name;
  out["ops"] = t.ops;
  out["min_dram_bytes"] = t.min_dram_bytes;
  out["intensity"] = pt->intensity;
  out["ridge"] = pt->ridge;
  out["bandwidth_bound"] = pt->bandwidth_bound;
  out["attainable"] = pt->attainable;
  out["memory_bound"] = pt->memory_bound;
  if (a.has("--tflops")) out["of_attainable"] = pt->of_attainable;
  return out;
}

}  // namespace gemmlab::cli

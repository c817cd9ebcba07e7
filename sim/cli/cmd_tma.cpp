// gemmlab sim tma: one box of a 2D TMA tensor map (cuTensorMapEncodeTiled's arguments) and the
// shared-memory byte each of its elements lands at.
//
//   gemmlab sim tma --global 100,70 --stride 208 --box 64,8 --start 64,64 --swizzle 128B --json
//   {"box":[64,8],"box_bytes":1024,"transaction_bytes":1024,"in_bounds":216,"fill":"zero",
//    "smem_bytes":[0,2,...],"in_bounds_mask":[1,1,...]}       (box element (i,j) at j*64 + i)
#include "commands.h"
#include "gemmlab/gmma_analysis.h"
#include "gemmlab/tma_map.h"

namespace gemmlab::cli {

Json cmd_tma(const Args& a) {
  a.reject_unknown({"--global", "--stride", "--box", "--start", "--element-bits", "--swizzle", "--fill", "--json"});
  tma::TensorMap2D m;
  const auto global = a.int_tuple("--global", 2);
  m.dims[0] = global[0];
  m.dims[1] = global[1];
  m.element_bits = a.int_in("--element-bits", 1, 64, 16);
  m.row_stride_bytes = a.integer("--stride", global[0] * (m.element_bits / 8));
  const std::vector<int> box = a.int_tuple_in("--box", 2, 1, 1 << 16);
  m.box[0] = box[0];
  m.box[1] = box[1];
  auto s = parse_gmma_swizzle(a.str("--swizzle", "128B"));
  if (!s) throw CliError("--swizzle: " + s.error());
  m.swizzle = *s;
  const std::string fill = a.str("--fill", "zero");
  if (fill == "nan") m.fill = tma::OobFill::Nan;
  else if (fill != "zero") throw CliError("--fill '" + fill + "': use zero or nan");
  const auto start = a.int_tuple("--start", 2);
  auto c = tma::copy_box(m, start[0], start[1]);
  if (!c) throw CliError(c.error());
  Json out;
  out["global"] = {m.dims[0], m.dims[1]};
  out["stride_bytes"] = m.row_stride_bytes;
  out["box"] = {m.box[0], m.box[1]};
  out["start"] = {c->x0, c->y0};
  out["element_bits"] = m.element_bits;
  out["swizzle"] = gmma_swizzle_name(m.swizzle);
  out["fill"] = fill;
  out["box_bytes"] = m.box_bytes();
  out["transaction_bytes"] = c->transaction_bytes;
  out["in_bounds"] = c->in_bounds;
  Json bytes = Json::array(), mask = Json::array();
  for (const auto& e : c->elements) {
    bytes.push_back(e.smem_byte);
    mask.push_back(e.in_bounds ? 1 : 0);
  }
  out["smem_bytes"] = bytes;
  out["in_bounds_mask"] = mask;
  return out;
}

}  // namespace gemmlab::cli

// gemmlab sim conv: the implicit GEMM of a convolution (gemmlab/conv_problem.h), and with --row and
// --col where one element of it comes from.
//
//   gemmlab sim conv --problem 32,56,56,64,64,3,3,1,1 --row 57 --col 64 --json
//   {"problem":{"n":32,...},"gemm":[100352,64,576],"output":[56,56],
//    "tile":{"sms":132,"m":128,"n":64,"threads":128,"blocks":784},
//    "npq":[0,1,1],"rsc":[0,1,0],"input":[0,0,1,0],"input_offset":64}
//
// The GEMM row is the output pixel (q fastest, then p, then n), the column index of A the filter
// tap (c fastest, then s, then r, as CUTLASS's fprop orders KRSC filters); "input" is null where the
// window lies in the padding. "tile": the block tile the conv stages launch on a GPU of --sms SMs.
// Any C maps (C = 3, the ResNet-50 stem, included): --alignment (1, 2, 4, 8 elements for fp16,
// default the largest that divides C) is the width of one load, and "access" the load that holds
// the element; "kernels" says whether the conv stages' 16-byte loads can run the problem.
#include "commands.h"
#include "gemmlab/conv_alignment.h"

namespace gemmlab::cli {

Json cmd_conv(const Args& a) {
  a.reject_unknown({"--problem", "--row", "--col", "--sms", "--element", "--alignment", "--json"});
  const std::vector<long long> v = a.int_list("--problem");
  if (v.size() < 7 || v.size() > 10)
    throw CliError("--problem must be N,H,W,C,K,R,S[,pad,stride[,dilation]] (e.g. 32,56,56,64,64,3,3,1,1)");
  auto at = [&](size_t i, long long fallback, long long lo, const char* what) {
    return checked_int(i < v.size() ? v[i] : fallback, lo, 1 << 20, std::string("--problem ") + what);
  };
  const conv::Shape sh{at(0, 1, 1, "N"),   at(1, 1, 1, "H"),   at(2, 1, 1, "W"),      at(3, 1, 1, "C"),
                       at(4, 1, 1, "K"),   at(5, 1, 1, "R"),   at(6, 1, 1, "S"),      at(7, 0, 0, "pad"),
                       at(8, 1, 1, "stride"), at(9, 1, 1, "dilation")};
  const std::string element = a.str("--element", "f16");
  const conv::Element e = element == "f16" ? conv::Element::F16
                          : element == "s8" ? conv::Element::S8
                          : element == "s4" ? conv::Element::S4
                                            : throw CliError("--element '" + element + "': use f16, s8 or s4");
  if (const char* why = conv::check_problem(sh)) throw CliError(std::string("--problem: ") + why);
  const int alignment = a.has("--alignment") ? a.int_in("--alignment", 1, 64) : conv::default_alignment(sh, e);
  if (alignment == 0) throw CliError("--problem: int4 loads need an even C (one byte per load at least)");
  if (const char* why = conv::check_alignment(sh, e, alignment)) throw CliError(std::string("--alignment: ") + why);
  const int sms = a.int_in("--sms", 1, 100000, 132);

  Json out;
  out["problem"] = {{"n", sh.n}, {"h", sh.h}, {"w", sh.w}, {"c", sh.c}, {"k", sh.k}, {"r", sh.r},
                    {"s", sh.s}, {"pad", sh.pad}, {"stride", sh.stride}, {"dilation", sh.dilation}};
  out["element"] = element;
  out["alignment"] = {{"elements", alignment}, {"bytes", conv::access_bytes(e, alignment)}};
  const char* kernels = conv::check_shape(sh, e);
  out["kernels"] = kernels ? Json(kernels) : Json("ok");
  out["gemm"] = {sh.gemm_m(), sh.gemm_n(), sh.gemm_k()};
  out["output"] = {sh.p(), sh.q()};
  const conv::TileShape& t = conv::kTiles[conv::choose_tile(sh, sms)];
  out["tile"] = {{"sms", sms}, {"m", t.m}, {"n", t.n}, {"threads", t.threads()}, {"blocks", conv::tile_blocks(sh, t)}};
  if (a.has("--row") != a.has("--col")) throw CliError("--row and --col go together");
  if (a.has("--row")) {
    const long long m = a.integer("--row");
    const long long kk = a.integer("--col");
    if (m < 0 || m >= sh.gemm_m())
      throw CliError("--row " + std::to_string(m) + " is outside the GEMM's " + std::to_string(sh.gemm_m()) + " rows");
    if (kk < 0 || kk >= sh.gemm_k())
      throw CliError("--col " + std::to_string(kk) + " is outside the GEMM's K of " + std::to_string(sh.gemm_k()));
    const conv::Npq o = conv::row_pixel(sh, m);
    const conv::Rsc tap = conv::k_tap(sh, int(kk));
    const conv::Nhwc x = conv::input_of(sh, o, tap);
    out["npq"] = {o.n, o.p, o.q};
    out["rsc"] = {tap.r, tap.s, tap.c};
    const conv::Access acc = conv::access_of(sh, m, int(kk), alignment);
    out["access"] = {{"first_col", acc.first_col}, {"elements", acc.elements},
                     {"input", {acc.input.n, acc.input.h, acc.input.w, acc.input.c}}, {"in_tensor", acc.in_tensor}};
    if (conv::in_tensor(sh, x)) {
      out["input"] = {x.n, x.h, x.w, x.c};
      out["input_offset"] = conv::activation_offset(sh, x);
    } else {
      out["input"] = nullptr;
      out["padding_at"] = {x.n, x.h, x.w, x.c};
    }
  }
  return out;
}

}  // namespace gemmlab::cli

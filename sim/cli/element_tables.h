// The per-element tables that `gemmlab sim threadmap --elements 1` and `gemmlab sim fragment`
// print and that the app's views write (`gemmlab shot --data`): one encoder, so that both say
// the same thing in the same columns. J is nlohmann::json or nlohmann::ordered_json.
#pragma once
#include "gemmlab/fragment_analysis.h"
#include "gemmlab/thread_map_analysis.h"

namespace gemmlab::tables {

// Every (thread, s, c, v) -> element, in CUTLASS's iterator order.
template <class J>
void put_thread_map_elements(J& out, const ThreadMapResult& r) {
  J el = J::array();
  for (const auto& x : r.accesses) el.push_back({x.thread, x.s, x.c, x.v, x.element.c, x.element.s, x.in_tile});
  out["elements_columns"] = {"thread", "s", "c", "v", "contiguous", "strided", "in_tile"};
  out["elements"] = std::move(el);
}

// Which (lane, register, element) holds which element of the fragment tile; with_matrix adds
// the 8x8 matrix of an ldmatrix.
template <class J>
void put_fragment_elements(J& out, const FragmentMap& m, bool with_matrix) {
  J el = J::array();
  for (const auto& e : m.elements) {
    if (with_matrix) el.push_back({e.lane, e.reg, e.element, e.index, e.matrix, e.at.row, e.at.col});
    else el.push_back({e.lane, e.reg, e.element, e.index, e.at.row, e.at.col});
  }
  if (with_matrix) out["elements_columns"] = {"lane", "register", "element", "index", "matrix", "row", "col"};
  else out["elements_columns"] = {"lane", "register", "element", "index", "row", "col"};
  out["elements"] = std::move(el);
}

// Which lane supplies which ldmatrix row address, and where that row starts in the tile.
template <class J>
void put_ldmatrix_addresses(J& out, const FragmentMap& m) {
  J addr = J::array();
  for (const auto& x : m.addresses) addr.push_back({x.lane, x.used, x.matrix, x.row, x.start.row, x.start.col});
  out["addresses_columns"] = {"lane", "used", "matrix", "row", "tile_row", "tile_col"};
  out["addresses"] = std::move(addr);
}

}  // namespace gemmlab::tables

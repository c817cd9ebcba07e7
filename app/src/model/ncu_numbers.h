// Launch numbers an Nsight Compute CSV gives as text ("(32, 32, 1)", a preamble line that names
// the problem as "4096x4096x4096"), read with limits: an odd or hostile export gives nullopt or a
// clamped value, never an exception or an overflow. The Measured view sets up its replay with them.
#pragma once
#include <optional>
#include <string>

#include "gemmlab/raster.h"

namespace gemmlab::app {

// "(x, y, z)" with each part 1 .. 2^31 - 1; nullopt for anything else.
std::optional<Dim3> parse_ncu_dim3(const std::string& text);

// Threads of a block "(x, y, z)": nullopt unless 1 .. 1024 (CUDA's limit per block).
std::optional<int> ncu_block_threads(const std::string& text);

// The first "MxNxK" in a line, each part clamped to 1 .. max_extent (digits beyond any integer
// clamp too); nullopt when the line has none.
std::optional<GemmCoord> problem_in_line(const std::string& line, int max_extent);

}  // namespace gemmlab::app

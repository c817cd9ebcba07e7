#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_raster(const Args&) { throw CliError("'raster' is not implemented yet"); }

}  // namespace gemmlab::cli

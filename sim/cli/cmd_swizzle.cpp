#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_swizzle(const Args&) { throw CliError("'swizzle' is not implemented yet"); }

}  // namespace gemmlab::cli

#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_l2(const Args&) { throw CliError("'l2' is not implemented yet"); }

}  // namespace gemmlab::cli

#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_layout(const Args&) { throw CliError("'layout' is not implemented yet"); }

}  // namespace gemmlab::cli

#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_schedule(const Args&) { throw CliError("'schedule' is not implemented yet"); }

}  // namespace gemmlab::cli

#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_pipeline(const Args&) { throw CliError("'pipeline' is not implemented yet"); }

}  // namespace gemmlab::cli

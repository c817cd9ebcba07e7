#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_banks(const Args&) { throw CliError("'banks' is not implemented yet"); }

}  // namespace gemmlab::cli

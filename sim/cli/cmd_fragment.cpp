#include "commands.h"

namespace gemmlab::cli {

// Placeholder until the owning work lands; reports an error rather than pretending.
Json cmd_fragment(const Args&) { throw CliError("'fragment' is not implemented yet"); }

}  // namespace gemmlab::cli

// `gemmlab sim <what> ... --json`: one JSON object on stdout; errors on stderr with exit 2.
#pragma once

namespace gemmlab::cli {
// argv[first] is the command name (e.g. "threadmap").
int run_sim_cli(int argc, char** argv, int first);
}

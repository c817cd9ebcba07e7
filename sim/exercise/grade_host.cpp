#include "grade_host.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace gemmlab::exercise {
namespace fs = std::filesystem;
namespace {

#ifndef GEMMLAB_EXERCISE_CXX
#define GEMMLAB_EXERCISE_CXX ""
#endif
#ifndef GEMMLAB_EXERCISE_CXX_ID
#define GEMMLAB_EXERCISE_CXX_ID "GNU"
#endif

// The driver: the learner's file, then main() walking the domain. Each point's values go out on
// fd 3 as one line, flushed, so that a crash or a timeout still says which point it reached.
std::string driver_source(const Grader& g) {
  return "#include <cstdio>\n#include <cstdlib>\n#include <exception>\n#include <new>\n" +
         g.declarations +
         "\n#include \"solution.cpp\"\n"
         "namespace gemmlab_driver {\n"
         "std::FILE* out = nullptr;\n"
         "void line(const long long* v, int n) {\n"
         "  for (int i = 0; i < n; ++i) std::fprintf(out, i ? \" %lld\" : \"%lld\", v[i]);\n"
         "  std::fputc('\\n', out); std::fflush(out);\n"
         "}\n"
         "void emit(long long a) { line(&a, 1); }\n"
         "void emit(long long a, long long b) { long long v[] = {a, b}; line(v, 2); }\n"
         "void emit(long long a, long long b, long long c) { long long v[] = {a, b, c}; line(v, 3); }\n"
         "}  // namespace gemmlab_driver\n"
         "int main() {\n"
         "  using gemmlab_driver::emit;\n"
         "  gemmlab_driver::out = fdopen(3, \"w\");\n"
         "  if (!gemmlab_driver::out) return 3;\n"
         "  try {\n" +
         g.driver_body +
         "\n  } catch (const std::bad_alloc&) {\n"
         "    std::fprintf(gemmlab_driver::out, \"E std::bad_alloc (the memory limit was reached)\\n\"); return 0;\n"
         "  } catch (const std::exception& e) {\n"
         "    std::fprintf(gemmlab_driver::out, \"E %s\\n\", e.what()); return 0;\n"
         "  } catch (...) {\n"
         "    std::fprintf(gemmlab_driver::out, \"E an exception\\n\"); return 0;\n"
         "  }\n"
         "  std::fprintf(gemmlab_driver::out, \"END\\n\");\n"
         "  std::fflush(gemmlab_driver::out);\n"
         "  return 0;\n"
         "}\n";
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// The compiler's text about the learner's file, as if they had compiled it alone: temporary
// paths become the file's name and the driver's "In file included from" lines go.
std::string clean_compiler_output(std::string text, const std::string& dir, const std::string& name) {
  replace_all(text, dir + "/", "");
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.rfind("In file included from driver.cpp", 0) == 0) continue;
    replace_all(line, "solution.cpp:", name + ":");
    out += line + "\n";
  }
  return out;
}

int first_error_line(const std::string& text, const std::string& name) {
  std::smatch m;
  const std::regex re(std::regex_replace(name, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                      R"(:(\d+):(\d+:)? (fatal )?error)");
  if (std::regex_search(text, m, re)) return std::atoi(m[1].str().c_str());
  return 0;
}

std::string first_error_text(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find("error") != std::string::npos) return line;
  return text.substr(0, text.find('\n'));
}

Words limit_words(const SandboxLimits& l) {
  std::ostringstream s;
  s << l.cpu_seconds;
  return words("%s s of CPU", s.str());
}

struct TempDir {
  std::string path;
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/gemmlab-exercise-XXXXXX";
    if (mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

// Reads the driver's lines into the table; returns the points completed and sets `exception`
// when the learner's code threw.
long long parse_results(const std::string& text, ValueTable& table, std::string& exception, bool& ended,
                        std::string& malformed) {
  std::istringstream in(text);
  std::string line;
  long long done = 0;
  while (std::getline(in, line)) {
    if (line == "END") {
      ended = true;
      break;
    }
    if (line.rfind("E ", 0) == 0) {
      exception = line.substr(2);
      break;
    }
    std::istringstream nums(line);
    for (int i = 0; i < table.values_per_point; ++i) {
      long long v = 0;
      if (!(nums >> v)) {
        malformed = line;
        return done;
      }
      table.values.push_back(v);
    }
    ++done;
    if (done > table.points) {
      malformed = "more lines than points";
      return done;
    }
  }
  return done;
}

HostGrade fail(HostGrade g, HostGrade::Stage stage, Words reason) {
  g.stage = stage;
  g.verdict.pass = false;
  g.verdict.say(std::move(reason));
  return g;
}

std::string find_compiler(Words* why) {
  const char* env = std::getenv("GEMMLAB_CXX");
  const std::string chosen = env && *env ? env : GEMMLAB_EXERCISE_CXX;
  if (chosen.empty()) {
    *why = words("no C++ compiler is known to this build: install g++ (apt install g++) and reconfigure, or set "
                 "GEMMLAB_CXX to a compiler");
    return {};
  }
  if (access(chosen.c_str(), X_OK) != 0) {
    if (env && *env)
      *why = words("the C++ compiler %s (GEMMLAB_CXX) is not there: install g++ (apt install g++) or set GEMMLAB_CXX "
                   "to a compiler", chosen);
    else
      *why = words("the C++ compiler %s (the one that built GEMM Lab) is not there: install g++ (apt install g++) or "
                   "set GEMMLAB_CXX to a compiler", chosen);
    return {};
  }
  return chosen;
}

}  // namespace

std::string compiler_path(std::string* why) {
  Words w;
  const std::string path = find_compiler(&w);
  if (why && path.empty()) *why = w.text();
  return path;
}

HostGrade grade_on_host(const Grader& grader, const std::string& source, const HostGradeOptions& options) {
  HostGrade g;
  g.table.points = grader.points;
  g.table.values_per_point = grader.values_per_point;
  Words why;
  const std::string cxx = options.compiler.empty() ? find_compiler(&why) : options.compiler;
  if (cxx.empty()) return fail(g, HostGrade::Stage::NoCompiler, words("cannot grade on this machine: %s", why));

  TempDir dir;
  if (dir.path.empty())
    return fail(g, HostGrade::Stage::NoCompiler, words("cannot create a temporary folder to compile in (TMPDIR)"));
  if (!write_file(dir.path + "/solution.cpp", source) || !write_file(dir.path + "/driver.cpp", driver_source(grader)))
    return fail(g, HostGrade::Stage::NoCompiler, words("cannot write the files to compile in %s", dir.path));

  g.stage = HostGrade::Stage::Compile;
  const std::string error_limit = std::string(GEMMLAB_EXERCISE_CXX_ID).find("Clang") != std::string::npos
                                      ? "-ferror-limit=8" : "-fmax-errors=8";
  const SandboxResult cc = run_sandboxed({cxx, "-std=c++20", "-O0", error_limit, "-o", "program", "driver.cpp"},
                                         dir.path, options.compile_limits);
  g.compile_seconds = cc.wall_seconds;
  g.compiler_output = clean_compiler_output(cc.output, dir.path, options.display_name);
  if (cc.end == SandboxEnd::WallLimit || cc.end == SandboxEnd::CpuLimit)
    return fail(g, HostGrade::Stage::Compile,
                words("the compiler did not finish within %s s: a template or constexpr recursion that never ends?",
                      static_cast<int>(options.compile_limits.wall_seconds)));
  if (cc.end == SandboxEnd::StartFailed)
    return fail(g, HostGrade::Stage::Compile, words("could not start the compiler %s: %s", cxx, cc.output));
  if (cc.end != SandboxEnd::Exited || cc.exit_code != 0) {
    g.error_line = first_error_line(g.compiler_output, options.display_name);
    if (g.compiler_output.find("undefined reference to") != std::string::npos ||
        g.compiler_output.find("Undefined symbols") != std::string::npos)
      return fail(g, HostGrade::Stage::Compile,
                  words("your file does not define `%s`: check the function's name and parameter types", grader.signature));
    if (g.error_line > 0)
      return fail(g, HostGrade::Stage::Compile, words("does not compile: %s", first_error_text(g.compiler_output)));
    return fail(g, HostGrade::Stage::Compile, words("does not compile with `%s` as the grader calls it: %s",
                                                    grader.signature, first_error_text(g.compiler_output)));
  }

  g.stage = HostGrade::Stage::Run;
  const SandboxResult run = run_sandboxed({dir.path + "/program"}, dir.path, options.run_limits);
  g.run_seconds = run.wall_seconds;
  g.program_output = run.output;
  std::string exception, malformed;
  bool ended = false;
  const long long done = parse_results(run.results, g.table, exception, ended, malformed);
  const Words where = done < grader.points ? literal(grader.describe_point(done)) : words("the end");
  if (run.end == SandboxEnd::OutputLimit)
    return fail(g, HostGrade::Stage::Run,
                words("your code printed more than %s KB (at %s): remove the prints; the grader reads the function's "
                      "return values", options.run_limits.output_bytes / 1024, where));
  if (run.end == SandboxEnd::CpuLimit || run.end == SandboxEnd::WallLimit)
    return fail(g, HostGrade::Stage::Run,
                words("your function did not finish: still running at %s after %s (a loop that never ends?)", where,
                      run.end == SandboxEnd::CpuLimit ? limit_words(options.run_limits)
                                                      : words("%s s", static_cast<int>(options.run_limits.wall_seconds))));
  if (run.end == SandboxEnd::Signalled)
    return fail(g, HostGrade::Stage::Run, words("your function crashed at %s: %s", where, signal_words(run.signal)));
  if (run.end == SandboxEnd::StartFailed)
    return fail(g, HostGrade::Stage::Run, words("could not start the compiled program: %s", run.output));
  if (!exception.empty())
    return fail(g, HostGrade::Stage::Run, words("your function threw %s at %s", exception, where));
  if (!malformed.empty())
    return fail(g, HostGrade::Stage::Run,
                words("the grader could not read the values at %s: does your code write to file descriptor 3?", where));
  if (!ended || done != grader.points)
    return fail(g, HostGrade::Stage::Run,
                words("your program stopped at %s (exit code %s): does it call exit()?", where, run.exit_code));

  g.stage = HostGrade::Stage::Evaluate;
  g.verdict = grader.evaluate(g.table);
  return g;
}

}  // namespace gemmlab::exercise

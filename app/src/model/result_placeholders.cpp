#include "model/result_placeholders.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "gemmlab/stage_desc.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

const char* const kKinds[] = {"ratio", "tflops", "ref_tflops", "ref", "device"};
constexpr size_t kMaxPlaceholder = 120;    // a "{" further from its "}" than this is text
constexpr size_t kMaxPlaceholders = 1000;  // per text; more is no lesson (hostile input stays bounded)
constexpr size_t kMaxMissingLines = 20;    // "—" lines shown under a text

bool is_reference(const std::string& id) {
  return find_reference(id) != nullptr;
}

std::string kinds_list() {
  return "{ratio STAGE SIZE}, {tflops STAGE SIZE}, {ref_tflops STAGE SIZE}, {ref STAGE}, {device}";
}

std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// "4096" -> 4096^3; "256x32768x8192" -> that; anything else is an error.
bool parse_size(const std::string& text, int* m, int* n, int* k) {
  std::vector<long long> dims;
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = i;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    if (j == i || j - i > 10) return false;
    dims.push_back(std::stoll(text.substr(i, j - i)));
    if (j == text.size()) break;
    if (text[j] != 'x') return false;
    i = j + 1;
  }
  if (dims.size() == 1) dims = {dims[0], dims[0], dims[0]};
  if (dims.size() != 3) return false;
  for (long long d : dims)
    if (d < 1 || d > (1 << 30)) return false;
  *m = static_cast<int>(dims[0]), *n = static_cast<int>(dims[1]), *k = static_cast<int>(dims[2]);
  return true;
}

void parse_arguments(Placeholder& p, const std::vector<std::string>& w) {
  const bool sized = p.kind == "ratio" || p.kind == "tflops" || p.kind == "ref_tflops";
  const size_t want = sized ? 3 : p.kind == "ref" ? 2 : 1;
  if (w.size() != want) {
    p.error = p.text + " needs " + (sized ? "a stage and a size, e.g. {" + p.kind + " persistent 4096}"
                                      : p.kind == "ref" ? std::string("a stage, e.g. {ref persistent}")
                                                        : std::string("nothing more: {device}"));
    return;
  }
  if (want == 1) return;
  p.stage = w[1];
  if (!find_stage_desc(p.stage) && !(sized && is_reference(p.stage))) {
    p.error = p.text + ": \"" + p.stage + "\" is not a stage id (sim/device/gemmlab/stages.def" +
              (sized ? std::string(", or cublas-fp32, cublas-fp16, im2col-cublas, cudnn)") : std::string(")"));
    return;
  }
  if (sized && !parse_size(w[2], &p.m, &p.n, &p.k))
    p.error = p.text + ": the size must be 4096 (a cube) or MxNxK, e.g. 256x32768x8192";
}

bool is_fence(const std::string& md, size_t line_start) {
  size_t i = line_start;
  while (i < md.size() && i - line_start < 3 && md[i] == ' ') ++i;
  return md.compare(i, 3, "```") == 0 || md.compare(i, 3, "~~~") == 0;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// TFLOP/s as the Kernels view and RESULTS.md print them: three significant digits.
std::string fmt_rate(double v) {
  return fmt(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
}

std::string size_text(const Placeholder& p) {
  if (p.m == p.n && p.n == p.k) return std::to_string(p.m) + "^3";
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

const BenchResult* find_row(const Placeholder& p, const ResultsSource& s) {
  const BenchResult* found = nullptr;
  for (const BenchResults* set : s.sets)
    for (const BenchResult& r : set->results)
      if (r.stage == p.stage && r.m == p.m && r.n == p.n && r.k == p.k && (!found || (r.ok && !found->ok)))
        found = &r;
  return found;
}

// The reference's median timed in turns with the row, and the row's ratio to it.
double reference_ms(const BenchResult& r) {
  if (r.is_reference()) return r.ms;
  if (!r.is_conv) return r.cublas_ms;
  return r.cudnn_ms > 0 ? r.cudnn_ms : r.im2col_ms;
}

std::string reference_name(const BenchResult& r) {
  if (!r.is_conv) return "cuBLAS";
  // A fused conv stage's cuDNN time is its track's peer's, cuDNN's fused graph, not plain cuDNN.
  const TrackDesc* track = find_track(r.track);
  if (const ReferenceDesc* peer = track && track->peer ? find_reference(track->peer) : nullptr; peer && r.cudnn_ms > 0)
    return peer->tag;
  const ReferenceDesc* ref = find_reference(r.stage);
  const bool cudnn = r.cudnn_ms > 0 || (ref && ref->kind == ReferenceKind::Cudnn);
  return reference_of_kind(cudnn ? ReferenceKind::Cudnn : ReferenceKind::Im2colCublas).tag;
}

}  // namespace

std::vector<Placeholder> find_placeholders(const std::string& md) {
  std::vector<Placeholder> out;
  bool in_fence = false;
  size_t code_ticks = 0;  // length of the backtick run that opened the code span we are in
  int line = 1;
  for (size_t i = 0; i < md.size(); ++i) {
    if (i == 0 || md[i - 1] == '\n') {
      if (i > 0) ++line;
      if (is_fence(md, i)) in_fence = !in_fence;
    }
    if (in_fence) continue;
    if (md[i] == '`') {
      size_t run = 0;
      while (i + run < md.size() && md[i + run] == '`') ++run;
      if (code_ticks == 0) code_ticks = run;
      else if (run == code_ticks) code_ticks = 0;
      i += run - 1;
      continue;
    }
    if (md[i] == '\n') code_ticks = 0;  // an unclosed span ends with its paragraph line here
    if (code_ticks || md[i] != '{') continue;
    size_t j = i + 1;
    while (j < md.size() && ((md[j] >= 'a' && md[j] <= 'z') || md[j] == '_')) ++j;
    if (j == i + 1) continue;
    const std::string kind = md.substr(i + 1, j - i - 1);
    const bool known = std::find(std::begin(kKinds), std::end(kKinds), kind) != std::end(kKinds);
    const bool line_ends = j >= md.size() || md[j] == '\n' || md[j] == '\r';
    if (!(j < md.size() && (md[j] == ' ' || md[j] == '}')) && !(known && line_ends)) continue;  // not one
    Placeholder p;
    p.offset = i;
    p.line = line;
    p.kind = kind;
    size_t close = j;  // the "}" within kMaxPlaceholder characters on this line, else none
    while (close < md.size() && close - i <= kMaxPlaceholder && md[close] != '}' && md[close] != '\n') ++close;
    const bool closed = close < md.size() && md[close] == '}' && close - i <= kMaxPlaceholder;
    p.text = closed ? md.substr(i, close - i + 1) : md.substr(i, std::min(j - i + 20, close - i));
    p.length = closed ? close - i + 1 : j - i;
    if (!known) {
      p.error = p.text + " is not a placeholder; they are " + kinds_list();
    } else if (!closed) {
      p.error = p.text + "... has no closing \"}\" on its line";
    } else {
      parse_arguments(p, words_of(md.substr(i + 1, close - i - 1)));
    }
    out.push_back(std::move(p));
    if (out.size() >= kMaxPlaceholders) break;
    if (closed) i = close;
  }
  return out;
}

std::vector<ResultsSource> results_sources(const std::vector<const BenchResults*>& own,
                                           const std::vector<BenchResults>& shipped) {
  std::vector<ResultsSource> out;
  for (auto it = own.rbegin(); it != own.rend(); ++it) out.push_back({(*it)->device.name, true, {*it}});
  const size_t first_shipped = out.size();
  for (const BenchResults& set : shipped) {
    auto same = std::find_if(out.begin() + first_shipped, out.end(),
                             [&](const ResultsSource& s) { return s.device == set.device.name; });
    if (same == out.end()) out.push_back({set.device.name, false, {&set}});
    else same->sets.push_back(&set);
  }
  return out;
}

Expected<std::string> resolve_placeholder(const Placeholder& p, const ResultsSource& s) {
  if (!p.error.empty()) return Error{p.error};
  if (p.kind == "device") return s.device;
  const std::string where = "the results of " + s.device;
  if (p.kind == "ref") {
    if (const StageDesc* d = find_stage_desc(p.stage); d && !is_conv(d->track)) return std::string("cuBLAS");
    for (const BenchResults* set : s.sets)
      for (const BenchResult& r : set->results)
        if (r.stage == p.stage) return reference_name(r);
    return Error{p.text + ": " + where + " have no row of " + p.stage};
  }
  const BenchResult* r = find_row(p, s);
  if (!r) return Error{p.text + ": " + where + " have no " + p.stage + " row at " + size_text(p)};
  if (p.kind == "tflops") return fmt_rate(r->tflops);
  const double ref_ms = reference_ms(*r);
  if (ref_ms <= 0 || r->ms <= 0)
    return Error{p.text + ": the " + p.stage + " row at " + size_text(p) + " in " + where + " has no reference time"};
  if (p.kind == "ratio") return fmt("%.1f%%", 100.0 * ref_ms / r->ms);
  return fmt_rate(r->tflops * r->ms / ref_ms);  // ref_tflops: the same work in the reference's time
}

FilledText fill_placeholders(const std::string& markdown, const std::vector<ResultsSource>& sources) {
  FilledText out;
  out.markdown = markdown;
  const std::vector<Placeholder> found = find_placeholders(markdown);
  if (found.empty()) return out;
  int best = -1, best_count = -1;
  for (size_t s = 0; s < sources.size(); ++s) {
    int count = 0;
    for (const Placeholder& p : found) count += resolve_placeholder(p, sources[s]).ok();
    if (count > best_count) best = static_cast<int>(s), best_count = count;
  }
  if (best >= 0) out.device = sources[best].device, out.own = sources[best].own;
  out.markdown.clear();
  size_t copied = 0;  // built front to back: linear in the text however many placeholders it has
  int missing = 0;
  for (const Placeholder& p : found) {
    if (p.offset < copied) continue;  // (spans never overlap; kept safe all the same)
    out.markdown.append(markdown, copied, p.offset - copied);
    copied = p.offset + p.length;
    auto v = best >= 0 ? resolve_placeholder(p, sources[best])
                       : Expected<std::string>(Error{p.error.empty() ? p.text + ": no results are loaded" : p.error});
    if (v) {
      out.markdown += *v;
      continue;
    }
    out.markdown += "\xE2\x80\x94";  // "—"
    if (++missing <= static_cast<int>(kMaxMissingLines)) out.missing.push_back(v.error());
  }
  out.markdown.append(markdown, copied, std::string::npos);
  if (missing > static_cast<int>(kMaxMissingLines))
    out.missing.push_back("... and " + std::to_string(missing - static_cast<int>(kMaxMissingLines)) + " more");
  return out;
}

std::vector<BenchResults> load_results_dir(const std::string& dir, std::vector<std::string>* problems) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") files.push_back(it->path().string());
  // By name without ".json": a device's own file ("nvidia-h200") before its suffixed ones
  // ("nvidia-h200-conv", "-shapes"), which '-' < '.' would put first. A text quoting the ladder at
  // a size two files share then keeps the ladder file's number, and RESULTS.md and the Kernels
  // view open a device with its ladder.
  std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
    const std::string sa = fs::path(a).stem().string(), sb = fs::path(b).stem().string();
    return sa != sb ? sa < sb : a < b;
  });
  std::vector<BenchResults> out;
  for (const auto& f : files) {
    auto r = load_bench_results(f);
    if (r) out.push_back(std::move(*r));
    else if (problems) problems->push_back(r.error());
  }
  return out;
}

std::vector<Diagnostic> check_placeholders(const Course& course, const std::vector<ResultsSource>& shipped) {
  std::vector<Diagnostic> out;
  auto check = [&](const std::string& file, const std::string& source) {
    for (const Placeholder& p : find_placeholders(source)) {
      if (!p.error.empty()) {
        out.push_back({file, p.line, p.error});
        continue;
      }
      bool resolved = false;
      std::string why = p.text + ": assets/results/ has no results JSON";
      for (const ResultsSource& s : shipped) {
        auto v = resolve_placeholder(p, s);
        if (v) resolved = true;
        else why = v.error();
      }
      if (!resolved)
        out.push_back({file, p.line, "no shipped results file resolves " + why +
                                         "; name a stage and size that assets/results/*.json has"});
    }
  };
  for (const Lesson& lesson : course.lessons) {
    for (const auto& [lang, text] : lesson.text) check(text.file, text.source);
    for (const auto& [lang, notes] : lesson.notes) check(notes.file, notes.source);
  }
  return out;
}

}  // namespace gemmlab::app

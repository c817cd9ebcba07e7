#include "bench/bench_session.h"

#include <algorithm>
#include <ctime>

namespace gemmlab::bench {

std::string Problem::text() const {
  if (!conv) return std::to_string(gemm.m) + "x" + std::to_string(gemm.n) + "x" + std::to_string(gemm.k);
  const conv::Shape& s = *conv;
  std::string t = std::to_string(s.n) + "," + std::to_string(s.h) + "," + std::to_string(s.w) + "," +
                  std::to_string(s.c) + "," + std::to_string(s.k) + "," + std::to_string(s.r) + "," +
                  std::to_string(s.s) + "," + std::to_string(s.pad) + "," + std::to_string(s.stride);
  if (s.dilation != 1) t += "," + std::to_string(s.dilation);
  return t;
}

double Row::ratio() const {
  if (is_reference) return timed ? 1.0 : 0.0;
  return timed && !against.empty() && against[0].ms > 0 && time.ms > 0 ? against[0].ms / time.ms : 0;
}

BenchSession::BenchSession(Backend& backend, SessionRequest request)
    : backend_(backend), request_(std::move(request)) {}

namespace {

std::vector<Problem> problems_of(const SessionRequest& r) {
  std::vector<Problem> out;
  for (const GemmSize& g : r.sizes) out.push_back(Problem::of(g));
  for (size_t i = 0; i < r.convs.size(); ++i)
    out.push_back(Problem::of(r.convs[i], i < r.conv_layers.size() ? r.conv_layers[i] : std::string(),
                              i < r.conv_epilogues.size() ? r.conv_epilogues[i] : ConvEpilogue{}));
  return out;
}

// An entry that names a reference of this problem's kind: its row is the reference row.
bool names_reference_row(const Backend& b, const std::string& id, const Problem& p) {
  const Reference* r = find_stage_desc(id) ? nullptr : b.find_reference(id);
  return r && is_conv(r->track) == p.is_conv();
}

void add_once(std::vector<const Reference*>& list, const Reference* r) {
  if (std::find(list.begin(), list.end(), r) == list.end()) list.push_back(r);
}

}  // namespace

// The references the entries of this problem's kind need, in the order their entries come. A
// check-only session keeps those whose stages are not checked against them (fp8: cuBLASLt has a
// check of its own, which a check-only run shows too).
std::vector<const Reference*> BenchSession::references_needed(const Problem& p) const {
  std::vector<const Reference*> refs;
  auto add = [&](StageTrack track) {
    if (request_.check_only && track_desc(track).checked_by_reference) return;
    for (const Reference* r : backend_.references_for(track)) add_once(refs, r);
  };
  for (const std::string& id : request_.entries) {
    if (const StageDesc* s = find_stage_desc(id)) {
      if (is_conv(s->track) == p.is_conv()) add(s->track);
    } else if (const Reference* r = backend_.find_reference(id); r && is_conv(r->track) == p.is_conv()) {
      add(r->track);
    }
  }
  return refs;
}

int BenchSession::total_steps() const {
  int steps = 0;
  for (const Problem& p : problems_of(request_)) {
    steps += int(references_needed(p).size());
    for (const std::string& id : request_.entries) steps += !names_reference_row(backend_, id, p);
  }
  return steps;
}

void BenchSession::run(const std::function<void(const SessionProgress&)>& on_progress,
                       const std::atomic<bool>* cancel) {
  for (const Problem& p : problems_of(request_)) {
    if (cancel && *cancel) break;
    run_problem(p, on_progress, cancel);
  }
  if (on_progress) on_progress({done_, total_steps(), ""});
}

void BenchSession::run_problem(const Problem& p, const std::function<void(const SessionProgress&)>& on_progress,
                               const std::atomic<bool>* cancel) {
  const int total = total_steps();
  auto step = [&](const std::string& id, const char* what) {
    if (on_progress) on_progress({done_, total, id + " " + p.text() + ": " + what});
  };
  for (const Reference* r : references_needed(p)) {
    if (cancel && *cancel) return;
    step(r->id, request_.check_only ? "checking" : "timing");
    reference_row(*r, p);
    ++done_;
  }
  for (const std::string& id : request_.entries) {
    if (names_reference_row(backend_, id, p)) continue;  // its reference row above
    if (cancel && *cancel) return;
    step(id, request_.check_only ? "checking" : "checking and timing");
    entry_row(id, p);
    ++done_;
  }
}

void BenchSession::reference_row(const Reference& r, const Problem& p) {
  Row row;
  row.stage = r.id, row.track = track_name(r.track), row.problem = p, row.is_reference = true;
  row.rejected = backend_.validate({nullptr, &r}, p);
  if (row.rejected.empty())
    if (const std::optional<CheckOutcome> c = backend_.check_reference(r, p)) {
      row.check = *c;
      row.rejected = c->rejected;
      row.checked = row.rejected.empty();
    }
  if (row.rejected.empty() && !request_.check_only) {
    row.time = backend_.time_in_turns({{nullptr, &r}}, p).front();
    row.rejected = row.time.rejected;
    row.timed = row.rejected.empty();
    row.against.push_back({&r, row.time.ms});
  }
  rows_.push_back(std::move(row));
}

namespace {

std::string kind_mismatch(const StageDesc& s, const Problem& p) {
  if (p.is_conv())
    return std::string(s.id) + " is a GEMM stage: --conv runs the conv stages (--stages conv)";
  return std::string(s.id) +
         " is a convolution stage: this session times GEMM sizes; time it with gemmlab bench --conv "
         "N,H,W,C,K,R,S[,pad,stride] (or --conv resnet50)";
}

}  // namespace

void BenchSession::entry_row(const std::string& id, const Problem& p) {
  Row row;
  row.stage = id, row.problem = p;
  const StageDesc* s = find_stage_desc(id);
  if (!s) {
    const Reference* r = backend_.find_reference(id);
    row.rejected = !r              ? "unknown stage id '" + id + "': no stage or reference of the registry has it "
                                                   "(gemmlab bench --list shows them)"
                   : is_conv(r->track) ? id + " is a convolution reference: time convolutions with gemmlab bench --conv"
                                       : id + " is a GEMM reference: it runs with GEMM sizes";
    rows_.push_back(std::move(row));
    return;
  }
  row.track = track_name(s->track);
  if (is_conv(s->track) != p.is_conv()) {
    row.rejected = kind_mismatch(*s, p);
    rows_.push_back(std::move(row));
    return;
  }
  const std::vector<const Reference*> refs = backend_.references_for(s->track);
  row.rejected = backend_.validate({s, nullptr}, p);
  // A stage is compared with its reference: where that one cannot run this size, neither is checked
  // (fp8: the stage is checked against its own exact reference and timed without cuBLASLt there).
  if (row.rejected.empty() && !refs.empty() && track_desc(s->track).checked_by_reference)
    for (const Row& r : rows_)
      if (r.is_reference && r.stage == refs[0]->id && r.track == track_name(refs[0]->track) &&
          r.problem.text() == p.text() && !r.rejected.empty())
        row.rejected = "its reference " + refs[0]->name + " cannot run this size: " + r.rejected;
  if (row.rejected.empty()) {
    row.check = backend_.check(*s, p);
    row.rejected = row.check.rejected;
    row.checked = row.rejected.empty();
  }
  if (row.checked && !request_.check_only) time_stage(row, *s, refs, p);
  rows_.push_back(std::move(row));
}

// In turns: the stage, its references, and the stage before it where this session has that
// one's good, timed row at this size.
void BenchSession::time_stage(Row& row, const StageDesc& s, const std::vector<const Reference*>& refs,
                              const Problem& p) {
  // A reference whose own row refused this size is left out of the turns (its time stays 0).
  auto refused = [&](const Reference* r) {
    return std::any_of(rows_.begin(), rows_.end(), [&](const Row& x) {
      return x.is_reference && x.stage == r->id && x.problem.text() == p.text() && !x.rejected.empty();
    });
  };
  std::vector<Target> turns{{&s, nullptr}};
  std::vector<size_t> turn_of(refs.size(), 0);  // 0: not timed
  for (size_t i = 0; i < refs.size(); ++i)
    if (!refused(refs[i])) {
      turn_of[i] = turns.size();
      turns.push_back({nullptr, refs[i]});
    }
  const StageDesc* before = ladder_previous(s);
  if (before && std::none_of(rows_.begin(), rows_.end(), [&](const Row& r) {
        return r.stage == before->id && r.problem.text() == p.text() && r.timed && r.check.ok;
      }))
    before = nullptr;
  if (before) turns.push_back({before, nullptr});
  const std::vector<Timing> t = backend_.time_in_turns(turns, p);
  row.time = t[0];
  row.timed = row.time.rejected.empty();
  if (!row.timed) {
    row.rejected = row.time.rejected;
    return;
  }
  for (size_t i = 0; i < refs.size(); ++i)
    row.against.push_back({refs[i], turn_of[i] && t[turn_of[i]].rejected.empty() ? t[turn_of[i]].ms : 0.0});
  if (before) row.previous = before->id, row.previous_ms = t.back().ms;
}

bool BenchSession::all_checks_passed() const {
  return std::all_of(rows_.begin(), rows_.end(), [](const Row& r) { return !r.checked || r.check.ok; });
}

namespace {

void set_conv(const conv::Shape& c, int (&out)[10]) {
  const int v[10] = {c.n, c.h, c.w, c.c, c.k, c.r, c.s, c.pad, c.stride, c.dilation};
  std::copy(v, v + 10, out);
}

BenchResult result_of(const Row& r) {
  BenchResult b;
  b.stage = r.stage, b.track = r.track;
  b.m = r.problem.gemm.m, b.n = r.problem.gemm.n, b.k = r.problem.gemm.k;
  b.ms = r.time.ms, b.tflops = r.time.tflops, b.reps = r.time.reps;
  // A reference row with a check of its own (cuBLASLt FP8) carries it like a stage's.
  b.rel_err = r.checked ? r.check.rel_err : 0.0;
  b.ok = r.checked ? r.check.ok : r.is_reference;
  const Row::Against& first = r.against.front();
  b.reference = first.reference->id, b.reference_name = first.reference->name;
  b.reference_ms = first.ms, b.ratio = r.ratio();
  if (r.problem.is_conv()) {
    b.is_conv = true;
    set_conv(*r.problem.conv, b.conv);
    b.layer = r.problem.layer;
    if (!r.is_reference) {
      b.ratio_to_im2col = b.ratio, b.im2col_ms = first.ms;
      if (r.against.size() > 1 && r.against[1].ms > 0)
        b.cudnn_ms = r.against[1].ms, b.ratio_to_cudnn = r.against[1].ms / r.time.ms;
    }
  } else {
    b.ratio_to_cublas = b.ratio, b.cublas_ms = first.ms;
  }
  b.previous_stage = r.previous, b.previous_ms = r.previous_ms;
  return b;
}

}  // namespace

BenchResults to_results(const std::vector<Row>& rows, const BenchDevice& device, const std::string& date,
                        const std::string& source) {
  BenchResults out;
  out.source = source, out.device = device, out.date = date;
  for (const Row& r : rows) {
    if (!r.rejected.empty()) {
      BenchSkipped s;
      s.stage = r.stage, s.reason = r.rejected;
      s.m = r.problem.gemm.m, s.n = r.problem.gemm.n, s.k = r.problem.gemm.k;
      BenchResult key;
      key.m = s.m, key.n = s.n, key.k = s.k;
      if (r.problem.is_conv()) {
        key.is_conv = s.is_conv = true, set_conv(*r.problem.conv, key.conv), set_conv(*r.problem.conv, s.conv);
        s.layer = r.problem.layer;
      }
      s.size_key = key.size_key();
      out.skipped.push_back(std::move(s));
    } else if (r.timed && !r.against.empty()) {
      out.results.push_back(result_of(r));
    }
  }
  return out;
}

std::string utc_now() {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return date;
}

}  // namespace gemmlab::bench

// The co-resident progress model of l2_progress.h: processor sharing with the older block first.
#include "gemmlab/l2_progress.h"

#include <algorithm>
#include <array>
#include <queue>

namespace gemmlab {

double CoresidentClock::time_at(int b, double work) const {
  const BlockProgress& bp = blocks[static_cast<size_t>(b)];
  const ProgressPiece* first = pieces.data() + bp.first_piece;
  const ProgressPiece* last = first + bp.piece_count - 1;
  const ProgressPiece* p = first;
  while (p < last && (p + 1)->work <= work) ++p;
  if (p->rate <= 0) return p->time;
  return p->time + std::max(0.0, work - p->work) / p->rate;
}

namespace {

constexpr int kMaxPieces = 5;  // younger, older, alone, the end: 4; one spare

struct Pieces {
  std::array<ProgressPiece, kMaxPieces> piece{};
  int count = 0;
  void add(double t, double w, double rate) {
    if (count > 0 && piece[static_cast<size_t>(count - 1)].rate == rate) return;
    if (count > 0 && piece[static_cast<size_t>(count - 1)].time == t) {  // replaced at once
      piece[static_cast<size_t>(count - 1)] = {t, w, rate};
      return;
    }
    if (count == kMaxPieces) --count;  // cannot happen with 2 slots; keeps the last rate right
    piece[static_cast<size_t>(count++)] = {t, w, rate};
  }
};

struct Resident {
  int block = -1;
  double work_done = 0;
  double rate = 0;
};

struct SmState {
  std::array<Resident, 2> res;  // res[0] is the older
  int count = 0;
  double updated = 0;  // time work_done was last brought up to date
};

struct Event {
  double time;
  int sm;
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : sm > o.sm; }
};

}  // namespace

bool coresident_progress(const BlockPlan& plan, const Timeline& tl, const CoresidentRates& rates,
                         CoresidentClock& out) {
  out = CoresidentClock{};
  if (!rates.enabled || tl.blocks_per_sm != 2 || tl.sms <= 0 || tl.blocks.size() != plan.blocks.size())
    return false;
  if (!(rates.older > 0 && rates.younger > 0 && rates.alone > 0)) return false;
  const size_t n = tl.blocks.size();
  std::vector<double> work(n, 0.0);
  for (size_t b = 0; b < n; ++b) {
    const BlockRun& run = tl.blocks[b];
    for (int p = 0; p < run.phase_count; ++p) {
      const Phase& ph = tl.phases[static_cast<size_t>(run.first_phase + p)];
      if (ph.kind == PhaseKind::Wait) return false;  // waits couple blocks: keep the timeline
      work[b] += ph.end - ph.start;
    }
  }

  std::vector<Pieces> pieces(n);
  std::vector<int> sm_of(n, -1);
  std::vector<SmState> sms(static_cast<size_t>(tl.sms));
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q;
  size_t next = 0;

  // Starts blocks on `sm` at time t until its slots are full; blocks without work end at once.
  auto fill = [&](int sm, double t, int slots) {
    SmState& s = sms[static_cast<size_t>(sm)];
    while (s.count < slots && next < n) {
      const size_t b = next++;
      sm_of[b] = sm;
      if (work[b] <= 0) {
        pieces[b].add(t, 0.0, 0.0);
        continue;
      }
      s.res[static_cast<size_t>(s.count++)] = {static_cast<int>(b), 0.0, 0.0};
    }
  };
  // New rates after the residents changed, and the SM's next completion.
  auto reschedule = [&](int sm, double t) {
    SmState& s = sms[static_cast<size_t>(sm)];
    s.updated = t;
    if (s.count == 0) return;
    double first_end = 0;
    for (int i = 0; i < s.count; ++i) {
      Resident& r = s.res[static_cast<size_t>(i)];
      r.rate = s.count == 1 ? rates.alone : (i == 0 ? rates.older : rates.younger);
      pieces[static_cast<size_t>(r.block)].add(t, r.work_done, r.rate);
      const double end = t + (work[static_cast<size_t>(r.block)] - r.work_done) / r.rate;
      first_end = i == 0 ? end : std::min(first_end, end);
    }
    q.push({first_end, sm});
  };

  // The first wave: one block on every SM, then the second slot (the timeline's slot order).
  for (int round = 1; round <= 2; ++round)
    for (int sm = 0; sm < tl.sms; ++sm) fill(sm, 0.0, round);
  for (int sm = 0; sm < tl.sms; ++sm) reschedule(sm, 0.0);

  while (!q.empty()) {
    const Event e = q.top();
    q.pop();
    SmState& s = sms[static_cast<size_t>(e.sm)];
    // Bring the residents up to e.time; the ones whose work is (within rounding) done leave.
    std::array<Resident, 2> keep{};
    int kept = 0;
    for (int i = 0; i < s.count; ++i) {
      Resident r = s.res[static_cast<size_t>(i)];
      r.work_done += r.rate * (e.time - s.updated);
      const double total = work[static_cast<size_t>(r.block)];
      if (r.work_done >= total * (1 - 1e-12) - 1e-12) {
        pieces[static_cast<size_t>(r.block)].add(e.time, total, 0.0);
        continue;
      }
      keep[static_cast<size_t>(kept++)] = r;
    }
    s.res = keep;
    s.count = kept;
    fill(e.sm, e.time, 2);
    reschedule(e.sm, e.time);
  }

  out.blocks.resize(n);
  for (size_t b = 0; b < n; ++b) {
    out.blocks[b].sm = sm_of[b];
    out.blocks[b].first_piece = static_cast<int>(out.pieces.size());
    out.blocks[b].piece_count = pieces[b].count;
    for (int i = 0; i < pieces[b].count; ++i) out.pieces.push_back(pieces[b].piece[static_cast<size_t>(i)]);
  }
  return true;
}

}  // namespace gemmlab

#include "bench/bench_results.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gemmlab/stage_desc.h"

namespace gemmlab::bench {
namespace {

using Json = nlohmann::json;

struct ShapeError {
  std::string message;
};

const Json& field(const Json& obj, const std::string& where, const char* key) {
  if (!obj.is_object()) throw ShapeError{where + " must be an object"};
  auto it = obj.find(key);
  if (it == obj.end()) throw ShapeError{where + " has no \"" + key + "\""};
  return *it;
}

std::string str(const Json& obj, const std::string& where, const char* key) {
  const Json& v = field(obj, where, key);
  if (!v.is_string()) throw ShapeError{where + "." + key + " must be a string"};
  return v.get<std::string>();
}

double num(const Json& obj, const std::string& where, const char* key) {
  const Json& v = field(obj, where, key);
  if (!v.is_number()) throw ShapeError{where + "." + key + " must be a number"};
  return v.get<double>();
}

// A number from lo to hi (finite): what the app shows and exports stays what the file says.
double num_in(const Json& obj, const std::string& where, const char* key, double lo, double hi) {
  const double v = num(obj, where, key);
  if (!std::isfinite(v) || v < lo || v > hi) {
    std::ostringstream range;
    range << lo << " to " << hi;
    throw ShapeError{where + "." + key + " must be a number from " + range.str()};
  }
  return v;
}

int whole(const Json& obj, const std::string& where, const char* key, long long lo, long long hi) {
  const Json& v = field(obj, where, key);
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    throw ShapeError{where + "." + key + " must be an integer from " + std::to_string(lo) + " to " +
                     std::to_string(hi)};
  return static_cast<int>(v.get<long long>());
}

// The tracks of the registry (kTrackTable), by the name the results JSON uses.
const StageTrack* track_named(const std::string& name) {
  const TrackDesc* t = find_track(name);
  return t ? &t->track : nullptr;
}
std::string track_names() {
  std::string out;
  for (const TrackDesc& t : kTrackTable) out += (out.empty() ? "" : ", ") + std::string(t.name);
  return out;
}

const char* const kConvKeys[10] = {"n", "h", "w", "c", "k", "r", "s", "pad", "stride", "dilation"};

void read_conv(const Json& c, const std::string& where, int (&out)[10]) {
  for (int i = 0; i < 10; ++i) out[i] = whole(c, where, kConvKeys[i], i == 7 ? 0 : 1, 1 << 20);
}

}  // namespace

bool BenchResult::is_reference() const {
  return reference.empty() ? find_stage_desc(stage) == nullptr : reference == stage;
}

std::string BenchResult::size_key() const {
  if (!is_conv) return std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k);
  std::string t = "conv ";
  for (int i = 0; i < 7; ++i) t += std::to_string(conv[i]) + (i < 6 ? "," : "");
  t += " pad " + std::to_string(conv[7]) + " stride " + std::to_string(conv[8]);
  if (conv[9] != 1) t += " dilation " + std::to_string(conv[9]);
  return t;
}

Expected<BenchResults> parse_bench_results(const std::string& text, const std::string& source) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const std::exception& e) {
    return Error{source + ": not JSON (" + std::string(e.what()) + ")"};
  }
  BenchResults r;
  r.source = source;
  try {
    if (!doc.is_object()) throw ShapeError{"the file must be an object with device, date, results"};
    const Json& dev = field(doc, "the file", "device");
    r.device.name = str(dev, "device", "name");
    r.device.sms = whole(dev, "device", "sms", 0, 100000);
    r.device.l2_bytes = static_cast<long long>(num_in(dev, "device", "l2_bytes", 0, 1e12));
    r.device.clock_mhz = whole(dev, "device", "clock_mhz", 0, 100000);
    r.device.driver = str(dev, "device", "driver");
    r.device.cuda = str(dev, "device", "cuda");
    r.date = str(doc, "the file", "date");
    const Json& results = field(doc, "the file", "results");
    if (!results.is_array()) throw ShapeError{"results must be a list"};
    for (size_t i = 0; i < results.size(); ++i) {
      const std::string w = "results[" + std::to_string(i) + "]";
      const Json& x = results[i];
      BenchResult b;
      b.stage = str(x, w, "stage");
      b.track = str(x, w, "track");
      const StageTrack* track = track_named(b.track);
      if (!track) throw ShapeError{w + ".track must be one of " + track_names()};
      b.is_conv = is_conv(*track);
      b.m = whole(x, w, "m", 1, 1 << 30);
      b.n = whole(x, w, "n", 1, 1 << 30);
      b.k = whole(x, w, "k", 1, 1 << 30);
      // Limits far past any GPU run (a day per kernel, 10^6 TFLOP/s), which keep every derived
      // number finite.
      b.ms = num_in(x, w, "ms", 0, 1e8);
      b.tflops = num_in(x, w, "tflops", 0, 1e6);
      b.rel_err = num_in(x, w, "rel_err", 0, 1e30);
      if (x.contains("reference")) {
        b.reference = str(x, w, "reference");
        b.reference_name = str(x, w, "reference_name");
        b.reference_ms = num_in(x, w, "reference_ms", 0, 1e8);
        b.ratio = num_in(x, w, "ratio", 0, 1e6);
      }
      if (b.is_conv) {
        read_conv(field(x, w, "conv"), w + ".conv", b.conv);
        if (x.contains("layer")) b.layer = str(x, w, "layer");
        if (!b.is_reference()) {
          b.ratio_to_im2col = num_in(x, w, "ratio_to_im2col", 0, 1e6);
          b.im2col_ms = num_in(x, w, "im2col_ms", 0, 1e8);
          if (x.contains("ratio_to_cudnn")) {
            b.ratio_to_cudnn = num_in(x, w, "ratio_to_cudnn", 0, 1e6);
            b.cudnn_ms = num_in(x, w, "cudnn_ms", 0, 1e8);
          }
        }
      } else {
        b.ratio_to_cublas = num_in(x, w, "ratio_to_cublas", 0, 1e6);
        b.cublas_ms = x.contains("cublas_ms") ? num_in(x, w, "cublas_ms", 0, 1e8) : b.ratio_to_cublas * b.ms;
        if (x.contains("previous_stage")) {
          b.previous_stage = str(x, w, "previous_stage");
          b.previous_ms = num_in(x, w, "previous_ms", 0, 1e8);
        }
      }
      const Json& ok = field(x, w, "ok");
      if (!ok.is_boolean()) throw ShapeError{w + ".ok must be true or false"};
      b.ok = ok.get<bool>();
      b.reps = whole(x, w, "reps", 0, 1 << 30);
      if (b.reference.empty()) {  // a file from before "reference": the first reference's numbers
        b.ratio = b.is_conv ? (b.is_reference() ? 1.0 : b.ratio_to_im2col) : b.ratio_to_cublas;
        b.reference_ms = b.is_conv ? (b.is_reference() ? b.ms : b.im2col_ms) : b.cublas_ms;
      }
      r.results.push_back(std::move(b));
    }
    if (doc.contains("skipped")) {
      const Json& sk = doc["skipped"];
      if (!sk.is_array()) throw ShapeError{"skipped must be a list"};
      for (size_t i = 0; i < sk.size(); ++i) {
        const std::string w = "skipped[" + std::to_string(i) + "]";
        BenchSkipped s;
        s.stage = str(sk[i], w, "stage");
        s.reason = str(sk[i], w, "reason");
        s.m = whole(sk[i], w, "m", 1, 1 << 30);
        s.n = whole(sk[i], w, "n", 1, 1 << 30);
        s.k = whole(sk[i], w, "k", 1, 1 << 30);
        BenchResult key;
        key.m = s.m, key.n = s.n, key.k = s.k;
        if (sk[i].contains("conv")) key.is_conv = true, read_conv(sk[i]["conv"], w + ".conv", key.conv);
        if (sk[i].contains("layer")) s.layer = str(sk[i], w, "layer");
        s.size_key = key.size_key();
        s.is_conv = key.is_conv;
        std::copy(key.conv, key.conv + 10, s.conv);
        r.skipped.push_back(std::move(s));
      }
    }
  } catch (const ShapeError& e) {
    return Error{source + " is not a `gemmlab bench --json` results file: " + e.message};
  }
  return r;
}

std::string bench_results_json(const BenchResults& r) {
  nlohmann::ordered_json doc;
  doc["device"] = {{"name", r.device.name},     {"sms", r.device.sms},
                   {"l2_bytes", r.device.l2_bytes}, {"clock_mhz", r.device.clock_mhz},
                   {"driver", r.device.driver}, {"cuda", r.device.cuda}};
  doc["date"] = r.date;
  doc["results"] = nlohmann::ordered_json::array();
  for (const auto& b : r.results) {
    nlohmann::ordered_json x = {{"stage", b.stage}, {"track", b.track}, {"m", b.m}, {"n", b.n}, {"k", b.k}};
    if (b.is_conv) {
      nlohmann::ordered_json c;
      for (int i = 0; i < 10; ++i) c[kConvKeys[i]] = b.conv[i];
      x["conv"] = c;
      if (!b.layer.empty()) x["layer"] = b.layer;
    }
    x["ms"] = b.ms, x["tflops"] = b.tflops;
    if (!b.reference.empty())
      x["reference"] = b.reference, x["reference_name"] = b.reference_name, x["reference_ms"] = b.reference_ms,
      x["ratio"] = b.ratio;
    if (!b.is_conv) {
      x["ratio_to_cublas"] = b.ratio_to_cublas, x["cublas_ms"] = b.cublas_ms;
    } else if (!b.is_reference()) {
      x["ratio_to_im2col"] = b.ratio_to_im2col, x["im2col_ms"] = b.im2col_ms;
      if (b.cudnn_ms > 0) x["ratio_to_cudnn"] = b.ratio_to_cudnn, x["cudnn_ms"] = b.cudnn_ms;
    }
    x["rel_err"] = b.rel_err, x["ok"] = b.ok, x["reps"] = b.reps;
    if (!b.previous_stage.empty()) x["previous_stage"] = b.previous_stage, x["previous_ms"] = b.previous_ms;
    doc["results"].push_back(x);
  }
  if (!r.skipped.empty()) {
    doc["skipped"] = nlohmann::ordered_json::array();
    for (const auto& s : r.skipped) {
      nlohmann::ordered_json x = {{"stage", s.stage}, {"m", s.m}, {"n", s.n}, {"k", s.k}};
      if (s.is_conv) {
        nlohmann::ordered_json c;
        for (int i = 0; i < 10; ++i) c[kConvKeys[i]] = s.conv[i];
        x["conv"] = c;
        if (!s.layer.empty()) x["layer"] = s.layer;
      }
      x["reason"] = s.reason;
      doc["skipped"].push_back(x);
    }
  }
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";  // names may not be UTF-8
}

}  // namespace gemmlab::bench

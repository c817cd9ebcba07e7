#include "model/results_file.h"

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/files.h"

namespace gemmlab::app {
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

}  // namespace

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
      if (b.track != "fp32" && b.track != "fp16" && b.track != "hopper")
        throw ShapeError{w + ".track must be fp32, fp16 or hopper"};
      b.m = whole(x, w, "m", 1, 1 << 30);
      b.n = whole(x, w, "n", 1, 1 << 30);
      b.k = whole(x, w, "k", 1, 1 << 30);
      // Limits far past any GPU run (a day per kernel, 10^6 TFLOP/s), which keep every derived
      // number finite.
      b.ms = num_in(x, w, "ms", 0, 1e8);
      b.tflops = num_in(x, w, "tflops", 0, 1e6);
      b.ratio_to_cublas = num_in(x, w, "ratio_to_cublas", 0, 1e6);
      b.rel_err = num_in(x, w, "rel_err", 0, 1e30);
      b.cublas_ms = x.contains("cublas_ms") ? num_in(x, w, "cublas_ms", 0, 1e8) : b.ratio_to_cublas * b.ms;
      const Json& ok = field(x, w, "ok");
      if (!ok.is_boolean()) throw ShapeError{w + ".ok must be true or false"};
      b.ok = ok.get<bool>();
      b.reps = whole(x, w, "reps", 0, 1 << 30);
      if (b.ms < 0 || b.tflops < 0 || b.ratio_to_cublas < 0 || b.rel_err < 0)
        throw ShapeError{w + " has a negative time, rate or error"};
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
        r.skipped.push_back(std::move(s));
      }
    }
  } catch (const ShapeError& e) {
    return Error{source + " is not a `gemmlab bench --json` results file: " + e.message};
  }
  return r;
}

Expected<BenchResults> load_bench_results(const std::string& path) {
  std::string problem;
  auto text = read_text_file(path, &problem, 16u << 20);
  if (!text) return Error{problem};
  return parse_bench_results(*text, path);
}

std::string bench_results_json(const BenchResults& r) {
  nlohmann::ordered_json doc;
  doc["device"] = {{"name", r.device.name},     {"sms", r.device.sms},
                   {"l2_bytes", r.device.l2_bytes}, {"clock_mhz", r.device.clock_mhz},
                   {"driver", r.device.driver}, {"cuda", r.device.cuda}};
  doc["date"] = r.date;
  doc["results"] = nlohmann::ordered_json::array();
  for (const auto& b : r.results)
    doc["results"].push_back({{"stage", b.stage}, {"track", b.track}, {"m", b.m}, {"n", b.n},
                              {"k", b.k}, {"ms", b.ms}, {"tflops", b.tflops},
                              {"ratio_to_cublas", b.ratio_to_cublas}, {"cublas_ms", b.cublas_ms},
                              {"rel_err", b.rel_err},
                              {"ok", b.ok}, {"reps", b.reps}});
  if (!r.skipped.empty()) {
    doc["skipped"] = nlohmann::ordered_json::array();
    for (const auto& s : r.skipped)
      doc["skipped"].push_back({{"stage", s.stage}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"reason", s.reason}});
  }
  return doc.dump(2) + "\n";
}

}  // namespace gemmlab::app

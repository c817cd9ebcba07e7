// Options shared by `gemmlab sim raster|schedule|l2`: problem, tile, order, partition, device.
#pragma once
#include <set>
#include <string>

#include "commands.h"
#include "gemmlab/device_presets.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"

namespace gemmlab::cli {

// --problem M,N,K --tile TM,TN[,TK] --order O --split-k S --split-k-mode serial|parallel
// --stream-k. `need_tk`: TK is required (schedule, l2) rather than defaulting to K.
PlanRequest read_plan_request(const Args& a, bool need_tk);
inline const std::set<std::string> kPlanOptions = {"--problem", "--tile", "--order", "--split-k",
                                                   "--split-k-mode", "--stream-k"};

// --device NAME plus edits: --sms, --l2-bytes, --l2-ways, --l2-partitions.
DeviceDesc read_device(const Args& a);
inline const std::set<std::string> kDeviceOptions = {"--device", "--sms", "--l2-bytes", "--l2-ways",
                                                     "--l2-partitions"};

// --iter-cost, --epilogue-cost, --partial-cost (decimal numbers).
CostModel read_cost_model(const Args& a);
inline const std::set<std::string> kCostOptions = {"--iter-cost", "--epilogue-cost", "--partial-cost"};

double read_number(const Args& a, const std::string& key, double fallback);
int read_int(const Args& a, const std::string& key, long long lo, long long hi, long long fallback);

Json device_json(const DeviceDesc& d);
Json plan_summary_json(const BlockPlan& p);

std::set<std::string> merge(std::initializer_list<std::set<std::string>> sets);

}  // namespace gemmlab::cli

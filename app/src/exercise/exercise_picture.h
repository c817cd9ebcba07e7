// The learner's version beside the stage's, one picture per exercise, drawn under the verdict:
// for 09-swizzle/smem-offset the banks of the first ldmatrix matrix under both layouts, for
// 04-thread-maps a warp's access, for 11-block-swizzle the first wave (exercise_picture.cpp);
// for 14, 15 and 17 exercise_picture_<kind>.cpp.
#pragma once
#include "catalog.h"
#include "grade_host.h"

namespace gemmlab::app {

void draw_exercise_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade);

}  // namespace gemmlab::app

// The learner's version beside the stage's, for the exercises that have a picture: for
// 09-swizzle/smem-offset, the banks of the first ldmatrix matrix under both layouts.
#pragma once
#include "catalog.h"
#include "grade_host.h"

namespace gemmlab::app {

void draw_exercise_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade);

}  // namespace gemmlab::app

#!/bin/sh
# The compiler launcher of the kernel library (kernels/CMakeLists.txt): runs the compile command
# and fails it when ptxas reports that it made a wgmma pipeline wait. C7510 and C7515 are
# warnings, already errors for the Hopper sources (-Xptxas=--warning-as-error); C7517 ("warpgroup.wait
# is injected ... to allow use of registers defined by GMMA") is only "info", and costs as much:
# a split-accumulator probe of stage 17 ran 1.3 % slower with it (HOPPER_NOTES.md).
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT  # also when the build is interrupted
"$@" 2>"$log"
rc=$?
cat "$log" >&2
if grep -q "C7517" "$log"; then
  echo "error: ptxas serialized a wgmma pipeline (C7517 above): no accumulator of a wgmma in flight may be read" >&2
  rc=1
fi
exit $rc

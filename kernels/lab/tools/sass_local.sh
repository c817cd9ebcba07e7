#!/usr/bin/env bash
# The SASS of a kernel file on a machine without a GPU: CUDA 13 here has nvcc and ptxas but no
# cuobjdump or nvdisasm, so the GPU machine was the only place to read it.
#   bash kernels/lab/tools/sass_local.sh fetch                    once: nvdisasm into .tools/nvdisasm
#   bash kernels/lab/tools/sass_local.sh FILE.cu [NAME] > F.sass  FILE built for sm_90a as the kernels
#                                                             are; with NAME (part of a mangled
#                                                             kernel name) only that kernel, and its
#                                                             opcode counts on stderr
# The disassembler is CUDA 11.8's, from Debian's non-free nvidia-cuda-toolkit package (a download
# of 84 MB, kept out of the repository and of the build). It knows sm_90's instructions (HGMMA,
# UTMASTG, ELECT, SYNCS.*) but not the ELF header CUDA 12 and later write (ABI version 8, the
# architecture in e_flags bits 8-15): a copy of the cubin gets the old header (ABI version 7,
# e_flags sm | 0x500 | sm << 16) first. Checked against cuobjdump -sass of CUDA 13 on the GPU
# machine (stage 17's file, 2026-11-27): the 39,820 instructions it prints are cuobjdump's, at the
# same addresses, but it leaves out what it cannot decode (VIADD, newer than it: 1,324 of the
# 41,144), so the counts below give those as "not decoded" (gaps in the addresses).
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=.tools/nvdisasm  # ignored, and not .deps, which travels to the GPU machine
if [ "${1:-}" = fetch ]; then
  deb=nvidia-cuda-toolkit_11.8.89~11.8.0-5~deb12u1_amd64.deb
  mkdir -p "$D"
  curl -fsS -o "$D/$deb" "http://deb.debian.org/debian/pool/non-free/n/nvidia-cuda-toolkit/$deb"
  dpkg-deb --fsys-tarfile "$D/$deb" | tar -x -C "$D" ./usr/bin/nvdisasm
  rm "$D/$deb"
  echo "$D/usr/bin/nvdisasm"
  exit 0
fi
[ -x "$D/usr/bin/nvdisasm" ] || { echo "no disassembler yet: run 'bash $0 fetch' once" >&2; exit 1; }
src=${1:?usage: sass_local.sh FILE.cu [KERNEL-NAME-PART]}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/local/cuda/bin/nvcc -std=c++20 -O3 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a \
  -Ikernels -Ikernels/tools -Isim/device -cubin "$src" -o "$tmp/k.cubin"
python3 - "$tmp/k.cubin" "$tmp/old.cubin" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
sm = (struct.unpack_from('<I', d, 0x30)[0] >> 8) & 0xff
d[8] = 7
struct.pack_into('<I', d, 0x30, (sm << 16) | 0x500 | sm)
open(sys.argv[2], 'wb').write(d)
PY
"$D/usr/bin/nvdisasm" -c "$tmp/old.cubin" > "$tmp/all.sass"
if [ -z "${2:-}" ]; then cat "$tmp/all.sass"; exit 0; fi
python3 - "$tmp/all.sass" "$2" <<'PY'
import collections, re, sys
keep, out = False, []
for line in open(sys.argv[1]):
    if '.section' in line and '.text.' in line:
        keep = sys.argv[2] in line
    if keep:
        out.append(line)
sys.stdout.write(''.join(out))
ops, gaps, last = collections.Counter(), 0, None
for l in out:
    m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)', l)
    if m:
        ops[m.group(3).split('.')[0]] += 1
        at = int(m.group(1), 16)
        gaps += (at - last) // 16 - 1 if last is not None and at > last else 0
        last = at
print(sum(ops.values()), 'instructions and', gaps, 'not decoded:',
      ' '.join(f'{k} {v}' for k, v in ops.most_common()), file=sys.stderr)
PY

#!/usr/bin/env bash
# Install the Debian packages rvmess needs, if they are missing.
#   tools/deps.sh            everything (build + test)
#   tools/deps.sh --check    only report what is missing; exit 1 if anything is
#   tools/deps.sh --fuzz     what `make fuzz` needs on top: clang and libFuzzer
#   tools/deps.sh --rtl      what tools/run.sh --target cva6|openpiton and the
#                            CVA6 / OpenPiton checkouts' own builds need
#                            (docs/platforms.md, "RTL under Verilator")
# Runs apt-get as root, through sudo when available, and otherwise prints the
# exact command to run.
set -eu

# command-or-file  package
NEEDS='
riscv64-unknown-elf-gcc     gcc-riscv64-unknown-elf
riscv64-unknown-elf-objcopy binutils-riscv64-unknown-elf
qemu-system-riscv64         qemu-system-misc
/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin opensbi
dtc                         device-tree-compiler
/usr/include/cmocka.h       libcmocka-dev
/usr/include/libfdt.h       libfdt-dev
cc                          gcc
make                        make
verilator                   verilator
sbatch                      slurm-wlm
slurmctld                   slurm-wlm
slurmd                      slurm-wlm
munged                      munge
'

# `make fuzz` only; libFuzzer is a file of clang's runtime folder
FUZZ_NEEDS='
clang                       clang
@libFuzzer                  libclang-rt-dev
'

# tools/run.sh --target cva6|openpiton, and building the models in the user's
# checkouts (OpenPiton's sims is perl + csh; its boot ROM needs libc headers)
RTL_NEEDS='
verilator                   verilator
g++                         g++
readelf                     binutils
stdbuf                      coreutils
setsid                      util-linux
unshare                     util-linux
ip                          iproute2
ps                          procps
perl                        perl
python3                     python3
git                         git
tcsh                        tcsh
gawk                        gawk
xxd                         xxd
dtc                         device-tree-compiler
riscv64-unknown-elf-gcc     gcc-riscv64-unknown-elf
/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs picolibc-riscv64-unknown-elf
mpirun                      openmpi-bin
mpic++                      libopenmpi-dev
'

check_only=0
[ "${1:-}" = "--check" ] && check_only=1
if [ "${1:-}" = "--fuzz" ]; then
    NEEDS=$FUZZ_NEEDS
fi
if [ "${1:-}" = "--rtl" ]; then
    NEEDS=$RTL_NEEDS
fi

missing=""
while read -r what pkg; do
    [ -n "$what" ] || continue
    case "$what" in
        /*) [ -e "$what" ] && continue ;;
        @libFuzzer)
            command -v clang >/dev/null 2>&1 &&
                [ -e "$(clang -print-runtime-dir)/libclang_rt.fuzzer-$(uname -m).a" ] && continue ;;
        *)  command -v "$what" >/dev/null 2>&1 && continue ;;
    esac
    case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
done <<EOT
$NEEDS
EOT
missing=${missing# }

[ -z "$missing" ] && exit 0
if [ $check_only = 1 ]; then
    echo "rvmess: missing Debian packages: $missing" >&2
    exit 1
fi

if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "rvmess: missing Debian packages: $missing" >&2
    echo "rvmess: run as root:  apt-get update && apt-get install -y $missing" >&2
    exit 1
fi

echo "rvmess: installing Debian packages: $missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2

# messsim, the Mess analytical memory simulator (hostsim/mess/messsim.h,
# docs/mess.md): a C library linked by rvmess and hostsim, and by
# simulators outside rvmess (the Verilator DPI adapter in hostsim/mess/dpi/).
MESS_LIB_SRCS := hostsim/mess/family.c hostsim/mess/ctrl.c

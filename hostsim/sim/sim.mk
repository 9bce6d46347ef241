# hostsim, the RV64 simulator: build/bin/hostsim

# The rvmess CLI: build/bin/rvmess

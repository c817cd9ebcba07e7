// Stage 17's mbarrier ring: k-tile k lives in stage s = k % stages and is the (k / stages)-th
// fill of that stage. The consumer waits for that phase of full[s]; the producer for the phase
// of empty[s] one round earlier, whose parity is the other one (a fresh barrier lets it pass).
int full_parity(int k_tile, int stages) { return (k_tile / stages) & 1; }
int empty_parity(int k_tile, int stages) { return ((k_tile / stages) & 1) ^ 1; }

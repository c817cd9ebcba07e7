// Stage 17's mbarrier ring: k-tile k is in stage
// s = k % stages.
int full_parity(int k_tile, int stages) {
  (void)k_tile; (void)stages;
  return 0;  // TODO: which phase holds k_tile?
}
int empty_parity(int k_tile, int stages) {
  (void)k_tile; (void)stages;
  return 1;  // a fresh barrier lets 1 through. Later?
}

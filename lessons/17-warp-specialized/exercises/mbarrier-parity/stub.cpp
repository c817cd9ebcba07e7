// Stage 17's mbarrier ring: k-tile k lives in stage s = k % stages.
int full_parity(int k_tile, int stages) {
  (void)k_tile; (void)stages;
  return 0;  // TODO: which phase of full[s] holds k-tile k_tile?
}
int empty_parity(int k_tile, int stages) {
  (void)k_tile; (void)stages;
  return 1;  // passes at once on a fresh barrier; and after that?
}

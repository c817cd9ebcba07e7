// Stage 11's grid: tiles_m x tiles_n tiles (256 x 8). Which tile does block `block` compute?
void block_tile(int block, int tiles_m, int tiles_n, int* m_tile, int* n_tile) {
  (void)tiles_n;
  *m_tile = block % tiles_m;  // launch order: down the m column first. Change this.
  *n_tile = block / tiles_m;
}

// Stage 11's grid: tiles_m x tiles_n tiles (256 x 8).
// Groups of 8 m tiles: inside a group m moves fastest, then n, so the blocks of one wave share
// 8 A row panels and every B column panel instead of needing a new A panel each.
void block_tile(int block, int tiles_m, int tiles_n, int* m_tile, int* n_tile) {
  const int group = 8;
  const int per_group = group * tiles_n;
  const int first_m = (block / per_group) * group;
  const int in_group = block % per_group;
  const int rows = tiles_m - first_m < group ? tiles_m - first_m : group;
  *m_tile = first_m + in_group % rows;
  *n_tile = in_group / rows;
}

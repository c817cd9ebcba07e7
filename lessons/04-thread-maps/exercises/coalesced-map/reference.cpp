// Lesson 4's tile: 128 floats along c x 8 rows along s; 256 threads, 4 loads each.
// Stripmined: access a of thread t is element t + 256 a, so the 32 lanes of a warp read 32
// neighbouring floats of one row: 128 contiguous bytes, 4 sectors.
int thread_map(int thread, int access) {
  return thread + 256 * access;
}

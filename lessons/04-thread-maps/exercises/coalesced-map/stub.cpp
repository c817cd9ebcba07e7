// Lesson 4's tile: 128 floats along c x 8 rows along s.
// 256 threads, 4 loads each. Return the element
// s * 128 + c that `thread` loads on its `access`.
int thread_map(int thread, int access) {
  // Neighbouring threads walk down a column: 16 KB apart.
  int s = thread % 8;
  int c = thread / 8 + 32 * access;
  return s * 128 + c;
}

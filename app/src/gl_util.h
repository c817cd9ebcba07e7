// Small OpenGL helpers: RGBA textures the grid views upload their cells into (one texel per
// cell: a 16k-tile grid is one quad, not 16k), framebuffer read-back and PNG writing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gemmlab::app {

// Off (set_gl_available(false)) where ImGui runs without a renderer, as in the render fuzz target:
// textures are then laid out but never created, and no GL function is called.
void set_gl_available(bool available);
bool gl_available();

// A texture that owns its GL name; nearest filtering so cells stay crisp when zoomed.
class CellTexture {
 public:
  CellTexture() = default;
  CellTexture(const CellTexture&) = delete;
  CellTexture& operator=(const CellTexture&) = delete;
  ~CellTexture();
  // rgba: width * height packed 0xAABBGGRR (ImU32) values, row 0 at the top. Returns false (and
  // keeps no texture) when a side exceeds the driver's GL_MAX_TEXTURE_SIZE.
  bool upload(int width, int height, const std::vector<std::uint32_t>& rgba);
  static int max_size();
  void* imgui_id() const { return reinterpret_cast<void*>(static_cast<intptr_t>(name_)); }
  int width() const { return width_; }
  int height() const { return height_; }
  bool valid() const { return name_ != 0; }

 private:
  unsigned name_ = 0;
  int width_ = 0, height_ = 0;
};

// A lesson's image as a texture, for Markdown images: only what lesson_image_problem() (files.h)
// accepts is read, only PNG is decoded (by signature, from the bytes read), and all images
// together stay under a decoded budget; anything else gives `error`.
struct ImageTexture {
  unsigned name = 0;
  int width = 0, height = 0;
  std::string error;  // set when the file could not be loaded
};
const ImageTexture& image_texture(const std::string& assets_dir, const std::string& href);  // cached by canonical path
void release_image_textures();

// RGBA pixels of a rectangle of the bound framebuffer, top row first.
std::vector<std::uint8_t> read_pixels(int x, int y_from_top, int width, int height,
                                      int framebuffer_height);
// Returns an empty string on success, else the problem.
std::string write_png(const std::string& path, int width, int height,
                      const std::vector<std::uint8_t>& rgba);

// An offscreen colour buffer for `gemmlab shot` and the frame-time benchmark.
class OffscreenTarget {
 public:
  ~OffscreenTarget();
  bool create(int width, int height);  // false when the driver refuses the size
  void bind() const;
  static void unbind();
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  unsigned fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace gemmlab::app

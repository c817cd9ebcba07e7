#include "gl_util.h"

#include <epoxy/gl.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <map>

#include "model/files.h"

namespace gemmlab::app {

CellTexture::~CellTexture() {
  if (name_) glDeleteTextures(1, &name_);
}

int CellTexture::max_size() {
  static int size = [] {
    GLint v = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &v);
    return v > 0 ? int(v) : 2048;
  }();
  return size;
}

bool CellTexture::upload(int width, int height, const std::vector<std::uint32_t>& rgba) {
  if (width <= 0 || height <= 0 || width > max_size() || height > max_size() ||
      rgba.size() < static_cast<size_t>(width) * height) {
    if (name_) glDeleteTextures(1, &name_);
    name_ = 0;
    width_ = height_ = 0;
    return false;
  }
  if (!name_) {
    glGenTextures(1, &name_);
    glBindTexture(GL_TEXTURE_2D, name_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, name_);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (width != width_ || height != height_) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 rgba.data());
    width_ = width;
    height_ = height;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  }
  return true;
}

namespace {
std::map<std::string, ImageTexture>& image_cache() {
  static std::map<std::string, ImageTexture> cache;
  return cache;
}
}  // namespace

const ImageTexture& image_texture(const std::string& path) {
  auto& cache = image_cache();
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  ImageTexture t;
  int channels = 0;
  // The header first: a small file can claim 20000 x 20000 pixels (1.6 GB decoded).
  if (stbi_info(path.c_str(), &t.width, &t.height, &channels) &&
      (t.width > kMaxImageSide || t.height > kMaxImageSide)) {
    t.error = "image " + path + " is " + std::to_string(t.width) + " x " + std::to_string(t.height) +
              " pixels; the limit is " + std::to_string(kMaxImageSide) + " on a side";
    return cache.emplace(path, std::move(t)).first->second;
  }
  unsigned char* pixels = stbi_load(path.c_str(), &t.width, &t.height, &channels, 4);
  if (!pixels) {
    t.error = std::string("cannot load image ") + path + ": " + stbi_failure_reason();
  } else if (t.width > kMaxImageSide || t.height > kMaxImageSide) {
    t.error = "image " + path + " is larger than " + std::to_string(kMaxImageSide) + " pixels on a side";
    stbi_image_free(pixels);
  } else {
    glGenTextures(1, &t.name);
    glBindTexture(GL_TEXTURE_2D, t.name);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, t.width, t.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 pixels);
    stbi_image_free(pixels);
  }
  return cache.emplace(path, std::move(t)).first->second;
}

void release_image_textures() {
  for (auto& [path, t] : image_cache())
    if (t.name) glDeleteTextures(1, &t.name);
  image_cache().clear();
}

std::vector<std::uint8_t> read_pixels(int x, int y_from_top, int width, int height,
                                      int framebuffer_height) {
  std::vector<std::uint8_t> flipped(static_cast<size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, framebuffer_height - y_from_top - height, width, height, GL_RGBA,
               GL_UNSIGNED_BYTE, flipped.data());
  // OpenGL's rows run bottom-up; PNG's top-down.
  std::vector<std::uint8_t> out(flipped.size());
  const size_t row = static_cast<size_t>(width) * 4;
  for (int r = 0; r < height; ++r)
    std::copy_n(flipped.data() + (height - 1 - r) * row, row, out.data() + r * row);
  for (size_t i = 3; i < out.size(); i += 4) out[i] = 255;  // the frame is opaque
  return out;
}

std::string write_png(const std::string& path, int width, int height,
                      const std::vector<std::uint8_t>& rgba) {
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4))
    return "cannot write " + path + " (check that the folder exists and is writable)";
  return {};
}

OffscreenTarget::~OffscreenTarget() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteRenderbuffers(1, &color_);
}

bool OffscreenTarget::create(int width, int height) {
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  width_ = width;
  height_ = height;
  return ok;
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
}

void OffscreenTarget::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

}  // namespace gemmlab::app

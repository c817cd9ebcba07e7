#include "gl_util.h"

#include <epoxy/gl.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <map>

#include "model/files.h"

namespace gemmlab::app {
namespace {
bool g_gl_available = true;
}  // namespace

void set_gl_available(bool available) { g_gl_available = available; }
bool gl_available() { return g_gl_available; }

CellTexture::~CellTexture() {
  if (name_) glDeleteTextures(1, &name_);
}

int CellTexture::max_size() {
  if (!g_gl_available) return 8192;
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
  if (!g_gl_available) {
    width_ = width, height_ = height;
    return true;
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
std::map<std::string, ImageTexture>& image_cache() {  // by canonical path
  static std::map<std::string, ImageTexture> cache;
  return cache;
}
long long g_decoded_pixels = 0;  // of every image in the cache
constexpr long long kMaxDecodedPixels = 64ll << 20;  // 256 MiB of RGBA for all images together

const ImageTexture& refused(const std::string& key, std::string why) {
  ImageTexture t;
  t.error = std::move(why);
  return image_cache().emplace(key, std::move(t)).first->second;
}
}  // namespace

const ImageTexture& image_texture(const std::string& assets_dir, const std::string& href) {
  auto& cache = image_cache();
  std::string path;
  if (const std::string why = lesson_image_problem(assets_dir, href, &path); !why.empty())
    return refused("\n" + assets_dir + "\n" + href, "image " + href + " " + why);
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  // The bytes checked are the bytes decoded: the file may change between the check and the read.
  std::string problem;
  const auto bytes = read_file_contents(path, &problem, kMaxImageFileBytes);
  if (!bytes) return refused(path, "cannot load image " + href + ": " + problem);
  int width = 0, height = 0, channels = 0;
  if (!has_png_signature(*bytes) ||
      !stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes->data()), int(bytes->size()), &width, &height, &channels))
    return refused(path, "image " + href + " is not a PNG file");
  const long long pixels = static_cast<long long>(width) * height;
  if (width > kMaxImageSide || height > kMaxImageSide || pixels > kMaxImagePixels)
    return refused(path, "image " + href + " is " + std::to_string(width) + " x " + std::to_string(height) + " pixels");
  if (g_decoded_pixels + pixels > kMaxDecodedPixels)
    return refused(path, "image " + href + " not shown: the images of this course take more than " +
                             std::to_string(kMaxDecodedPixels * 4 >> 20) + " MiB decoded");
  ImageTexture t;
  unsigned char* rgba = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes->data()), int(bytes->size()),
                                              &t.width, &t.height, &channels, 4);
  if (!rgba || t.width != width || t.height != height) {
    if (rgba) stbi_image_free(rgba);
    return refused(path, std::string("cannot load image ") + href + ": " + (rgba ? "size changed" : stbi_failure_reason()));
  }
  g_decoded_pixels += pixels;
  if (!g_gl_available) {
    stbi_image_free(rgba);
    return refused(path, "image " + href + " decoded; not drawn without OpenGL");
  }
  glGenTextures(1, &t.name);
  glBindTexture(GL_TEXTURE_2D, t.name);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, t.width, t.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  stbi_image_free(rgba);
  return cache.emplace(path, std::move(t)).first->second;
}

void release_image_textures() {
  for (auto& [path, t] : image_cache())
    if (t.name && g_gl_available) glDeleteTextures(1, &t.name);
  image_cache().clear();
  g_decoded_pixels = 0;
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
  std::string png;  // encoded in memory, then written the one checked way (files.h)
  auto append = [](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<char*>(data), size); };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4))
    return "cannot encode " + path + " as PNG";
  return write_text_file(path, png);
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

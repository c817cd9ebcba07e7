// Files a hostile or careless user hands the app (issue 15): filesystem errors, a FIFO or a huge
// number in the config, a PNG that claims 20000 x 20000 pixels. Each gives a message or the
// default, never an exception, a hang or a huge allocation. Made in a temporary folder per test.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "model/config.h"
#include "model/files.h"
#include "model/lesson_format.h"

namespace gemmlab::app {
namespace {
namespace fs = std::filesystem;

const std::string kAssets = std::string(GEMMLAB_ROOT_DIR) + "/assets";

struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/gemmlab-hostile-XXXXXX";
    path = mkdtemp(name);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

TEST(HostileFiles, SymlinkLoopAndLongNameAreMessagesNotExceptions) {
  TempDir d;
  const std::string long_name(300, 'x');  // past NAME_MAX (255)
  d.write("course.toml", "lessons = [\"loop\", \"" + long_name + "\"]\n");
  fs::create_symlink(d.path / "loop", d.path / "loop");  // a symlink to itself
  Course c;
  ASSERT_NO_THROW(c = load_course(d.path.string(), kAssets));
  ASSERT_EQ(c.lessons.size(), 2u);
  ASSERT_EQ(c.lessons[0].errors.size(), 1u);
  EXPECT_NE(c.lessons[0].errors[0].message.find("cannot be read: Too many levels of symbolic links"), std::string::npos)
      << c.lessons[0].errors[0].message;
  ASSERT_EQ(c.lessons[1].errors.size(), 1u);
  EXPECT_NE(c.lessons[1].errors[0].message.find("File name too long"), std::string::npos)
      << c.lessons[1].errors[0].message;
  std::string why;
  EXPECT_EQ(path_kind((d.path / "loop").string(), &why), PathKind::Error);
  EXPECT_EQ(path_kind((d.path / "none").string(), &why), PathKind::Missing);
}

TEST(HostileFiles, FolderWhereAFileShouldBe) {
  TempDir d;
  fs::create_directories(d.path / "x.json");
  std::string why;
  EXPECT_FALSE(read_file_contents((d.path / "x.json").string(), &why, 1024));
  EXPECT_EQ(why, "is a folder, not a file");
}

TEST(HostileFiles, ConfigThatIsAFifoOrHugeNumbersGivesDefaults) {
  TempDir d;
  const std::string fifo = (d.path / "config.json").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string problem;
  const Config c = load_config(fifo, &problem);  // would block forever if it were opened
  EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
  EXPECT_EQ(c.window_w, Config{}.window_w);

  d.write("big.json", R"({"last_step": 1e300, "font_size": 64, "lesson_panel_width": -5,
                         "window": {"w": 1e9, "h": 100000, "x": 1e300, "maximized": "yes"},
                         "progress": {"01-problem": 1e300, "02-naive": 3}})");
  problem.clear();
  const Config b = load_config((d.path / "big.json").string(), &problem);
  EXPECT_NE(problem.find("last_step = 1e+300 is not a number from 0 to 100000 (using 0)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("window.maximized = \"yes\" is not true or false"), std::string::npos) << problem;
  EXPECT_EQ(b.last_step, 0);
  EXPECT_EQ(b.font_size, 0.f);  // 64 px is past kMaxFontSize: the default size
  EXPECT_EQ(b.lesson_panel_width, 0.f);
  EXPECT_EQ(b.window_w, 1600);
  EXPECT_EQ(b.window_h, 1000);
  EXPECT_EQ(b.window_x, -1);
  EXPECT_FALSE(b.window_maximized);
  EXPECT_EQ(b.progress.count("01-problem"), 0u);
  EXPECT_EQ(b.progress.at("02-naive"), 3);
}

// One wrong value costs that value only: the learner's progress and other settings stay.
TEST(HostileFiles, OneBadConfigValueKeepsTheRest) {
  TempDir d;
  d.write("c.json", R"({"last_lesson": 7, "last_step": 4, "lang": "zh", "progress": {"01-problem": 5}})");
  std::string problem;
  const Config c = load_config((d.path / "c.json").string(), &problem);
  EXPECT_EQ(c.last_lesson, "");  // 7 is not a lesson id
  EXPECT_EQ(c.last_step, 4);
  EXPECT_EQ(c.lang, "zh");
  EXPECT_EQ(c.progress.at("01-problem"), 5);
  EXPECT_NE(problem.find("last_lesson = 7 is not a text"), std::string::npos) << problem;
}

// Progress per course (issue 17): the shipped course keeps plain lesson ids (configs written
// before courses could be opened still count), any other course its folder before the id; a
// round trip through the file keeps both and the last course.
TEST(CourseProgress, EachCourseKeepsItsOwnProgress) {
  TempDir d;
  const std::string shipped = std::string(GEMMLAB_ROOT_DIR) + "/lessons";
  EXPECT_EQ(course_key(shipped, shipped), "");
  EXPECT_EQ(course_key(shipped + "/../lessons/", shipped), "");  // the same folder, spelled otherwise
  fs::create_directories(d.path / "mine");
  const std::string mine = course_key((d.path / "mine").string(), shipped);
  EXPECT_EQ(mine, fs::weakly_canonical(d.path / "mine").string());
  EXPECT_EQ(progress_key("", "02-naive"), "02-naive");
  EXPECT_EQ(progress_key(mine, "02-naive"), mine + "|02-naive");
  Config c;
  c.last_course = mine;
  c.progress[progress_key("", "02-naive")] = 3;
  c.progress[progress_key(mine, "02-naive")] = 1;
  ASSERT_EQ(save_config(c, (d.path / "c.json").string()), "");
  std::string problem;
  const Config back = load_config((d.path / "c.json").string(), &problem);
  EXPECT_EQ(problem, "");
  EXPECT_EQ(back.last_course, mine);
  EXPECT_EQ(back.progress.at("02-naive"), 3);
  EXPECT_EQ(back.progress.at(mine + "|02-naive"), 1);
}

// A PNG header claiming 20000 x 20000 pixels: refused by size before any decoding.
TEST(HostileFiles, HugeImageIsRefusedFromItsHeader) {
  TempDir d;
  const unsigned char header[24] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                    0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20};  // 20000 = 0x4e20
  fs::create_directories(d.path / "assets");
  std::ofstream(d.path / "assets" / "big.png", std::ios::binary).write(reinterpret_cast<const char*>(header), 24);
  const auto size = png_size((d.path / "assets" / "big.png").string());
  ASSERT_TRUE(size);
  EXPECT_EQ(size->width, 20000);
  EXPECT_EQ(size->height, 20000);
  d.write("course/course.toml", "lessons = [\"a\"]\n");
  d.write("course/a/lesson.toml", "id = \"a\"\ntitle.en = \"A\"\n[[step]]\nview = \"grid\"\n");
  d.write("course/a/en.md", "# A\n\n## One\n![big](big.png)\n");
  const Course c = load_course((d.path / "course").string(), (d.path / "assets").string());
  ASSERT_EQ(c.lessons.size(), 1u);
  bool refused = false;
  for (const auto& e : c.lessons[0].errors)
    refused |= e.message.find("is 20000 x 20000 pixels; the limit is 8192 on a side") != std::string::npos;
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace gemmlab::app

// Files a hostile or careless user hands the app (issue 15): filesystem errors, a FIFO or a huge
// number in the config, a PNG that claims 20000 x 20000 pixels. Each gives a message or the
// default, never an exception, a hang or a huge allocation. Made in a temporary folder per test.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/config.h"
#include "model/input_limits.h"
#include "model/files.h"
#include "model/json_text.h"
#include "model/lesson_format.h"
#include "model/markdown_doc.h"
#include "model/ncu_csv.h"
#include "model/work_pool.h"

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

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- Issue 48, files: one way to write a file; the learner's settings are never lost.

// A symlink an attacker left where the old code put its temporary file is not followed: the
// temporary name is unique and opened with O_EXCL|O_NOFOLLOW. (Old code: the target was
// overwritten with the settings.)
TEST(Issue48Files, LeftoverSymlinkAtTheTemporaryNameIsNotFollowed) {
  TempDir d;
  d.write("victim.txt", "precious\n");
  fs::create_symlink(d.path / "victim.txt", d.path / "config.json.tmp");
  Config c;
  c.progress["01-problem"] = 2;
  ASSERT_EQ(save_config(c, (d.path / "config.json").string()), "");
  EXPECT_EQ(slurp(d.path / "victim.txt"), "precious\n");
  EXPECT_EQ(load_config((d.path / "config.json").string()).progress.at("01-problem"), 2);
  for (const auto& e : fs::directory_iterator(d.path))  // no temporary file left behind
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

// A full disk (here: a file size limit, which fails write() the same way) leaves the old file as
// it was and says so. (Old code: the unchecked close left a truncated config.json in place.)
TEST(Issue48Files, FailedWriteKeepsTheOldFileAndIsReported) {
  TempDir d;
  const fs::path cfg = d.path / "config.json";
  Config c;
  c.progress["01-problem"] = 3;
  ASSERT_EQ(save_config(c, cfg.string()), "");
  const std::string before = slurp(cfg);
  c.progress["02-naive"] = 4;
  for (int i = 0; i < 50; ++i) c.progress["lesson-" + std::to_string(i)] = i;
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  rlimit small = old;
  small.rlim_cur = 64;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string problem = save_config(c, cfg.string());
  const std::string direct = write_text_file((d.path / "out.json").string(), std::string(1000, 'x'));
  setrlimit(RLIMIT_FSIZE, &old);
  EXPECT_NE(problem.find("cannot write " + cfg.string()), std::string::npos) << problem;
  EXPECT_EQ(slurp(cfg), before);
  EXPECT_NE(direct, "");
  EXPECT_FALSE(fs::exists(d.path / "out.json"));
}

// A settings file that failed to load is kept aside, never written over. (Old code: defaults
// were written over it on quit, the learner's progress gone.)
TEST(Issue48Files, BrokenSettingsFileIsKeptAsideNotOverwritten) {
  TempDir d;
  const fs::path cfg = d.path / "config.json";
  const std::string broken = "{\"progress\": {\"01-problem\": 3, \"02-naive\": 5}}x";  // one stray byte
  d.write("config.json", broken);
  std::string problem;
  const Config c = load_config(cfg.string(), &problem);
  EXPECT_TRUE(c.progress.empty());
  EXPECT_NE(problem.find("kept aside as " + cfg.string() + ".bad-N"), std::string::npos) << problem;
  std::string note;
  ASSERT_EQ(save_config(c, cfg.string(), &note), "");
  EXPECT_EQ(slurp(d.path / "config.json.bad-1"), broken);
  EXPECT_NE(note.find("kept as " + cfg.string() + ".bad-1"), std::string::npos) << note;
  d.write("config.json", "[1]");  // the second time: .bad-2
  ASSERT_EQ(save_config(c, cfg.string(), &note), "");
  EXPECT_EQ(slurp(d.path / "config.json.bad-2"), "[1]");
  EXPECT_EQ(slurp(d.path / "config.json.bad-1"), broken);
}

// Two windows on one settings file: each save merges the progress on disk, so neither window's
// progress is lost. (Old code: the last window to quit won.)
TEST(Issue48Files, TwoWindowsKeepBothProgress) {
  TempDir d;
  const std::string cfg = (d.path / "config.json").string();
  Config first;
  first.progress["01-problem"] = 2;
  first.progress["02-naive"] = 6;
  ASSERT_EQ(save_config(first, cfg), "");
  Config a = load_config(cfg), b = load_config(cfg);
  a.progress["03-sliced"] = 4;  // window A reads lesson 3
  b.progress["01-problem"] = 5;  // window B goes on in lesson 1
  ASSERT_EQ(save_config(b, cfg), "");
  ASSERT_EQ(save_config(a, cfg), "");  // A quits last
  const Config back = load_config(cfg);
  EXPECT_EQ(back.progress.at("01-problem"), 5);
  EXPECT_EQ(back.progress.at("02-naive"), 6);
  EXPECT_EQ(back.progress.at("03-sliced"), 4);
}

// XDG: XDG_CONFIG_HOME when absolute, else HOME/.config; neither: no path and a message (old code:
// gemmlab-config.json in whatever the current folder was).
TEST(Issue48Files, SettingsLocationFollowsXdgAndNeverTheCurrentFolder) {
  const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  const char* xdg_was = std::getenv("XDG_CONFIG_HOME");
  const std::string xdg = xdg_was ? xdg_was : "";
  setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
  EXPECT_EQ(config_path(), "/x/cfg/gemmlab/config.json");
  setenv("XDG_CONFIG_HOME", "relative/cfg", 1);  // invalid per the spec: ignored
  setenv("HOME", "/home/learner", 1);
  EXPECT_EQ(config_path(), "/home/learner/.config/gemmlab/config.json");
  unsetenv("XDG_CONFIG_HOME");
  unsetenv("HOME");
  std::string problem;
  EXPECT_EQ(config_path(&problem), "");
  EXPECT_NE(problem.find("neither XDG_CONFIG_HOME nor HOME"), std::string::npos) << problem;
  EXPECT_NE(save_config(Config{}, ""), "");
  setenv("HOME", home.c_str(), 1);
  if (xdg_was) setenv("XDG_CONFIG_HOME", xdg.c_str(), 1);
}

// A course folder whose name is not UTF-8: the save does not throw (old code: type_error.316, the
// session's progress lost) and the progress comes back under the same key.
TEST(Issue48Files, NonUtf8CourseFolderProgressIsSaved) {
  TempDir d;
  fs::create_directories(d.path / "cours\xe9");
  const std::string key = course_key((d.path / "cours\xe9").string(), kAssets);
  EXPECT_TRUE(is_valid_utf8(key));
  EXPECT_NE(key.find("cours\xEF\xBF\xBD" "E9"), std::string::npos) << key;
  Config c;
  c.last_course = key;
  c.progress[progress_key(key, "l\xff")] = 3;
  c.export_dir = "/tmp/\xc3";
  const std::string cfg = (d.path / "config.json").string();
  ASSERT_EQ(save_config(c, cfg), "");
  const Config back = load_config(cfg);
  EXPECT_EQ(back.last_course, key);
  EXPECT_EQ(back.progress.at(progress_key(key, "l\xff")), 3);
}

TEST(Issue48Files, JsonTextReplacesInvalidUtf8) {
  nlohmann::json j = {{"name", std::string("gemm\xff\xfe_kernel")}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);  // what the old code called
  const std::string out = json_text(j);
  EXPECT_EQ(out, "{\"name\":\"gemm\xEF\xBF\xBD\xEF\xBF\xBD_kernel\"}");
  EXPECT_EQ(utf8_escaped("a\xed\xa0\x80"), "a\xEF\xBF\xBD" "ED\xEF\xBF\xBD" "A0\xEF\xBF\xBD" "80");  // a surrogate
  EXPECT_TRUE(is_valid_utf8("中文 ok"));
  EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));  // overlong '/'
}

// `lessons --json` on a title that is not UTF-8 printed nothing and aborted (type_error.316); now
// the JSON holds U+FFFD and the command ends normally.
TEST(Issue48Files, LessonsJsonWithInvalidUtf8TitleIsValidJson) {
  TempDir d;
  d.write("course/course.toml", "lessons = [\"a\"]\n");
  d.write("course/a/lesson.toml", "id = \"a\"\n[[step]]\nview = \"grid\"\n");
  d.write("course/a/en.md", "# T\xff\xfeitle\n\n## One\nText.\n");
  const std::string cmd = std::string(GEMMLAB_EXE) + " lessons --json --course " + (d.path / "course").string() +
                          " > " + (d.path / "out.json").string() + " 2> " + (d.path / "err.txt").string();
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc)) << slurp(d.path / "err.txt");
  EXPECT_LE(WEXITSTATUS(rc), 1) << slurp(d.path / "err.txt");
  const auto j = nlohmann::json::parse(slurp(d.path / "out.json"));
  EXPECT_EQ(j["lessons"][0]["title"], "T\xEF\xBF\xBD\xEF\xBF\xBDitle");
}

// ---- Issue 48, bounded recursion and values the app cannot use.

// 100,000 levels under 1 MB: a message, not a stack overflow while the "bad value" message is
// built (old code: v.dump() recursed 100,000 deep).
TEST(Issue48Budgets, DeeplyNestedConfigIsAMessage) {
  TempDir d;
  const int depth = 100000;
  d.write("config.json", "{\"font_size\": " + std::string(depth, '[') + std::string(depth, ']') + "}");
  std::string problem;
  const Config c = load_config((d.path / "config.json").string(), &problem);
  EXPECT_EQ(c.font_size, 0.f);
  EXPECT_NE(problem.find("nests more than 64 levels deep"), std::string::npos) << problem.substr(0, 200);
  EXPECT_EQ(json_nesting_problem("{\"a\": \"[[[[[[\"}", 2), "");  // brackets in strings do not count
  EXPECT_NE(json_nesting_problem("[[[", 2), "");
}

// A font size of 1e-30 (all text invisible) or a panel 1e-9 wide is refused and named.
TEST(Issue48Budgets, TinyFontSizeIsRefused) {
  TempDir d;
  d.write("config.json", "{\"font_size\": 1e-30, \"lesson_panel_width\": 1e-9, \"progress\": {\"a\": 2}}");
  std::string problem;
  const Config c = load_config((d.path / "config.json").string(), &problem);
  EXPECT_EQ(c.font_size, 0.f);
  EXPECT_EQ(c.lesson_panel_width, 0.f);
  EXPECT_EQ(c.progress.at("a"), 2);
  EXPECT_NE(problem.find("font_size = 1e-30 is not 0 (automatic) or a number from 8"), std::string::npos) << problem;
  d.write("config.json", "{\"font_size\": 20}");
  EXPECT_EQ(load_config((d.path / "config.json").string()).font_size, 20.f);
}

// ---- Issue 48: the checker is the app's loader (images, tables, nesting, NaN).

// Only a PNG under assets/ is ever decoded: a 23-byte 16-bit PGM named .png (old code: handed to
// stb_image, a heap over-read), a path out of assets/, a symlink out of it, a folder, a web
// address are refused by the one rule the renderer and the checker share.
TEST(Issue48Images, OnlyPngFilesUnderAssetsAreAccepted) {
  TempDir d;
  d.write("assets/pgm.png", std::string("P5\n1 1\n65535\n\xff\xff", 15) + std::string(8, '\0'));
  d.write("secret.png", "\x89PNG\r\n\x1a\n");
  fs::create_directories(d.path / "assets" / "dir.png");
  fs::create_symlink(d.path / "secret.png", d.path / "assets" / "link.png");
  const std::string assets = (d.path / "assets").string();
  EXPECT_NE(lesson_image_problem(assets, "pgm.png").find("is not a PNG file"), std::string::npos);
  EXPECT_NE(lesson_image_problem(assets, "../secret.png").find("is outside assets/"), std::string::npos);
  EXPECT_NE(lesson_image_problem(assets, "link.png").find("is outside assets/"), std::string::npos);
  EXPECT_NE(lesson_image_problem(assets, "dir.png").find("not a regular file"), std::string::npos);
  EXPECT_NE(lesson_image_problem(assets, "https://x/a.png").find("web address"), std::string::npos);
  EXPECT_NE(lesson_image_problem(assets, "/etc/passwd").find("not a path relative"), std::string::npos);
  EXPECT_NE(lesson_image_problem(assets, "none.png").find("not found"), std::string::npos);
  // The checker finds images as md4c does (here inside a table cell and after a run of '![').
  d.write("course/course.toml", "lessons = [\"a\"]\n");
  d.write("course/a/lesson.toml", "id = \"a\"\ntitle.en = \"A\"\n[[step]]\nview = \"grid\"\n");
  d.write("course/a/en.md", "# A\n\n## One\n| x |\n|---|\n| ![p](pgm.png) |\n");
  const Course c = load_course((d.path / "course").string(), assets);
  ASSERT_EQ(c.lessons.size(), 1u);
  bool named = false;
  for (const auto& e : c.lessons[0].errors) named |= e.message.find("image \"pgm.png\" is not a PNG") != std::string::npos;
  EXPECT_TRUE(named);
}

// Nesting that would make toml++ or md4c recurse or go quadratic is refused first, with its line.
TEST(Issue48Budgets, DeepTomlAndMarkdownAreRefusedWithTheirLine) {
  std::string dotted = "a";
  for (int i = 0; i < 100000; ++i) dotted += ".a";
  EXPECT_EQ(toml_nesting_problem("x = 1\n" + dotted + " = 1\n").line, 2);
  EXPECT_NE(toml_nesting_problem("v = " + std::string(1000, '[') + std::string(1000, ']')).message, "");
  EXPECT_NE(toml_nesting_problem("v = " + std::string(1000, '{') + "").message, "");
  EXPECT_TRUE(toml_nesting_problem("v = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]\n[[step]]\nview = \"a.b.c\" # x.y.z\n").empty());
  EXPECT_TRUE(toml_nesting_problem("s = \"\"\"\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n\"\"\"\n").empty());
  EXPECT_EQ(markdown_nesting_problem("ok\n\n" + std::string(100, '>') + " deep\n").line, 3);
  EXPECT_NE(markdown_nesting_problem(std::string(100000, '[')).message, "");
  std::string links;
  for (int i = 0; i < 1000; ++i) links += "[a](";
  EXPECT_NE(markdown_nesting_problem(links).message, "");
  EXPECT_TRUE(markdown_nesting_problem("[a](b) [c](d) `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`\n").empty());
  // What the panel shows instead, and the checker's message at the line.
  const auto blocks = parse_markdown(std::string(100000, '['));
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_NE(blocks[0].spans.at(0).text.find("not shown"), std::string::npos);
  TempDir d;
  d.write("course/course.toml", "lessons = [\"a\"]\n");
  d.write("course/a/lesson.toml", "id = \"a\"\ntitle.en = \"A\"\n" + dotted + " = 1\n");
  const Course c = load_course((d.path / "course").string(), kAssets);
  ASSERT_EQ(c.lessons.size(), 1u);
  ASSERT_FALSE(c.lessons[0].errors.empty());
  EXPECT_NE(c.lessons[0].errors[0].message.find("dotted keys nest more than 32 deep"), std::string::npos)
      << c.lessons[0].errors[0].message;
}

// nan and inf are TOML, but a tolerance of inf made every guess right and nan judged an exact
// guess wrong; settings values the same.
TEST(Issue48Budgets, NanAndInfAreRefusedInLessons) {
  TempDir d;
  d.write("course/course.toml", "lessons = [\"a\"]\n");
  d.write("course/a/en.md", "# A\n\n## One\nText.\n");
  for (const char* bad : {"inf", "nan", "-inf", "+nan"}) {
    d.write("course/a/lesson.toml", std::string("id = \"a\"\ntitle.en = \"A\"\n[[step]]\nview = \"grid\"\n"
                                                "[step.predict]\nquantity = \"grid.l2_hit_rate\"\ntolerance = ") + bad + "\n");
    const Course c = load_course((d.path / "course").string(), kAssets);
    bool named = false;
    for (const auto& e : c.lessons.at(0).errors) named |= e.message.find("must be a finite number") != std::string::npos;
    EXPECT_TRUE(named) << bad;
  }
}

// ncu CSV: one row per kernel (--page raw) made the parser scan every kernel so far per row, and
// each kernel becomes a simulation: a file of more than kMaxNcuKernels is refused at once, and
// up to it parsing is linear. (Old code: 100,000 rows read for minutes, then as many simulations.)
TEST(Issue48Budgets, NcuCsvWithManyKernelsIsBoundedAndLinear) {
  auto csv = [](int rows) {
    std::string t = "ID,Kernel Name,Block Size,Grid Size,Device,dram__bytes.sum\n,,,,,byte\n";
    for (int i = 0; i < rows; ++i) t += std::to_string(i) + ",k" + std::to_string(i) + ",\"(1, 1, 1)\",\"(1, 1, 1)\",0,1\n";
    return t;
  };
  const auto t0 = std::chrono::steady_clock::now();
  const auto many = parse_ncu_csv(csv(100000), "many.csv");
  ASSERT_FALSE(many);
  EXPECT_NE(many.error().find("more than 4096 kernels"), std::string::npos) << many.error();
  const auto ok = parse_ncu_csv(csv(4096), "ok.csv");
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->kernels.size(), 4096u);
  EXPECT_EQ(ok->kernels.back().name, "k4095");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

// 2,000 simulations (one per ncu kernel) run on the pool's few threads, not one thread each (the
// Measured view's std::async started ~300 threads on 2 cores).
TEST(Issue48Budgets, SimulationsShareASmallPool) {
  std::atomic<int> running{0}, most{0};
  std::vector<std::future<int>> jobs;
  for (int i = 0; i < 2000; ++i)
    jobs.push_back(background_pool().submit([&, i] {
      const int now = ++running;
      int m = most.load();
      while (now > m && !most.compare_exchange_weak(m, now)) {}
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      --running;
      return i * 2;
    }));
  long long sum = 0;
  for (auto& j : jobs) sum += j.get();
  EXPECT_EQ(sum, 2000LL * 1999);
  EXPECT_LE(most.load(), static_cast<int>(background_pool().threads()));
  EXPECT_LE(background_pool().threads(), 4u);
}

}  // namespace
}  // namespace gemmlab::app
